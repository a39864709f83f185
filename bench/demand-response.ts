/**
 * Demand-response benchmark: an event dispatched to 1,000 enrolled simulated batteries (250
 * plants × 4 three-phase hybrid inverters with a 20 kWh battery each, each plant an accepted
 * enrolment), end to end as the
 * server runs it: the test VTN (apps/server/test/vtn) as the utility POSTs its notification to the
 * portal's webhook (the app on a loopback port), the VEN plans the event and sends each battery
 * its commands through the real command channel (jobs in the store, published over the embedded
 * MQTT broker by the ingest role) to the simulator's gateways in a child process, whose replies
 * come back over MQTT. The shared set-up (store, ingest role, fleet) is bench/fleet.ts, as
 * bench/commands.ts uses it. SQLite always; PostgreSQL too with BENCH_DATABASE_URL.
 *
 *   npm run bench -- demand-response        (node --import tsx bench/demand-response.ts)
 *
 * Env: BENCH_DR_PLANTS (250; 4 batteries each), BENCH_DR_STORES (sqlite,postgres).
 * Measures per store: registration of the VEN and its resources (upkeep); from the VTN sending
 * the event's notification to the last battery command acknowledged (every discharge row final
 * and its write job succeeded; budget ≤ 10 s); the restores after the VTN ends the event (from
 * its update notification to the last restore acknowledged); the report sent; the energy each
 * battery delivers over the event's hour against the energy asked of it (goal ≥ 95 %): the
 * commands it acknowledged replayed on an in-process copy of its plant (the simulator's physics,
 * from the state of charge the battery last reported), stepped minute by minute, and why a
 * battery fell short (its SOC reached the reserve, or its power limit).
 * Results: bench/results/demand-response.json and .md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import type { OadrConfig } from '../apps/server/src/config.ts';
import { createMailer } from '../apps/server/src/mail/mailer.ts';
import { AccessTokens } from '../apps/server/src/modules/auth/tokens.ts';
import { venOf } from '../apps/server/src/modules/demand-response/routes.ts';
import { provisionGateway } from '../apps/server/src/telemetry/gateways.ts';
import { TestVtn } from '../apps/server/test/vtn/vtn.ts';
import { executeCommand } from '../apps/simulator/src/commands.ts';
import { type DeviceSpec, Plant, type PlantSpec } from '../apps/simulator/src/plant.ts';
import {
  type BenchStore,
  type FleetGateway,
  openStore,
  root,
  type StoreKind,
  sleep,
  startFleet,
  startIngestRole,
} from './fleet.ts';
import { pct } from './ingest-probes.ts';

const PLANTS = Number(process.env.BENCH_DR_PLANTS ?? 250);
const PER_PLANT = 4;
const BUDGET_MS = 10_000;

async function until(what: string, check: () => Promise<boolean>, ms = 120_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(25);
  }
}

/** Each bench plant: four 10 kW three-phase hybrids with 6 kWp of PV and 4 high-voltage packs (20.48 kWh) each. */
const PLANT: PlantSpec = { lat: 40.42, lon: -3.7, timezone: 'Europe/Madrid', capacityKw: 24, type: 'dc' };
const hybrid = (sn: string, unit: number): DeviceSpec => ({
  kind: 'hybrid',
  sn,
  unit,
  phases: 3,
  ratedW: 10_000,
  pvKwp: 6,
  battery: { packs: 4, highVoltage: true },
});

/** The `p` quantile of shares, to 0.001. */
const share = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3));
};

/**
 * Energy delivered against energy asked, per battery, over the event's hour: every write a
 * battery acknowledged for the event, replayed on an in-process copy of its plant started from
 * the state of charge it last reported, stepped a minute at a time. A battery short of 95 % is
 * put down to its SOC reaching the reserve, or to its power limit (its rating shared with PV,
 * or its battery's), else "other".
 */
async function deliveredEnergy(db: BenchStore['db'], fleet: readonly FleetGateway[], startMs: number) {
  const rows = await db
    .selectFrom('dr_dispatches as x')
    .innerJoin('command_jobs as j', 'j.id', 'x.job_id')
    .leftJoin('device_latest as l', 'l.device_id', 'x.device_id')
    .select(['x.device_sn', 'x.target_w', 'j.body', 'l.values'])
    .where('x.action', '=', 'discharge')
    .where('x.state', '=', 'succeeded')
    .execute();
  const bySn = new Map(rows.map((r) => [r.device_sn, r]));
  const ratios: number[] = [];
  let askedKwh = 0;
  let deliveredKwh = 0;
  const short = { socReserve: 0, powerLimit: 0, other: 0 };
  for (const gw of fleet) {
    const plant = new Plant(gw.plant as PlantSpec, gw.devices as DeviceSpec[], { seed: 1 });
    plant.advance(startMs);
    const mine = plant.hybrids.filter((h) => bySn.has(h.sn));
    for (const h of mine) {
      const r = bySn.get(h.sn)!;
      const soc = Number((JSON.parse(String(r.values ?? '{}')) as { batterySoc?: number }).batterySoc);
      if (Number.isFinite(soc)) h.battery!.soc = soc / 100;
      const body = JSON.parse(String(r.body)) as Record<string, unknown>;
      const reply = executeCommand(plant, { v: 1, id: 'replay', ts: startMs, ...body } as Parameters<typeof executeCommand>[1]);
      if (reply.reply.status !== 'ok') throw new Error(`replay of ${h.sn}: ${reply.reply.error}`);
    }
    const wh = new Map(mine.map((h) => [h.sn, 0]));
    const capped = new Set<string>();
    for (let k = 1; k <= 60; k++) {
      plant.advance(startMs + k * 60_000);
      for (const h of mine) {
        wh.set(h.sn, wh.get(h.sn)! + h.flows.batteryW / 60);
        if (h.flows.batteryW < Number(bySn.get(h.sn)!.target_w) - 1 && h.battery!.soc > 0.21) capped.add(h.sn);
      }
    }
    for (const h of mine) {
      const asked = Number(bySn.get(h.sn)!.target_w) / 1000;
      const got = wh.get(h.sn)! / 1000;
      askedKwh += asked;
      deliveredKwh += got;
      const ratio = asked > 0 ? got / asked : 1;
      ratios.push(ratio);
      if (ratio >= 0.95) continue;
      if (h.battery!.soc <= 0.205) short.socReserve++;
      else if (capped.has(h.sn)) short.powerLimit++;
      else short.other++;
    }
  }
  return {
    batteries: ratios.length,
    askedKwh: Number(askedKwh.toFixed(1)),
    deliveredKwh: Number(deliveredKwh.toFixed(1)),
    deliveredShare: askedKwh > 0 ? Number((deliveredKwh / askedKwh).toFixed(4)) : null,
    perBattery: { min: share(ratios, 0), p5: share(ratios, 0.05), p50: share(ratios, 0.5) },
    atLeast95: ratios.filter((x) => x >= 0.95).length,
    short,
  };
}

async function run(kind: StoreKind) {
  const s = await openStore(kind, 'bench_dr');
  const vtn = await new TestVtn().start();
  const programId = vtn.bl.program({ programName: 'BESS-DR-2026' }).id;
  const ingest = await startIngestRole(s);
  const oadr: OadrConfig = {
    vtnUrl: vtn.url,
    clientId: 'ven_client',
    clientSecret: 'ven_secret',
    venName: `bench-ven-${kind}`,
    callbackUrl: null,
    // The default poll: it catches a notification the portal refused (503 when overloaded), as in production.
    pollSeconds: 60,
  };
  const config = { ...ingest.config, oadr };
  const log = pino({ level: 'warn' });
  const mailer = createMailer({ smtpUrl: null, from: config.mailFrom, outboxDir: path.join(s.dataDir, 'outbox'), log });
  const app = await buildApp({
    config,
    db: s.db,
    dialect: s.dialect,
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtlSec),
    mailer,
    commands: ingest.commands,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  oadr.callbackUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/api/v1/oadr/callback`;

  // 250 owners, each a plant with a gateway and four hybrid inverters, enrolled and pending.
  const t = Date.now();
  const fleet: FleetGateway[] = [];
  for (let p = 0; p < PLANTS; p++) {
    const owner = await s.db
      .insertInto('users')
      .values({
        account: `dr-owner-${p}@example.com`,
        password_hash: 'x',
        kind: 'end_user',
        company_id: null,
        role_id: null,
        read_only: 0,
        enabled: 1,
        agent_company_id: null,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
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
        sns.map((sn, i) => ({
          sn,
          unit: i + 1,
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
    fleet.push({
      sn: gw.sn,
      secret: gw.secret,
      plant: PLANT,
      devices: sns.map((sn, i) => hybrid(sn, i + 1)),
    });
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
  const sim = await startFleet(s, ingest.url, fleet, { timeoutMs: 120_000 });
  const ven = venOf(app)!;

  const r0 = performance.now();
  await ven.upkeep();
  const registerMs = performance.now() - r0;
  const accepted = (await s.db.selectFrom('dr_enrollments').select('id').where('state', '=', 'accepted').execute()).length;
  // The VEN's loops as the jobs role runs them (the tick: inbox, due rows, reports, outbox).
  ven.start();

  const final = (action: 'discharge' | 'restore') =>
    s.db
      .selectFrom('dr_dispatches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', action)
      .where('state', 'in', ['succeeded', 'failed', 'skipped'])
      .executeTakeFirstOrThrow();
  const byState = async (action: 'discharge' | 'restore') =>
    Object.fromEntries(
      (
        await s.db
          .selectFrom('dr_dispatches')
          .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
          .where('action', '=', action)
          .groupBy('state')
          .execute()
      ).map((r) => [r.state, Number(r.n)]),
    );
  const jobs = async (since: number) => {
    const rows = await s.db
      .selectFrom('command_jobs')
      .select(['state', 'body', 'created_at', 'finished_at'])
      .where('created_at', '>=', since)
      .execute();
    const count: Record<string, number> = {};
    for (const j of rows) {
      const type = (JSON.parse(String(j.body)) as { type: string }).type;
      count[`${type} ${j.state}`] = (count[`${type} ${j.state}`] ?? 0) + 1;
    }
    const trips = rows.filter((r) => r.finished_at !== null).map((r) => Number(r.finished_at) - Number(r.created_at));
    return { count, roundTripMs: { p50: pct(trips, 0.5), p99: pct(trips, 0.99), max: pct(trips, 1) } };
  };

  // The event: discharge 2,000 kW (2 kW a battery on average) for an hour from now.
  const d0 = Date.now();
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
  await until('every battery commanded', async () => Number((await final('discharge')).n) >= batteries);
  const dispatchMs = performance.now() - e0;
  const dispatchStates = await byState('discharge');
  const dispatchJobs = await jobs(d0);
  const w0 = performance.now();
  const energy = await deliveredEnergy(s.db, fleet, Date.parse(String((event.intervalPeriod as { start: string }).start)));
  const energyReplayMs = Math.round(performance.now() - w0);

  // The utility ends the event now (an update shortening it): restores, then the report.
  const start = String((event.intervalPeriod as { start: string }).start);
  const elapsed = Math.ceil((Date.now() - Date.parse(start)) / 1000);
  const x1 = Date.now();
  const x0 = performance.now();
  await vtn.bl.updateEvent(event.id, { intervalPeriod: { start, duration: `PT${elapsed}S` } });
  await until('restores', async () => Number((await final('restore')).n) >= batteries).catch(async (err: Error) => {
    const deliveries = JSON.stringify(vtn.deliveries.map((d) => `${d.objectType} ${d.operation} ${d.status}`));
    throw new Error(
      `${err.message}; restore rows by state: ${JSON.stringify(await byState('restore'))}; webhook deliveries: ${deliveries}`,
    );
  });
  const restoreMs = performance.now() - x0;
  const restoreStates = await byState('restore');
  const restoreJobs = await jobs(x1);
  const q0 = performance.now();
  await until('the report', async () => [...vtn.store.reports.values()].some((r) => r.eventID === event.id));
  const reportMs = performance.now() - q0;
  const report = [...vtn.store.reports.values()].find((r) => r.eventID === event.id) as { resources: unknown[] } | undefined;

  const result = {
    store: kind,
    batteries,
    acceptedEnrolments: accepted,
    resourcesAtVtn: vtn.store.resources.size,
    registerMs: Math.round(registerMs),
    notificationDeliveredMs: Math.round(notifiedMs),
    dispatchMs: Math.round(dispatchMs),
    budgetMs: BUDGET_MS,
    withinBudget: dispatchMs <= BUDGET_MS,
    dispatchStates,
    dispatchJobs,
    restoreMs: Math.round(restoreMs),
    restoreStates,
    restoreJobs,
    reportAfterRestoresMs: Math.round(reportMs),
    reportResources: report?.resources.length ?? 0,
    energy,
    energyReplayMs,
    specViolations: vtn.violations.length,
    loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))),
    at: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
  await ven.stop();
  await sim.stop();
  await app.close();
  mailer.close();
  await ingest.close();
  await vtn.close();
  await s.drop();
  return result;
}

async function main() {
  const wanted = (process.env.BENCH_DR_STORES ?? (process.env.BENCH_DATABASE_URL ? 'sqlite,postgres' : 'sqlite')).split(',');
  const results: Awaited<ReturnType<typeof run>>[] = [];
  for (const kind of wanted) results.push(await run(kind as StoreKind));
  const dir = path.join(root, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'demand-response.json'), `${JSON.stringify(results, null, 2)}\n`);
  const jobsText = (count: Record<string, number>) =>
    Object.entries(count)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
  const row = (r: (typeof results)[number]) =>
    [
      r.store === 'sqlite' ? 'SQLite' : 'PostgreSQL',
      `${(r.registerMs / 1000).toFixed(1)} s`,
      `**${(r.dispatchMs / 1000).toFixed(1)} s** (${r.withinBudget ? 'met' : 'NOT met'})`,
      jobsText(r.dispatchJobs.count),
      `${r.dispatchJobs.roundTripMs.p50} / ${r.dispatchJobs.roundTripMs.p99} ms`,
      `${(r.restoreMs / 1000).toFixed(1)} s`,
      jobsText(r.restoreJobs.count),
      `${r.reportResources} resources, ${(r.reportAfterRestoresMs / 1000).toFixed(1)} s`,
      `${r.energy.deliveredKwh} / ${r.energy.askedKwh} kWh (${((r.energy.deliveredShare ?? 0) * 100).toFixed(1)} %); ${r.energy.atLeast95} of ${r.energy.batteries} at ≥ 95 % (per battery min ${r.energy.perBattery.min}, p5 ${r.energy.perBattery.p5}); short: ${r.energy.short.socReserve} at the SOC reserve, ${r.energy.short.powerLimit} at a power limit, ${r.energy.short.other} other`,
      r.loadAverage.join(' '),
    ].join(' | ');
  const md = [
    '## Demand response (`bench/demand-response.ts`, `npm run bench -- demand-response`)',
    '',
    `An event dispatched to ${results[0]?.batteries ?? 0} enrolled simulated batteries (${PLANTS} plants × ${PER_PLANT} three-phase hybrid inverters, each plant an accepted enrolment), end to end: the test VTN POSTs the notification to the portal's webhook, the VEN plans the event and sends every battery a read of the setting groups its forced discharge may write (kept for the restore) and a write (time of use: six program slots at its share), through the real command channel (jobs stored, published over the embedded MQTT broker) to the simulator's gateways in a child process, whose replies come back over MQTT. "Acknowledged" = every discharge row final with its write job succeeded. Restores: from the VTN's update that ends the event to the last restore acknowledged. The report follows the restores (the VEN's 1 s tick). Generated ${new Date().toISOString()}; machine: ${os.cpus().length} cores, shared with other work (load average in the last column).`,
    '',
    '| store | VEN + resources registered | notification → last battery command acknowledged (budget 10 s) | command jobs | job round trip p50 / p99 | restores after the VTN ends the event | restore command jobs | report sent | energy over the hour: delivered / asked (goal ≥ 95 %) | load average (1, 5, 15 min) at the end |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => `| ${row(r)} |`),
    '',
    'Notes:',
    '',
    '- The restores once took 13.8 s on PostgreSQL (in-process channel). The VTN ends an event by an update, and re-planning it',
    '  planned every battery its discharge again for the interval it was already in: 1,000 writes were sent again before the',
    "  1,000 restores, and the re-plan itself read each battery's state of charge and moved each restore in a statement of its",
    '  own (2,000 round trips). Now the command a battery already runs is not sent again (the restore column shows only the',
    "  restores' writes), and the states of charge and the restores' new end are one statement each.",
    '- Each dispatch row is one read of the row with what decides whether it is still wanted (event cancelled, opt-out,',
    '  enrolment ended, device removed), the device, its latest values, then the two command jobs.',
    '- Registration is one HTTP call per resource (the OpenADR API has no batch create).',
    '- The VEN polls the VTN every 60 s (the default): on a loaded machine the portal may refuse a webhook call with 503, and',
    '  the test VTN does not send it again; the poll then finds the change (the restores column shows it when it happens).',
    '- Energy: each battery is asked its share (2 kW on average) for the hour; the writes it acknowledged (forced discharge by',
    '  time of use) are replayed on an in-process copy of its plant from the state of charge it last reported, and its battery',
    '  power integrated minute by minute. A battery short of 95 % either reached the 20 % reserve (too little charge for the hour)',
    '  or its power limit; the planner gives a battery at the reserve no share, not one that will reach it during the event.',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'demand-response.md'), md);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
