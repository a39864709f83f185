/**
 * The plant pages in the real portal: an owner creates a plant with three time-of-use price
 * segments (and sees the segment rules at work), finds it in the list and edits it; shares it
 * with the demo visitor, who sees it but can change nothing; selects plants (the bulk bar keeps
 * the count across filtering and drops a plant deleted meanwhile); offers a plant to another
 * account, which accepts it on its transfers page.
 */

import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal?.close());

/** Server round trips under a loaded machine: poll up to 10 s (the default is 1 s). */
const WAIT = { timeout: 10_000 };
const PLANT = 'E2E Solar Park';
/** A 1×1 PNG: the picture is told by its bytes, stored, and shrunk to a thumbnail on a canvas. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

async function signIn(account: string, on: Portal = portal) {
  const { page, context } = await on.page();
  await on.login(page, account, DEMO_PASSWORD);
  await page.waitForURL('**/plants');
  await page.getByTestId('plant-table').waitFor();
  return { page, context };
}

/** The id of the list row showing `name`. */
async function rowId(page: Page, name: string): Promise<string> {
  const row = page.locator('.ant-table-row', { hasText: name });
  await row.first().waitFor();
  return (await row.first().getAttribute('data-row-key'))!;
}

/** Type a time into an antd TimePicker and commit it. */
async function setTime(page: Page, testId: string, hhmm: string) {
  const input = page.getByTestId(testId);
  await input.click();
  await input.press('ControlOrMeta+a');
  await input.pressSequentially(hhmm);
  await input.press('Enter');
}

async function search(page: Page, text: string) {
  await page.getByTestId('plant-search').fill(text);
}

/**
 * The demo owner has a plant named `name`, created through the API when an earlier attempt of the
 * test deleted it or transferred it away: a retry starts from the plants the first attempt had.
 */
async function ensureOwnPlant(name: string) {
  const owner = await portal.api(demo.owner);
  const list = await owner<{ list: { name: string }[] }>('/api/v1/plants?page=1&size=100');
  if (list.data.list.some((p) => p.name === name)) return;
  const created = await owner('/api/v1/plant', {
    method: 'POST',
    body: { name, capacity: 10, type: 1, timezone: 'Europe/Madrid', latitude: 37.4, longitude: -6 },
  });
  expect(created.code).toBe(ErrorCode.ok);
}

describe('plants', () => {
  let plantId = '';

  it('an owner creates a plant with three price segments, finds it and edits it', async () => {
    const { page, context } = await signIn(demo.owner);
    await page.getByTestId('add-plant').click();
    await page.waitForURL('**/plant-add');

    await page.getByTestId('plant-name').fill(PLANT);
    await page.getByTestId('plant-capacity').fill('42.5');
    await page.getByTestId('plant-latitude').fill('37.5');
    await page.getByTestId('plant-longitude').fill('-5.5');
    await page.getByTestId('plant-valuation').getByText('Time-of-use price').click();

    // Three rows: the first covers the day, each added row splits the last.
    for (let i = 0; i < 3; i++) await page.getByTestId('segment-add').click();
    await expect.poll(() => page.getByTestId('price-segments').locator('[data-testid^="segment-start-"]').count(), WAIT).toBe(3);

    // Pushing the first end past the second segment's end is shown on that row…
    await setTime(page, 'segment-end-0', '18:00');
    await expect.poll(() => page.getByTestId('segment-1').innerText(), WAIT).toContain('must end after it starts');
    // …and moving it back fixes it (the next start follows the end).
    await setTime(page, 'segment-end-0', '08:00');
    await expect.poll(() => page.getByTestId('segment-1').innerText(), WAIT).not.toContain('must end after it starts');
    await page.getByTestId('segment-price-0').fill('0.12');
    await page.getByTestId('segment-price-1').fill('0.25');
    await page.getByTestId('segment-price-2').fill('0.3');

    // The picture: a text file named .png is refused by its content; a real PNG is stored.
    const file = page.getByTestId('plant-picture').locator('input[type="file"]');
    await file.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await expect.poll(() => page.locator('.ant-message').innerText(), WAIT).toContain('must be a JPG or PNG');
    await file.setInputFiles({ name: 'roof.png', mimeType: 'image/png', buffer: PNG });
    await expect
      .poll(() => page.getByTestId('plant-picture-preview').locator('img').first().getAttribute('src'))
      .toMatch(/^\/uploads\/plants\/[a-f0-9]{32}\.jpg$/); // the canvas thumbnail (the picture itself is the PNG)

    // An unknown gateway is refused by the check like a wrong key (1006): which SNs exist is not told.
    await page.getByTestId('gateway-sn').fill('NO-SUCH-GW');
    await page.getByTestId('gateway-key').fill('wrong');
    await page.getByTestId('gateway-check').click();
    await expect.poll(() => page.getByTestId('plant-form').innerText(), WAIT).toContain('The gateway SN or key is incorrect');
    await page.getByTestId('gateway-sn').fill('');
    await page.getByTestId('gateway-key').fill('');

    await page.getByTestId('plant-save').click();
    await page.waitForURL('**/plants');
    await search(page, 'E2E Solar');
    plantId = await rowId(page, PLANT);
    expect(await page.locator(`[data-row-key="${plantId}"]`).innerText()).toContain('42.5 kWp');

    // Edit: the three segments come back; change the capacity.
    await page.getByTestId(`plant-edit-${plantId}`).click();
    await page.waitForURL(`**/plants/edit/${plantId}`);
    await page.getByTestId('price-segments').waitFor();
    const starts = page.getByTestId('price-segments').locator('[data-testid^="segment-start-"]');
    expect(await starts.count()).toBe(3);
    expect(await page.getByTestId('segment-end-0').inputValue()).toBe('08:00');
    expect(await page.getByTestId('segment-end-2').inputValue()).toBe('23:59');
    await page.getByTestId('plant-capacity').fill('50');
    await page.getByTestId('plant-save').click();
    await page.waitForURL('**/plants');
    await search(page, 'E2E Solar');
    await expect.poll(() => page.locator(`[data-row-key="${plantId}"]`).innerText(), WAIT).toContain('50 kWp');
    await context.close();
  });

  it('shares it with the demo visitor, who sees it but can change nothing', async () => {
    const owner = await signIn(demo.owner);
    await search(owner.page, 'E2E Solar');
    await owner.page.getByTestId(`plant-share-${plantId}`).click();
    const dialog = owner.page.getByTestId('share-dialog');
    // Not with oneself (701, shown under the field).
    await owner.page.getByTestId('share-account').fill(demo.owner);
    await owner.page.getByTestId('share-submit').click();
    await expect.poll(() => dialog.innerText(), WAIT).toContain('You cannot share with yourself');
    await owner.page.getByTestId('share-account').fill(demo.visitor);
    await owner.page.getByTestId('share-submit').click();
    await expect.poll(() => owner.page.getByTestId(`share-user-${demo.visitor}`).count(), WAIT).toBe(1);
    expect(await owner.page.getByTestId(`share-user-${demo.visitor}`).innerText()).toContain('Visitor');
    await owner.context.close();

    const visitor = await signIn(demo.visitor);
    await search(visitor.page, 'E2E Solar');
    const id = await rowId(visitor.page, PLANT);
    expect(id).toBe(plantId);
    for (const action of ['edit', 'share', 'transfer', 'delete'])
      expect(await visitor.page.getByTestId(`plant-${action}-${plantId}`).count()).toBe(0);
    expect(await visitor.page.getByTestId('add-plant').count()).toBe(0);
    // The edit page by address: the 403 page, no form.
    await visitor.page.goto(`/plants/edit/${plantId}`);
    await visitor.page.getByTestId('forbidden').waitFor();
    expect(await visitor.page.getByTestId('plant-name').count()).toBe(0);
    await visitor.context.close();
  });

  it('selection: the bulk bar shows the count, survives filtering, drops a deleted plant', async () => {
    await ensureOwnPlant('Finca Olivar Storage');
    const { page, context } = await signIn(demo.owner);
    const a = await rowId(page, 'Casa Marta Rooftop');
    const b = await rowId(page, 'Finca Olivar Storage');
    expect(await page.getByTestId('bulk-bar').count()).toBe(0);
    await page.locator(`[data-row-key="${a}"] input[type="checkbox"]`).check();
    await page.locator(`[data-row-key="${b}"] input[type="checkbox"]`).check();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), WAIT).toBe('2 plants selected');

    // Filtering hides one of them from the page; the selection keeps both.
    await search(page, 'Casa');
    await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBe(1);
    expect(await page.getByTestId('bulk-count').innerText()).toBe('2 plants selected');
    await search(page, '');
    await expect.poll(() => page.locator('.ant-table-row', { hasText: 'Finca Olivar Storage' }).count(), WAIT).toBe(1);

    // Deleting a selected plant (after a confirmation) takes it out of the selection.
    await page.getByTestId(`plant-delete-${b}`).click();
    await page.getByTestId('delete-confirm-ok').click();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), WAIT).toBe('1 plant selected');
    await expect.poll(() => page.locator(`[data-row-key="${b}"]`).count(), WAIT).toBe(0);
    await page.getByText('Clear selection').click();
    await expect.poll(() => page.getByTestId('bulk-bar').count(), WAIT).toBe(0);
    await context.close();
  });

  it('an owner offers a plant with their password; the recipient accepts on the transfers page; it leaves the owner', async () => {
    await ensureOwnPlant('Workshop AC-coupled');
    const { page, context } = await signIn(demo.owner);
    const id = await rowId(page, 'Workshop AC-coupled');
    const offer = async (account: string, password: string) => {
      await page.getByTestId('transfer-account').fill(account);
      await page.getByTestId('transfer-password').fill(password);
      await page.getByTestId('transfer-submit').click();
      await page.getByTestId('transfer-confirm-ok').click();
    };
    await page.getByTestId(`plant-transfer-${id}`).click();
    await expect.poll(() => page.getByTestId('transfer-dialog').innerText(), WAIT).toContain('must accept the transfer');
    await offer(demo.owner, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('transfer-dialog').innerText(), WAIT).toContain('This plant is already yours');
    await offer(demo.companyAdmin, 'NotThePassword1');
    await expect.poll(() => page.getByTestId('transfer-dialog').innerText(), WAIT).toContain('The password is wrong');

    const mail = portal.smtp.waitFor(demo.companyAdmin, 20_000);
    await offer(demo.companyAdmin, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('transfer-dialog').count(), WAIT).toBe(0);
    expect((await mail).subject).toBe(`Sunfleet: ${demo.owner} offers you the plant Workshop AC-coupled`);
    // Nothing changes until the recipient answers: the plant is still the owner's.
    await page.reload();
    await expect.poll(() => page.locator(`[data-row-key="${id}"]`).count(), WAIT).toBe(1);

    // The recipient accepts on the transfers page, after a confirmation.
    const recipient = await signIn(demo.companyAdmin);
    await recipient.page.getByTestId('open-transfers').click();
    await recipient.page.waitForURL('**/plants/transfers');
    const item = recipient.page.getByTestId('transfers-offered').locator('.ant-list-item', { hasText: 'Workshop AC-coupled' });
    await item.getByRole('button', { name: 'Accept' }).click();
    await recipient.page.getByTestId('transfer-step-ok').click();
    await expect
      .poll(() => recipient.page.locator('.ant-message').innerText(), WAIT)
      .toContain('Workshop AC-coupled is now yours');
    await expect
      .poll(() => recipient.page.getByTestId('transfers-offered').innerText(), WAIT)
      .toContain('No plant is offered to you');
    await recipient.context.close();

    // The owner sees the plant gone.
    await page.reload();
    await page.getByTestId('plant-table').waitFor();
    await expect.poll(() => page.locator(`[data-row-key="${id}"]`).count(), WAIT).toBe(0);
    await context.close();
  });
});

/** With the simulated demo fleet: the demo owner's plants have gateways whose label keys we know. */
describe('gateway replacement', () => {
  let fleet: Portal;
  /** Attempts of the test so far: each takes a pair of gateways (and their plants) of its own. */
  let attempts = 0;
  beforeAll(async () => {
    // Two gateways for each attempt: a retry does not meet the plant the first attempt deleted or
    // the gateway it replaced.
    fleet = await startPortal({ SIMULATOR: 'on', SIMULATOR_GATEWAYS: '4', SIMULATOR_BACKFILL_DAYS: '0' });
  });
  afterAll(() => fleet?.close());

  it('replaces a plant gateway: a wrong key is refused (1006), then bind the new one and unbind the old', async () => {
    const file = path.join(fleet.dataDir, 'demo-fleet.json');
    await expect.poll(() => fs.existsSync(file), { timeout: 30_000 }).toBe(true);
    const pair = 2 * attempts++;
    const [one, two] = (
      JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{
        sn: string;
        claimKey: string;
        plant: { name: string };
      }>
    ).slice(pair, pair + 2);
    const { page, context } = await signIn(demo.owner, fleet);

    // Free the second gateway: deleting its plant unbinds it.
    await search(page, two!.plant.name.slice(0, 32));
    const other = await rowId(page, two!.plant.name.slice(0, 32));
    await page.getByTestId(`plant-delete-${other}`).click();
    await page.getByTestId('delete-confirm-ok').click();
    await expect.poll(() => page.locator(`[data-row-key="${other}"]`).count(), WAIT).toBe(0);

    await search(page, one!.plant.name.slice(0, 32));
    const id = await rowId(page, one!.plant.name.slice(0, 32));
    await page.getByTestId(`plant-edit-${id}`).click();
    await page.getByTestId(`gateway-${one!.sn}`).waitFor();
    await page.getByTestId(`gateway-replace-${one!.sn}`).click();
    await page.getByTestId('gateway-sn').fill(two!.sn);
    await page.getByTestId('gateway-key').fill('WRONG-KEY');
    await page.getByTestId('gateway-check').click();
    await expect.poll(() => page.locator('.ant-modal').innerText(), WAIT).toContain('The gateway SN or key is incorrect');
    await page.getByTestId('gateway-key').fill(two!.claimKey);
    await page.getByTestId('gateway-check').click();
    await page.getByTestId('gateway-ok').waitFor();
    await page.getByTestId('gateway-bind-submit').click();
    await page.getByTestId('gateway-replace-ok').click();
    await page.getByTestId(`gateway-${two!.sn}`).waitFor();
    await expect.poll(() => page.getByTestId(`gateway-${one!.sn}`).count(), WAIT).toBe(0);
    await context.close();
  });
});
