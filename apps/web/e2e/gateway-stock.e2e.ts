/**
 * The system gateway stock in the browser: a system administrator opens System › System
 * gateways, imports an .xlsx through the wizard (file → per-row report naming the bad rows →
 * "only the valid rows" → result with the claim keys shown once), finds the new gateways in the
 * list, assigns one to a customer, creates one by hand and deletes it after confirming; the page
 * passes axe-core. A company administrator has no such page.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { ADMIN, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
const shots = process.env.GWSTOCK_SHOTS ?? null;
/** A mark of this attempt for the SNs it writes: a retry does not meet the first attempt's gateways. */
const newStamp = () => Date.now().toString(36).toUpperCase();

beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal?.close());

async function workbook(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Gateways');
  ws.addRow(['SN', 'Customer (id or name)', 'Protocol', 'Alias']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function shot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

async function openStock(page: Page) {
  await portal.login(page, ADMIN.account, ADMIN.password);
  await page.getByTestId('side-menu').getByText('System', { exact: true }).click();
  await page.getByTestId('side-menu').getByText('System gateways').click();
  await page.waitForURL('**/management/gateway');
  await page.getByTestId('stock-table').waitFor();
}

describe('system gateway stock', () => {
  it('imports a file through the wizard: the bad rows are named, the valid ones written, the keys shown once', async () => {
    const stamp = newStamp();
    const sns = [`E2E${stamp}A`, `E2E${stamp}B`, `E2E${stamp}C`];
    const { page, context } = await portal.page();
    await openStock(page);
    await shot(page, 'list');

    await page.getByTestId('stock-import').click();
    const file = await workbook([
      [sns[0]!, '', 'sunfleet-hybrid-1p', 'Warehouse A'],
      ['bad sn!', '', '', ''],
      [sns[1]!, '', 'no-such-protocol', ''],
      [sns[2]!, '', '', ''],
    ]);
    await page.locator('.ant-modal input[type=file]').setInputFiles({
      name: 'gateways.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    await page.getByTestId('stock-import-check').click();
    await page.getByTestId('stock-report').waitFor();
    expect(await page.getByTestId('stock-report-summary').innerText()).toContain('2 of 4 rows are valid');
    const problems = await page.getByTestId('stock-problems').innerText();
    expect(problems).toContain('bad sn!');
    expect(problems).toMatch(/3\s+bad sn!\s+The SN must be/);
    expect(problems).toMatch(new RegExp(`4\\s+${sns[1]}\\s+Unknown protocol “no-such-protocol”`));
    await shot(page, 'import-report');

    await page.getByTestId('stock-import-next').click();
    await page.getByTestId('stock-mode-valid').click();
    await shot(page, 'import-mode');
    await page.getByTestId('stock-import-write').click();
    await page.getByTestId('stock-import-result').waitFor();
    expect(await page.getByTestId('stock-import-written').innerText()).toContain('2 gateways created');
    const key = await page.getByTestId(`claim-key-${sns[0]}`).innerText();
    expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(await page.getByTestId(`claim-key-${sns[2]}`).count()).toBe(1);
    await shot(page, 'import-result');

    // Closing asks first: the keys cannot be shown again.
    await page.getByTestId('stock-import-close').click();
    await page.getByTestId('stock-secrets-close-ok').click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout: 10_000 }).toBe(0);
    await page.getByTestId('stock-filter-keyword').fill(`E2E${stamp}`);
    await page.getByTestId('stock-filter-keyword').press('Enter');
    await expect.poll(() => page.getByTestId('stock-table').innerText()).toContain(sns[2]!);
    const table = await page.getByTestId('stock-table').innerText();
    expect(table).toContain(sns[0]!);
    expect(table).not.toContain(sns[1]!);
    expect(await page.getByTestId(`stock-protocol-${sns[0]}`).innerText()).toBe('sunfleet-hybrid-1p');
    // The key is shown nowhere any more.
    await expect.poll(() => page.content(), { timeout: 10_000 }).not.toContain(key);

    // Assign to a customer picked by name.
    await page.getByTestId(`stock-assign-${sns[0]}`).click();
    await page.getByTestId('stock-assign-customer').click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await option.waitFor();
    const customer = (await option.getAttribute('title')) ?? '';
    await option.click();
    // The picker shows the chosen customer before the dialog is confirmed.
    await expect.poll(() => page.getByTestId('stock-assign-customer').innerText(), { timeout: 10_000 }).toContain(customer);
    await page.getByTestId('stock-edit-ok').click();
    await expect.poll(() => page.getByTestId(`stock-customer-${sns[0]}`).count(), { timeout: 10_000 }).toBe(1);
    // Both rows selected: the bar offers assign and protocol for the selection.
    await page.locator('.ant-table-thead .ant-checkbox-input').check();
    await page.getByTestId('stock-bulk-bar').waitFor();
    await shot(page, 'list-rows');

    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('creates one gateway by hand and deletes it after confirming', async () => {
    const { page, context } = await portal.page({ locale: 'es-ES' });
    await openStockEs(page);
    const sn = `E2E${newStamp()}H`;
    await page.getByTestId('stock-create').click();
    await page.getByTestId('stock-create-sn').fill(sn);
    await page.getByTestId('stock-create-submit').click();
    await page.getByTestId(`claim-key-${sn}`).waitFor();
    await shot(page, 'create-secrets-es');
    await page.getByTestId('stock-create-close').click();
    await page.getByTestId('stock-secrets-close-ok').click();
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), { timeout: 10_000 }).toBe(0);

    await page.getByTestId('stock-filter-keyword').fill(sn);
    await page.getByTestId('stock-filter-keyword').press('Enter');
    await page.getByTestId(`stock-sn-${sn}`).waitFor();
    await page.getByTestId(`stock-delete-${sn}`).click();
    expect(await page.locator('.ant-modal-confirm-title').innerText()).toContain(`¿Eliminar la pasarela ${sn}?`);
    await page.getByTestId('stock-delete-ok').click();
    await expect.poll(() => page.getByTestId(`stock-sn-${sn}`).count(), { timeout: 10_000 }).toBe(0);
    await shot(page, 'after-delete-es');
    await context.close();
  });

  it('a company administrator has no System gateways page', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('side-menu').innerText()).toContain('Plants');
    await page.goto('/management/gateway');
    await expect.poll(() => page.getByTestId('forbidden').count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });
});

async function openStockEs(page: Page) {
  // The interface in Spanish from the first paint (the stored choice the language switch writes).
  await page.addInitScript(() => localStorage.setItem('language', 'es'));
  await portal.login(page, ADMIN.account, ADMIN.password);
  await page.goto('/management/gateway');
  await page.getByTestId('stock-table').waitFor();
}
