/**
 * The maintenance log through the API: per device, per inverter, per plant, across plants, one
 * entry's content; filters and paging; another tenant's plant, device or entry answers its
 * not-found code and lists never hold its rows; the result of an entry whose job ended without
 * anyone finishing it; the gateway's debug reply; maintenance functions; the public firmware
 * change logs.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addDevice, HYBRID, url } from '../../../test/kits/events.ts';
import { type Account, account, company, storePlant, uniqueSn } from '../../../test/kits/plants.ts';
import { provisionGateway } from '../../telemetry/gateways.ts';
import { finishMaintenance, recordMaintenance } from './maintenance.repo.ts';

let s: TestServer;
let admin: Account;
/** A company admin whose company owns plant A; plant B belongs to another tenant. */
let staff: Account;
let outsider: Account;
let owner: Account;
const A = { plantId: 0, gatewaySn: '', inverterSn: '', batterySn: '' };
const B = { plantId: 0, gatewaySn: '', inverterSn: '' };
const T0 = Date.UTC(2026, 0, 10, 12);
const HOUR = 3_600_000;

// biome-ignore lint/suspicious/noExplicitAny: the tests read fields of several reply shapes
type Reply = { code: number; msg: string; data: any };
const call = (who: Account | null, method: 'GET' | 'POST', path: string, payload?: unknown): Promise<Reply> =>
  s.call(who?.token ?? null, method, path, payload).then((r) => r.body as Reply);

async function jobRow(
  id: string,
  gatewaySn: string,
  deviceSn: string | null,
  state: string,
  extra: Record<string, unknown> = {},
) {
  await s.db
    .insertInto('command_jobs')
    .values({
      id,
      gateway_sn: gatewaySn,
      device_sn: deviceSn,
      batch_id: null,
      type: 'debug',
      state,
      body: JSON.stringify({ type: 'debug', text: 'AT+DIAG' }),
      reply: null,
      error: null,
      requested_by: 1,
      timeout_ms: 30_000,
      expires_at: T0 + 86_400_000,
      created_at: T0,
      sent_at: T0,
      last_sent_at: T0,
      acknowledged_at: null,
      finished_at: state === 'sent' ? null : T0 + 1000,
      ...extra,
    })
    .execute();
}

beforeAll(async () => {
  s = await startServer();
  admin = await account(s, { kind: 'sysadmin' });
  owner = await account(s);
  const mine = await company(s);
  staff = await account(s, { kind: 'company_admin', companyId: mine });
  outsider = await account(s, { kind: 'company_admin', companyId: await company(s) });
  A.plantId = await storePlant(s, { owner_user_id: owner.id, company_id: mine, name: 'Plant Alpha' });
  const gwA = await provisionGateway(s.db, { sn: uniqueSn('GW'), plantId: A.plantId });
  A.gatewaySn = gwA.sn;
  A.inverterSn = (await addDevice(s, gwA.id, A.plantId, 'inverter', HYBRID)).sn;
  A.batterySn = (await addDevice(s, gwA.id, A.plantId, 'battery', 'sunfleet-battery')).sn;
  const other = await account(s);
  B.plantId = await storePlant(s, { owner_user_id: other.id });
  const gwB = await provisionGateway(s.db, { sn: uniqueSn('GW'), plantId: B.plantId });
  B.gatewaySn = gwB.sn;
  B.inverterSn = (await addDevice(s, gwB.id, B.plantId, 'inverter', HYBRID)).sn;

  // Plant A: an upgrade (succeeded), a debug of the inverter (its job still open), a restart of
  // the gateway whose job timed out unseen, a debug of the battery an hour later.
  const up = await recordMaintenance(s.db, {
    kind: 'upgrade',
    deviceSn: A.inverterSn,
    gatewaySn: A.gatewaySn,
    plantId: A.plantId,
    userId: staff.id,
    jobId: 'up-1',
    detail: { firmwareId: 7, version: '2.1.0' },
    at: T0,
  });
  expect(up).toBeGreaterThan(0);
  expect(await finishMaintenance(s.db, 'up-1', 'succeeded', { reason: null }, T0 + 5000)).toBe(1);
  await jobRow('00000000-0000-7000-8000-00000000000a', A.gatewaySn, A.inverterSn, 'sent');
  await recordMaintenance(s.db, {
    kind: 'debug',
    deviceSn: A.inverterSn,
    gatewaySn: A.gatewaySn,
    plantId: A.plantId,
    userId: staff.id,
    jobId: '00000000-0000-7000-8000-00000000000a',
    detail: { code: 'AT+DIAG' },
    at: T0 + 1,
  });
  await jobRow('00000000-0000-7000-8000-00000000000b', A.gatewaySn, null, 'timed_out', { type: 'restart', error: 'timed out' });
  await recordMaintenance(s.db, {
    kind: 'restart',
    deviceSn: A.gatewaySn,
    gatewaySn: A.gatewaySn,
    plantId: A.plantId,
    userId: owner.id,
    jobId: '00000000-0000-7000-8000-00000000000b',
    at: T0 + 2,
  });
  await recordMaintenance(s.db, {
    kind: 'debug',
    deviceSn: A.batterySn,
    gatewaySn: A.gatewaySn,
    plantId: A.plantId,
    userId: staff.id,
    at: T0 + HOUR,
  });
  // Plant B: another tenant's.
  await recordMaintenance(s.db, {
    kind: 'upgrade',
    deviceSn: B.inverterSn,
    gatewaySn: B.gatewaySn,
    plantId: B.plantId,
    userId: other.id,
    at: T0 + 3,
  });
});
afterAll(() => s.close());

const sns = (r: Reply) => r.data.list.map((e: { sn: string; kind: string }) => `${e.kind}:${e.sn}`);

describe('maintenance log', () => {
  it('lists the plants the caller sees, newest first, never another tenant’s rows', async () => {
    const page = await call(staff, 'GET', '/api/v1/logger/page');
    expect(page.code).toBe(ErrorCode.ok);
    expect(page.data.total).toBe(4);
    expect(sns(page)).toEqual([
      `debug:${A.batterySn}`,
      `restart:${A.gatewaySn}`,
      `debug:${A.inverterSn}`,
      `upgrade:${A.inverterSn}`,
    ]);
    const first = page.data.list[3];
    expect(first).toMatchObject({
      kind: 'upgrade',
      plantId: A.plantId,
      plantName: 'Plant Alpha',
      result: 'succeeded',
      detail: { firmwareId: 7, version: '2.1.0', reason: null },
      createdAt: new Date(T0).toISOString(),
      finishedAt: new Date(T0 + 5000).toISOString(),
    });
    expect((await call(outsider, 'GET', '/api/v1/logger/page')).data).toEqual({ total: 0, list: [] });
    expect((await call(admin, 'GET', '/api/v1/logger/page')).data.total).toBeGreaterThanOrEqual(5);
  });

  it('takes the result from the job when it ended without anyone finishing the entry', async () => {
    const page = await call(staff, 'GET', url('/api/v1/logger/page', { kind: 'restart' }));
    expect(page.data.list).toEqual([
      expect.objectContaining({ result: 'failed', finishedAt: new Date(T0 + 1000).toISOString() }),
    ]);
    const open = await call(staff, 'GET', url(`/api/v1/logger/getInverterLogger/${A.inverterSn}`, { kind: 'debug' }));
    expect(open.data.list).toEqual([expect.objectContaining({ result: 'running', finishedAt: null })]);
    // An upgrade whose command job has ended is still running until the upgrades settle it.
    await recordMaintenance(s.db, {
      kind: 'upgrade',
      deviceSn: A.gatewaySn,
      gatewaySn: A.gatewaySn,
      plantId: A.plantId,
      userId: staff.id,
      jobId: '00000000-0000-7000-8000-00000000000b',
      at: T0 - 1,
    });
    const upgrade = await call(staff, 'GET', url('/api/v1/logger', { sn: A.gatewaySn, kind: 'upgrade' }));
    expect(upgrade.data.list).toEqual([expect.objectContaining({ result: 'running', finishedAt: null })]);
    await s.db
      .deleteFrom('maintenance_log')
      .where('created_at', '=', T0 - 1)
      .execute();
  });

  it('filters by kind, time range and SN, and pages', async () => {
    const kind = await call(staff, 'GET', url('/api/v1/logger/page', { kind: 'debug' }));
    expect(sns(kind)).toEqual([`debug:${A.batterySn}`, `debug:${A.inverterSn}`]);
    const range = await call(
      staff,
      'GET',
      url('/api/v1/logger/page', { startTime: new Date(T0 + 1).toISOString(), endTime: new Date(T0 + HOUR).toISOString() }),
    );
    expect(sns(range)).toEqual([`restart:${A.gatewaySn}`, `debug:${A.inverterSn}`]);
    const bySn = await call(staff, 'GET', url('/api/v1/logger/page', { sn: A.inverterSn }));
    expect(bySn.data.total).toBe(2);
    const paged = await call(staff, 'GET', url('/api/v1/logger/page', { page: 2, size: 3 }));
    expect(paged.data.total).toBe(4);
    expect(sns(paged)).toEqual([`upgrade:${A.inverterSn}`]);
    const backwards = await call(
      staff,
      'GET',
      url('/api/v1/logger/page', { startTime: new Date(T0 + HOUR).toISOString(), endTime: new Date(T0).toISOString() }),
    );
    expect(backwards).toMatchObject(badInput('endTime'));
    expect(await call(staff, 'GET', url('/api/v1/logger/page', { kind: 'reboot' }))).toMatchObject({
      code: ErrorCode.validation,
    });
  });

  it('per device, per inverter and per plant', async () => {
    expect(sns(await call(staff, 'GET', url('/api/v1/logger', { sn: A.batterySn })))).toEqual([`debug:${A.batterySn}`]);
    expect(sns(await call(staff, 'GET', url('/api/v1/logger', { sn: A.gatewaySn })))).toEqual([`restart:${A.gatewaySn}`]);
    expect((await call(staff, 'GET', `/api/v1/logger/getInverterLogger/${A.inverterSn}`)).data.total).toBe(2);
    expect((await call(staff, 'GET', url('/api/v1/logger/plant', { plantId: A.plantId }))).data.total).toBe(4);
    // The owner of plant A sees it too, once granted the log (an owner does not hold it by default).
    expect(await call(owner, 'GET', url('/api/v1/logger/plant', { plantId: A.plantId }))).toMatchObject({
      code: ErrorCode.noPermission,
    });
  });

  it('another tenant’s plant, device or entry answers its not-found code and no rows', async () => {
    expect(await call(staff, 'GET', url('/api/v1/logger/plant', { plantId: B.plantId }))).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    expect(await call(staff, 'GET', url('/api/v1/logger/page', { plantId: B.plantId }))).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    expect(await call(staff, 'GET', url('/api/v1/logger', { sn: B.inverterSn }))).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect(await call(staff, 'GET', url('/api/v1/logger/page', { sn: B.gatewaySn }))).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect(await call(staff, 'GET', `/api/v1/logger/getInverterLogger/${B.inverterSn}`)).toMatchObject({
      code: ErrorCode.inverterMissing,
      data: null,
    });
    expect(await call(staff, 'GET', `/api/v1/logger/getInverterLogger/${A.batterySn}`)).toMatchObject({
      code: ErrorCode.inverterMissing,
    });
    expect(await call(staff, 'GET', url('/api/v1/logger/debug', { sn: B.inverterSn }))).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    const theirs = await s.db
      .selectFrom('maintenance_log')
      .select('id')
      .where('plant_id', '=', B.plantId)
      .executeTakeFirstOrThrow();
    expect(await call(staff, 'GET', url('/api/v1/logger/content', { id: theirs.id }))).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    expect((await call(admin, 'GET', url('/api/v1/logger/content', { id: theirs.id }))).code).toBe(ErrorCode.ok);
  });

  it('one entry’s content carries its job’s steps', async () => {
    await s.db
      .insertInto('command_job_events')
      .values([
        { job_id: '00000000-0000-7000-8000-00000000000b', state: 'queued', at: T0, detail: null },
        { job_id: '00000000-0000-7000-8000-00000000000b', state: 'timed_out', at: T0 + 1000, detail: null },
      ])
      .execute();
    const row = await s.db.selectFrom('maintenance_log').select('id').where('kind', '=', 'restart').executeTakeFirstOrThrow();
    const content = await call(staff, 'GET', url('/api/v1/logger/content', { id: row.id }));
    expect(content).toMatchObject({
      code: ErrorCode.ok,
      data: {
        kind: 'restart',
        result: 'failed',
        steps: [
          { state: 'queued', at: new Date(T0).toISOString() },
          { state: 'timed_out', at: new Date(T0 + 1000).toISOString() },
        ],
      },
    });
  });

  it('lists debug sessions with their code and text', async () => {
    const list = await call(staff, 'GET', url('/api/v1/logger/debug', { sn: A.inverterSn }));
    expect(list).toMatchObject({
      code: ErrorCode.ok,
      data: { total: 1, list: [{ sn: A.inverterSn, code: 'AT+DIAG', text: null }] },
    });
    expect((await call(staff, 'GET', '/api/v1/logger/debug')).data.total).toBe(2);
  });
});

describe('gateway debug reply', () => {
  it('returns the gateway’s own latest debug job; 404 without one; 305 for a gateway not seen', async () => {
    expect(await call(staff, 'GET', `/api/v1/api/gate/${A.gatewaySn}/debug/reply`)).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
    const id = '00000000-0000-7000-8000-00000000000c';
    await jobRow(id, A.gatewaySn, null, 'succeeded', {
      reply: JSON.stringify({ v: 1, id, ts: T0, status: 'ok', text: 'rssi -61' }),
    });
    await recordMaintenance(s.db, {
      kind: 'debug',
      deviceSn: A.gatewaySn,
      gatewaySn: A.gatewaySn,
      plantId: A.plantId,
      userId: staff.id,
      jobId: id,
      detail: { code: 'AT+DIAG' },
    });
    const reply = await call(staff, 'GET', `/api/v1/api/gate/${A.gatewaySn}/debug/reply`);
    expect(reply).toMatchObject({
      code: ErrorCode.ok,
      data: { jobId: id, sn: A.gatewaySn, state: 'succeeded', code: 'AT+DIAG', text: 'rssi -61' },
    });
    // Reading the settled job settled its entry in the store.
    const entry = await s.db
      .selectFrom('maintenance_log')
      .select(['result', 'detail'])
      .where('job_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(entry.result).toBe('succeeded');
    expect(JSON.parse(entry.detail)).toMatchObject({ code: 'AT+DIAG', text: 'rssi -61' });
    // The inverter's debug job is not the gateway's.
    expect(
      await call(
        staff,
        'GET',
        url(`/api/v1/api/gate/${A.gatewaySn}/debug/reply`, { jobId: '00000000-0000-7000-8000-00000000000a' }),
      ),
    ).toMatchObject({ code: ErrorCode.notFound });
    expect(await call(outsider, 'GET', `/api/v1/api/gate/${A.gatewaySn}/debug/reply`)).toMatchObject({
      code: ErrorCode.gatewayMissing,
      data: null,
    });
  });
});

describe('maintenance functions', () => {
  it('the operator adds and edits; names and codes are unique; readers see the enabled ones', async () => {
    const input = {
      name: 'Read fault log',
      code: 'FLT_READ',
      descriptionEn: 'Reads the fault log',
      descriptionEs: 'Lee el registro de fallos',
      enabled: true,
    };
    const made = await call(admin, 'POST', '/api/v1/logger/function', input);
    expect(made).toMatchObject({ code: ErrorCode.ok, data: { ...input, id: expect.any(Number) } });
    const off = await call(admin, 'POST', '/api/v1/logger/function', {
      ...input,
      name: 'Clear faults',
      code: 'FLT_CLR',
      enabled: false,
    });
    expect(off.code).toBe(ErrorCode.ok);
    expect(
      await call(admin, 'POST', '/api/v1/logger/function', { ...input, name: ' read FAULT log ', code: 'OTHER' }),
    ).toMatchObject({ code: ErrorCode.already });
    expect(await call(admin, 'POST', '/api/v1/logger/function', { ...input, name: 'Another', code: 'flt_read' })).toMatchObject({
      code: ErrorCode.codeExists,
    });
    expect(await call(admin, 'GET', url('/api/v1/logger/function/check', { name: 'READ fault log' }))).toMatchObject({
      code: ErrorCode.already,
    });
    expect(
      await call(admin, 'GET', url('/api/v1/logger/function/check', { name: 'Read fault log', id: made.data.id })),
    ).toMatchObject({ code: ErrorCode.ok });
    expect(await call(admin, 'GET', url('/api/v1/logger/function/check', { name: 'Fresh name' }))).toMatchObject({
      code: ErrorCode.ok,
    });
    const edited = await call(admin, 'POST', '/api/v1/logger/function', {
      ...input,
      id: made.data.id,
      descriptionEn: 'Reads faults',
    });
    expect(edited).toMatchObject({ code: ErrorCode.ok, data: { id: made.data.id, descriptionEn: 'Reads faults' } });
    expect(await call(admin, 'GET', `/api/v1/logger/function/${made.data.id}`)).toMatchObject({
      data: { descriptionEn: 'Reads faults' },
    });
    expect(await call(admin, 'GET', '/api/v1/logger/function/999999')).toMatchObject({ code: ErrorCode.notFound });
    expect(
      await call(admin, 'POST', '/api/v1/logger/function', { ...input, id: 999999, name: 'Ghost', code: 'GHOST' }),
    ).toMatchObject({ code: ErrorCode.notFound });
    expect((await call(staff, 'GET', '/api/v1/logger/functions')).data.map((f: { name: string }) => f.name)).toEqual([
      'Read fault log',
    ]);
    expect((await call(admin, 'GET', url('/api/v1/logger/functions', { all: true }))).data).toHaveLength(2);
    // Staff asking for all still get the enabled ones; they may not edit.
    expect((await call(staff, 'GET', url('/api/v1/logger/functions', { all: true }))).data).toHaveLength(1);
    expect(await call(staff, 'POST', '/api/v1/logger/function', { ...input, name: 'Mine', code: 'MINE' })).toMatchObject({
      code: ErrorCode.noPermission,
    });
    expect(await call(staff, 'GET', `/api/v1/logger/function/${made.data.id}`)).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect(await call(admin, 'POST', '/api/v1/logger/function', { ...input, name: 'Bad<name>', code: 'X1' })).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(
      Number(
        (
          await s.db
            .selectFrom('logger_functions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(2);
  });
});

describe('public firmware change logs', () => {
  it('answers without a token, only enabled firmware with a change log, newest first', async () => {
    const base = {
      product_name: 'Hybrid 5K',
      upgrade_mode: 'IAP' as const,
      size: 1000,
      sha256: 'a'.repeat(64),
      signature: 'sig',
      created_by: admin.id,
      updated_at: T0,
    };
    await s.db
      .insertInto('firmware')
      .values([
        {
          ...base,
          type: 'inverter',
          file_name: 'h5k-1.bin',
          version: '1.0',
          change_log: 'First release',
          enabled: 1,
          created_at: T0,
        },
        {
          ...base,
          type: 'inverter',
          file_name: 'h5k-2.bin',
          version: '1.1',
          change_log: 'Withdrawn',
          enabled: 0,
          created_at: T0 + 1,
        },
        {
          ...base,
          type: 'gateway',
          file_name: 'gw-1.bin',
          version: '3.0',
          change_log: 'Faster uploads',
          enabled: 1,
          created_at: T0 + 2,
        },
        { ...base, type: 'gateway', file_name: 'gw-0.bin', version: '2.9', change_log: null, enabled: 1, created_at: T0 - 1 },
      ])
      .execute();
    const res = await s.app.inject({ method: 'GET', url: '/anonymous/firmware/changelog' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: ErrorCode.ok,
      data: {
        total: 2,
        list: [
          { type: 'gateway', version: '3.0', changeLog: 'Faster uploads', productName: 'Hybrid 5K' },
          { type: 'inverter', version: '1.0', changeLog: 'First release', publishedAt: new Date(T0).toISOString() },
        ],
      },
    });
    const gw = await s.app.inject({ method: 'GET', url: '/anonymous/firmware/changelog?type=inverter' });
    expect(gw.json().data.list.map((f: { version: string }) => f.version)).toEqual(['1.0']);
  });
});
