/**
 * The energy-programme area in the real portal, with a test OpenADR VTN (apps/server/test/vtn)
 * as the utility and the demo fleet's simulated storage inverters: the owner reads a programme's
 * terms (the PDF is served), enrols a plant's storage inverter after accepting them; the VEN
 * registers it and the enrolment is accepted; the device is removed and added back ("Add
 * devices"), pending until the VEN registers it again; the utility's event appears with what was sent to
 * the device and what it did; the owner opts out after a confirmation and the event is cancelled
 * for them. Screenshots to SHOTS_DIR when set.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TestVtn } from '../../server/test/vtn/vtn.ts';
import { seriousViolations } from './axe.ts';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 30_000 };
const shots = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
};

let portal: Portal;
let vtn: TestVtn;
let programId: string;

/** What the current attempt started, closed last first. */
const started: { close(): Promise<unknown> }[] = [];
async function stop() {
  for (const x of started.splice(0).reverse()) await x.close();
}

// A utility and a portal of their own for each attempt: a retry after a failure does not find the
// first attempt's enrolment (its device would no longer be offered). The last attempt's are
// closed after the failure's trail is printed, which needs the page.
beforeEach(async () => {
  await stop();
  vtn = await new TestVtn().start();
  started.push(vtn);
  programId = vtn.bl.program({
    programName: 'BESS-DR-2026',
    attributes: [{ type: 'PROGRAM_TYPE', values: ['BATTERY_DISCHARGE'] }],
  }).id;
  vtn.bl.program({ programName: 'Unlisted pilot' });
  portal = await startPortal({
    SIMULATOR: 'on',
    SIMULATOR_INTERVAL: '5',
    SIMULATOR_BACKFILL_DAYS: '0',
    OADR_VTN_URL: vtn.url,
    OADR_CLIENT_ID: 'ven_client',
    OADR_CLIENT_SECRET: 'ven_secret',
    OADR_POLL_SECONDS: '5',
  });
  started.push(portal);
});
afterAll(stop);

describe('energy programmes', () => {
  it('enrol a storage inverter, see the event and what each device did, opt out', { timeout: 300_000 }, async () => {
    const get = await portal.api(demo.owner);
    const me = (await get<{ id: number }>('/api/v1/user')).data;
    // The demo fleet's devices exist once their gateways have uploaded.
    let plant: { id: number; name: string } | undefined;
    for (const deadline = Date.now() + 60_000; !plant && Date.now() < deadline; ) {
      const stations = (
        await get<{ id: number; name: string; storageDevices: number }[]>(`/api/v1/oadr/userStationList/${me.id}`)
      ).data;
      plant = stations.find((s) => s.storageDevices > 0);
      if (!plant) await new Promise((r) => setTimeout(r, 1000));
    }
    expect(plant, 'a demo plant with a storage inverter').toBeDefined();

    const pdf = await fetch(`${portal.url}/assets/vpp/bess-dr-2026.pdf`);
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);

    const { page } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await page.goto('/energyHub/enrollmentPlan');
    const programmes = page.getByTestId('dr-programmes');
    await programmes.getByText('BESS-DR-2026').waitFor(WAIT);
    await expect(programmes.getByRole('link', { name: 'Terms (PDF)' }).getAttribute('href')).resolves.toBe(
      '/assets/vpp/bess-dr-2026.pdf',
    );
    await programmes.getByText('No terms available: enrolment is not possible').waitFor(WAIT);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'enrollment-plan');

    await page.getByTestId(`enrol-${programId}`).click();
    const form = page.getByTestId('enrol-form');
    await form.waitFor(WAIT);
    // Nothing can be sent before the terms are accepted.
    expect(await page.getByTestId('enrol-submit').isDisabled()).toBe(true);
    await page.getByTestId('accept-terms').check();
    await page.getByTestId('enrol-first-name').fill('Marta');
    await page.getByTestId('enrol-last-name').fill('Ruiz');
    await page.getByTestId('service-streetAddress').fill('Calle Mayor 1');
    await page.getByTestId('service-locality').fill('Madrid');
    await page.getByTestId('service-region').fill('Madrid');
    await page.getByTestId('service-postalCode').fill('28013');
    await page.getByTestId('service-country').fill('ES');
    await page.getByTestId('enrol-source-account').fill('123456');
    await page.getByTestId('enrol-utility-account').fill('Bad Account');
    await page.getByTestId('enrol-submit').click();
    await form.getByText('Lowercase letters, digits, _ or -, at most 16').first().waitFor(WAIT);
    await page.getByTestId('enrol-utility-account').fill('marta_01');
    await page.getByTestId('enrol-plant').click();
    await page.locator('.ant-select-item-option').filter({ hasText: plant!.name }).click();
    await form.locator('tbody input[type=checkbox]').first().waitFor(WAIT);
    // The portal does not know this battery's storage: without it the form says so and sends nothing.
    const storage = form.locator('input[aria-label$="Storage (kWh)"]').first();
    await storage.fill('');
    await page.getByTestId('enrol-submit').click();
    await page.getByTestId('enrol-error').getByText('Enter the charge, discharge and storage capacity of').waitFor(WAIT);
    await storage.fill('10');
    await shot(page, 'enrol-form');
    // The utility does not answer until the page has shown the enrolment pending: the VEN's next
    // poll (every 5 s) could otherwise register the device before the page reads it.
    vtn.down = true;
    await page.getByTestId('enrol-submit').click();

    const detail = page.getByTestId('dr-enrollment-detail');
    await detail.waitFor(WAIT);
    await detail.getByText('Pending').waitFor(WAIT);
    vtn.down = false;
    // The VEN registers the device at the VTN (its poll every 5 s): accepted.
    await expect.poll(async () => vtn.store.resources.size, { timeout: 30_000 }).toBeGreaterThan(0);
    const list = (await get<{ list: { id: number; state: string }[] }>('/api/v1/oadr/enrollments')).data.list;
    await expect
      .poll(async () => (await get<{ state: string }>(`/api/v1/oadr/enrollment/${list[0]!.id}/state`)).data.state, {
        timeout: 30_000,
      })
      .toBe('accepted');
    await page.reload();
    // The VEN registered the device, so it is registered itself: the page says so.
    await page.getByTestId('dr-vtn-state').getByText('Registered', { exact: true }).waitFor(WAIT);
    await page.getByTestId(`dr-open-${list[0]!.id}`).click();
    await page.getByTestId('dr-enrollment-detail').getByText('Accepted').waitFor(WAIT);
    await page.getByTestId('dr-enrollment-detail').getByText('Registered with the utility', { exact: false }).waitFor(WAIT);
    await page.waitForTimeout(500);
    await shot(page, 'enrollment-detail');

    // Remove the device (after a confirmation), then add it back through "Add devices": pending
    // again until the VEN registers it, then accepted.
    const enrolled = page.getByTestId('dr-enrollment-detail');
    const sn = ((await enrolled.locator('.ant-list-item-meta-title').first().textContent()) ?? '').split(' · ')[0]!;
    await enrolled.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await enrolled.getByText('No devices: add one to take part in events').waitFor(WAIT);
    await page.getByTestId('dr-add-devices-open').click();
    const adding = page.getByTestId('dr-add-devices');
    await adding.waitFor(WAIT);
    await page.getByTestId('dr-add-devices-plant').click();
    await page.locator('.ant-select-item-option').filter({ hasText: plant!.name }).last().click();
    await adding.getByRole('checkbox', { name: sn }).waitFor(WAIT);
    await adding.locator('input[aria-label$="Storage (kWh)"]').first().fill('10');
    await shot(page, 'add-devices');
    vtn.down = true;
    await page.getByTestId('dr-add-devices-submit').click();
    await adding.waitFor({ state: 'detached', ...WAIT });
    await enrolled.getByText(sn, { exact: false }).waitFor(WAIT);
    await enrolled.getByText('Pending').waitFor(WAIT);
    vtn.down = false;
    await expect
      .poll(async () => (await get<{ state: string }>(`/api/v1/oadr/enrollment/${list[0]!.id}/state`)).data.state, {
        timeout: 30_000,
      })
      .toBe('accepted');
    await page.keyboard.press('Escape');

    // The utility's event: discharge 2 kW for an hour from a minute ago.
    await vtn.bl.event({
      programID: programId,
      eventName: 'Evening peak',
      intervalPeriod: { start: new Date(Date.now() - 60_000).toISOString(), duration: 'PT1H' },
      payloadDescriptors: [{ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'DISPATCH_SETPOINT', units: 'KW' }],
      intervals: [{ id: 0, payloads: [{ type: 'DISPATCH_SETPOINT', values: [-2] }] }],
    });
    await expect
      .poll(async () => (await get<{ total: number }>('/api/v1/oadr/events')).data.total, { timeout: 45_000, interval: 1000 })
      .toBeGreaterThan(0)
      .catch((err: Error) => {
        throw new Error(`${err.message}; VTN requests: ${JSON.stringify(vtn.requests.slice(-15))}`);
      });
    await page.goto('/energyHub/event');
    const events = page.getByTestId('energy-events-page');
    await events.getByText('Evening peak').waitFor(WAIT);
    await events.getByText('Active').first().waitFor(WAIT);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'events');
    await events.getByText('Evening peak').click();
    const eventDetail = page.getByTestId('dr-event-detail');
    await eventDetail.waitFor(WAIT);
    // The battery's command: done (its settings sent and read before), or skipped with the reason
    // (a simulated battery at its reserve is not discharged).
    await expect
      .poll(async () => (await eventDetail.getByText(/^(Done|Skipped)$/).count()) > 0, { timeout: 45_000, interval: 1000 })
      .toBe(true);
    if ((await eventDetail.getByText('Done').count()) > 0)
      await eventDetail
        .getByText(/maxSellPower|activePowerLimit/)
        .first()
        .waitFor(WAIT);
    else
      await eventDetail
        .getByText(/reserve/)
        .first()
        .waitFor(WAIT);
    await shot(page, 'event-detail');
    await page.getByTestId('dr-opt-out').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('dr-event-state').getByText('Cancelled').waitFor(WAIT);
    await eventDetail.getByText('You opted out').waitFor(WAIT);
    await shot(page, 'event-opted-out');
  });
});
