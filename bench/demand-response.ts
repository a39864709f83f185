/**
 * Demand-response benchmark: an event dispatched to 1,000 enrolled simulated batteries (250
 * plants × 4 three-phase hybrid inverters, each in an accepted enrolment), the VEN in this
 * process as the server runs it (the portal's app on a loopback port with the webhook, the VEN's
 * store on a temp SQLite file, or PostgreSQL with TEST_DATABASE_URL), the test VTN
 * (apps/server/test/vtn) as the utility. The batteries are the simulator's register banks behind
 * the in-process simulated command channel (apps/server/test/sim-channel.ts): every command is
 * a real Modbus read or write encoded, executed and answered; the MQTT leg to gateways is what
 * `npm run bench -- commands` measures (1,000 write jobs' round trip).
 *
 *   npm run bench -- demand-response        (node --import tsx bench/demand-response.ts)
 *
 * Measures: registration of the VEN and 1,000 resources (upkeep); from the VTN sending the
 * event's notification to the last battery command acknowledged (budget ≤ 10 s); the restores
 * after the VTN ends the event; the report sent (time, and its resources).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { OadrConfig } from '../apps/server/src/config.ts';
import { venOf } from '../apps/server/src/modules/demand-response/routes.ts';
import { provisionGateway } from '../apps/server/src/telemetry/gateways.ts';
import { startServer } from '../apps/server/test/harness.ts';
import { hybridPlant, SimulatedChannel } from '../apps/server/test/sim-channel.ts';
import { TestVtn } from '../apps/server/test/vtn/vtn.ts';

const PLANTS = Number(process.env.BENCH_DR_PLANTS ?? 250);
const PER_PLANT = 4;
const BUDGET_MS = 10_000;
const root = path.resolve(import.meta.dirname, '..');

async function until(what: string, check: () => Promise<boolean>, ms = 120_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function main() {
  const vtn = await new TestVtn().start();
  const programId = vtn.bl.program({ programName: 'BESS-DR-2026' }).id;
  const channel = new SimulatedChannel();
  const oadr: OadrConfig = {
    vtnUrl: vtn.url,
    clientId: 'ven_client',
    clientSecret: 'ven_secret',
    venName: 'bench-ven',
    callbackUrl: null,
    pollSeconds: 3600,
  };
  const s = await startServer({ oadr }, undefined, { commands: channel });
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const a = s.app.server.address();
  oadr.callbackUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/api/v1/oadr/callback`;
  const store = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';

  // 250 owners, each a plant with a gateway and four hybrid inverters, enrolled and pending.
  const t = Date.now();
  for (let p = 0; p < PLANTS; p++) {
    const owner = await s.user();
    const plant = await s.db
      .insertInto('plants')
      .values({ name: `DR bench ${p}`, owner_user_id: owner.id, timezone: 'Europe/Madrid', created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const gw = await provisionGateway(s.db, { sn: `DRGW${String(p).padStart(6, '0')}`, plantId: plant.id });
    const gwId = (await s.db.selectFrom('gateways').select('id').where('sn', '=', gw.sn).executeTakeFirstOrThrow()).id;
    const sns = Array.from({ length: PER_PLANT }, (_, i) => `DRINV${String(p).padStart(6, '0')}${i}`);
    const devices = await s.db
      .insertInto('devices')
      .values(
        sns.map((sn) => ({
          sn,
          gateway_id: gwId,
          plant_id: plant.id,
          kind: 'inverter' as const,
          protocol_id: 'sunfleet-hybrid-3p',
          created_at: t,
          updated_at: t,
        })),
      )
      .returning(['id', 'sn'])
      .execute();
    channel.attach(gw.sn, hybridPlant(sns, 3));
    const e = await s.db
      .insertInto('dr_enrollments')
      .values({
        user_id: owner.id,
        program_id: programId,
        program_name: 'BESS-DR-2026',
        email: `o${p}@example.com`,
        first_name: 'O',
        last_name: 'P',
        service_country: 'ES',
        service_region: 'M',
        service_locality: 'M',
        service_extended: null,
        service_street: 'S',
        service_postal: '1',
        mailing_country: 'ES',
        mailing_region: 'M',
        mailing_locality: 'M',
        mailing_extended: null,
        mailing_street: 'S',
        mailing_postal: '1',
        source_account: '1',
        utility_account: `u${p}`,
        station_id: plant.id,
        state: 'pending',
        terms_accepted_at: t,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db
      .insertInto('dr_enrollment_devices')
      .values(
        devices.map((d) => ({
          enrollment_id: e.id,
          device_id: d.id,
          sn: d.sn,
          manufacturer: 'Sunfleet',
          model: 'Hybrid 3p',
          install_date: null,
          charge_w: 5000,
          discharge_w: 5000,
          storage_wh: 10_000,
          resource_id: null,
          added_at: t,
          removed_at: null,
        })),
      )
      .execute();
  }
  const batteries = PLANTS * PER_PLANT;
  const ven = venOf(s.app)!;

  const r0 = performance.now();
  await ven.upkeep();
  const registerMs = performance.now() - r0;
  const accepted = (await s.db.selectFrom('dr_enrollments').select('id').where('state', '=', 'accepted').execute()).length;

  // The event: discharge 2,000 kW (2 kW a battery on average) for an hour from now.
  const discharged = () =>
    s.db
      .selectFrom('dr_dispatches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'discharge')
      .where('state', 'in', ['succeeded', 'failed', 'skipped'])
      .executeTakeFirstOrThrow();
  const e0 = performance.now();
  const event = await vtn.bl.event({
    programID: programId,
    eventName: 'bench',
    intervalPeriod: { start: new Date(Date.now() - 1000).toISOString(), duration: 'PT1H' },
    payloadDescriptors: [{ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'DISPATCH_SETPOINT', units: 'KW' }],
    reportDescriptors: [{ payloadType: 'USAGE', readingType: 'DIRECT_READ', units: 'KWH' }],
    intervals: [{ id: 0, payloads: [{ type: 'DISPATCH_SETPOINT', values: [-(batteries * 2)] }] }],
  });
  const notifiedMs = performance.now() - e0;
  await until('every battery commanded', async () => Number((await discharged()).n) >= batteries);
  const dispatchMs = performance.now() - e0;
  const states = await s.db
    .selectFrom('dr_dispatches')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('action', '=', 'discharge')
    .groupBy('state')
    .execute();
  const commands = {
    read: channel.sent.filter((m) => m.type === 'read').length,
    write: channel.sent.filter((m) => m.type === 'write').length,
  };

  // The utility ends the event now: restores, then the report.
  const x0 = performance.now();
  const elapsed = Math.ceil((Date.now() - Date.parse(String((event.intervalPeriod as { start: string }).start))) / 1000);
  await vtn.bl.updateEvent(event.id, {
    intervalPeriod: { start: (event.intervalPeriod as { start: string }).start, duration: `PT${elapsed}S` },
  });
  await new Promise((r) =>
    setTimeout(r, Math.max(0, Date.parse((event.intervalPeriod as { start: string }).start) + elapsed * 1000 - Date.now())),
  );
  await until('restores', async () => {
    await ven.dispatchDue();
    const n = await s.db
      .selectFrom('dr_dispatches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'restore')
      .where('state', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    return Number(n.n) >= batteries;
  });
  const restoreMs = performance.now() - x0;
  const q0 = performance.now();
  await ven.queueReports();
  await ven.processOutbox();
  const reportMs = performance.now() - q0;
  const report = [...vtn.store.reports.values()].find((r) => r.eventID === event.id) as { resources: unknown[] } | undefined;

  const result = {
    store,
    batteries,
    acceptedEnrolments: accepted,
    resourcesAtVtn: vtn.store.resources.size,
    registerMs: Math.round(registerMs),
    notificationDeliveredMs: Math.round(notifiedMs),
    dispatchMs: Math.round(dispatchMs),
    budgetMs: BUDGET_MS,
    withinBudget: dispatchMs <= BUDGET_MS,
    dispatchStates: Object.fromEntries(states.map((r) => [r.state, Number(r.n)])),
    commands,
    restoreMs: Math.round(restoreMs),
    reportMs: Math.round(reportMs),
    reportResources: report?.resources.length ?? 0,
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  const dir = path.join(root, 'bench/results');
  fs.writeFileSync(
    path.join(dir, `demand-response-${store === 'SQLite' ? 'sqlite' : 'postgres'}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  await s.close();
  await vtn.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
