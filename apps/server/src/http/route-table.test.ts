/**
 * The whole route table: every route is a contract endpoint that declares its access, every
 * public route is on the list below, every scraper route too, every other route answers 401
 * without a token from an address other than loopback, every route that takes an id answers
 * nothing for another tenant's id, and every call that changes data declares that it writes and
 * refuses a read-only account.
 *
 * A new route with a path parameter needs an entry in `foreignIds`: how to make an object of
 * that kind belonging to someone else. The test fails until it has one.
 */
import type { Endpoint } from '@sunfleet/contracts';
import { accessPermissions, companyGrantable, ErrorCode, permissionNames } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { pluginPublicPrefixes } from '../app.ts';
import { provisionGateway } from '../telemetry/gateways.ts';

const publicRoutes = new Set([
  'GET /healthz',
  'GET /uploads/:folder/:file',
  'POST /oauth/token',
  'GET /anonymous/getCode',
  'GET /anonymous/checkCode',
  'GET /anonymous/checkAccount',
  'POST /anonymous/signup',
  'POST /anonymous/resetPwd',
  'GET /anonymous/ip',
  'GET /anonymous/appStores',
  'GET /anonymous/firmware/changelog',
  'GET /anonymous/firmware/:id',
  // The OpenADR VTN's webhook: the echo challenge and notifications (see modules/demand-response).
  'GET /api/v1/oadr/callback',
  'GET /api/v1/oadr/callback/echo',
  'POST /api/v1/oadr/callback',
]);
/** Calls that change data: each must declare that it writes (a few, for the reader; the walk below covers all). */
const mustWrite = [
  'POST /api/v1/plant',
  'POST /api/v1/plant/:id',
  'POST /api/v1/plant/:id/delete',
  'POST /api/v1/plant/thumbnail',
  'POST /api/v1/plant/:id/share',
  'POST /api/v1/gateway/:sn/unbind',
  'POST /api/v1/user/:id',
  'POST /api/v1/user/:id/pwd',
  'POST /api/v1/user/notify',
  'POST /api/v1/user/:id/avatar',
  'POST /api/v1/inverter/:sn/alias',
  'POST /api/v1/inverter/params/custom',
  'POST /api/v1/meter/:sn/master',
  'POST /api/v1/event/:id/ack',
  'POST /api/v1/company/role',
  'POST /api/v1/customer',
  'POST /api/v1/customer/:customerId',
  'DELETE /api/v1/customers/delete/:id',
  'POST /api/v1/customerType',
  'POST /api/v1/customerType/:id/delete',
  'POST /api/v1/dy/store/:sn/setting/batt',
  'POST /api/v1/setting/uneet/:sn/safetySetting',
  'POST /api/v1/setting/job/:id/revert',
  'POST /api/v1/setting/batch',
  'POST /api/v1/setting/batch/:id/cancel',
];
/** Signed-in POSTs that change no data a read-only account must keep its hands off. */
const postsThatDoNotWrite = new Map([
  ['POST /api/v1/gateways/check', 'checks a label key, stores nothing'],
  ['POST /oauth/revoke', 'signing out'],
  ['POST /api/v1/user/personalized', "the account's own display preferences"],
  ['POST /api/v1/gateway/import/one/check', 'checks a gateway for import, stores nothing'],
  ['POST /api/v1/gateway/import/check', 'checks an import file, stores nothing'],
  ['POST /api/v1/gateway/:sn/check', 'checks whether a gateway may take a firmware image, stores nothing'],
  ['POST /api/v1/gateways/batch/check', 'checks whether gateways may take a firmware image, stores nothing'],
]);
/** GETs that change a device (the paths the portal's clients call): they declare writes like a POST. */
const getsThatWrite = new Map([
  ['GET /api/v1/inverter/:sn/boot', 'powers the inverter on'],
  ['GET /api/v1/inverter/:sn/shutdown', 'powers the inverter off'],
  ['GET /api/v1/firmware/:id/changeEnable', 'enables or disables a firmware image'],
  ['GET /api/v1/firmware/:id/delete', 'deletes a firmware image'],
  ['GET /api/v1/firmware/batchDelete', 'deletes firmware images'],
  ['GET /api/v1/firmware/inverterType/:id/delete', 'deletes an inverter type'],
  ['GET /api/v1/version/:id/delete', 'deletes a system version'],
  ['GET /api/v1/gateway/:id/delete', 'deletes a gateway from stock'],
]);
/** Answered to the loopback address without a token (monitoring on the same machine). */
const scrapeRoutes = new Set(['GET /metrics']);
/** The external broker's hooks: only with the hook secret, whatever the address; not in the API description. */
const brokerRoutes = new Set(['POST /internal/mqtt/authn', 'POST /internal/mqtt/authz']);
/** Requests in this test come from outside the machine. */
const REMOTE = '203.0.113.9';

let s: TestServer;
let victim: { id: number; account: string };
let attacker: { access: string };
let victimRoleId: number;
/** The victim's company (a customer of the platform) and its customer type. */
let victimCompanyId: number;
let victimCustomerTypeId: number;
let victimCompanyUserId: number;
/** A customer the attacker's company is the agent of. */
let servedCompanyId: number;
let victimPlantId: number;
let victimGatewaySn: string;
let victimGatewayId: number;
/** The victim's devices, one per kind, behind the victim's gateway in the victim's plant. */
const victimDevices = { inverter: 'VICTIMINV1', battery: 'VICTIMBAT1', meter: 'VICTIMMET1', weather: 'VICTIMWS1' } as const;
const victimDeviceIds: Record<string, number> = {};
let readOnly: { id: number; access: string };
/** A setting job and a batch the victim made on the victim's inverter. */
const victimSettingJobId = '00000000-0000-4000-8000-000000000001';
const victimSettingBatchId = '00000000-0000-4000-8000-000000000002';
/** The victim's demand-response enrolment (with their inverter) and an event of its programme. */
let victimEnrollmentId: number;
let victimDrEventId: number;
/** A gateway restart batch the victim asked for. */
const victimRestartBatchId = '00000000-0000-4000-8000-000000000003';
/** Platform records (a system version, a maintenance function): a company administrator reaches neither. */
let platformVersionId: number;
let platformFunctionId: number;

/** For each path parameter pattern: an object of that kind that belongs to the victim. */
const foreignIds: Array<{ match: RegExp; params: (url: string) => Record<string, string | number> }> = [
  { match: /^\/api\/v1\/user\/:id/, params: () => ({ id: victim.id }) },
  { match: /^\/api\/v1\/company\/role\/:id/, params: () => ({ id: victimRoleId }) },
  { match: /^\/api\/v1\/company\/user\/(edit\/|delete\/)?:id/, params: () => ({ id: victimCompanyUserId }) },
  { match: /^\/api\/v1\/company\/:id\//, params: () => ({ id: victimCompanyId }) },
  {
    match: /^\/api\/v1\/(role\/:customerId|customer\/:customerId|customers\/delete\/:id)/,
    params: () => ({ customerId: victimCompanyId, id: victimCompanyId }),
  },
  { match: /^\/api\/v1\/customerType\/:id/, params: () => ({ id: victimCustomerTypeId }) },
  {
    match: /^\/api\/v1\/plant\/:(id|plantId|stationId)\b/,
    params: () => ({ id: victimPlantId, plantId: victimPlantId, stationId: victimPlantId }),
  },
  {
    match: /^\/api\/v1\/plant\/(energy|meteorological)\/:(id|stationId)\b/,
    params: () => ({ id: victimPlantId, stationId: victimPlantId }),
  },
  {
    match: /^\/api\/v1\/oadr\/station\w+\/:stationId\b/,
    params: () => ({ stationId: victimPlantId }),
  },
  { match: /^\/api\/v1\/oadr\/enrollment\/:id\b/, params: () => ({ id: victimEnrollmentId, sn: victimDevices.inverter }) },
  { match: /^\/api\/v1\/oadr\/event\/:id\b/, params: () => ({ id: victimDrEventId }) },
  { match: /^\/api\/v1\/setting\/job\/:id\b/, params: () => ({ id: victimSettingJobId }) },
  { match: /^\/api\/v1\/setting\/batch\/:id\b/, params: () => ({ id: victimSettingBatchId }) },
  { match: /^\/api\/v1\/gateways\/restart\/:batchId\b/, params: () => ({ batchId: victimRestartBatchId }) },
  { match: /^\/api\/v1\/gateways?\/:sn\b/, params: () => ({ sn: victimGatewaySn }) },
  { match: /^\/api\/v1\/api\/gate\/:sn\b/, params: () => ({ sn: victimGatewaySn }) },
  { match: /^\/api\/v1\/version\/:id\b/, params: () => ({ id: platformVersionId }) },
  { match: /^\/api\/v1\/logger\/function\/:id\b/, params: () => ({ id: platformFunctionId }) },
  { match: /^\/api\/v1\/gateway\/:gsns\b/, params: () => ({ gsns: victimGatewaySn }) },
  { match: /^\/api\/v1\/gateways?\/:id\b/, params: () => ({ id: victimGatewayId }) },
  // The firmware library is the platform's, no tenant's: a company holds no permission over it (2).
  { match: /^\/api\/v1\/(firmware|inverterType|inverter\/products)\/.*:id\b/, params: () => ({ id: 1 }) },
  // Device routes: the victim's device of the kind the path names (inverter by default).
  {
    match: /^\/api\/v1\/.*:(sn|id)\b/,
    params: (url) => {
      const kind = /meter\//.test(url)
        ? 'meter'
        : /batter(y|ies)\//.test(url)
          ? 'battery'
          : /meteorological\//.test(url)
            ? 'weather'
            : 'inverter';
      return { sn: victimDevices[kind], id: victimDeviceIds[kind]! };
    },
  },
];

const contractRoutes = () =>
  s.app.routeTable
    .filter((r) => !pluginPublicPrefixes.some((p) => r.url.startsWith(p)))
    .flatMap((r) =>
      (Array.isArray(r.method) ? r.method : [r.method]).map((m) => ({
        method: String(m),
        url: r.url,
        endpoint: r.config?.endpoint as Endpoint | undefined,
      })),
    )
    .filter((r) => r.method !== 'HEAD' && !(r.url === '/' || r.url === '/*'));

beforeAll(async () => {
  s = await startServer();
  victim = await s.user();
  // The attacker is a company administrator who holds every company permission, so only the
  // object scope can stop them; the victim's objects belong to another tenant.
  const t = Date.now();
  const grantAll = JSON.stringify(companyGrantable);
  const mine = await s.db
    .insertInto('companies')
    .values({ name: 'Attacker Co', permissions: grantAll, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  const theirs = await s.db
    .insertInto('companies')
    .values({ name: 'Victim Co', permissions: grantAll, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  victimCompanyId = theirs.id;
  victimCustomerTypeId = (
    await s.db
      .insertInto('customer_types')
      .values({ name: 'Victim type', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  victimCompanyUserId = (await s.user({ kind: 'company_user', companyId: theirs.id })).id;
  victimRoleId = (
    await s.db
      .insertInto('company_roles')
      .values({ company_id: theirs.id, name: 'Victim role', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  victimPlantId = (
    await s.db
      .insertInto('plants')
      .values({ name: 'Victim plant', owner_user_id: victim.id, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const gw = await provisionGateway(s.db, { sn: 'VICTIMGW1', plantId: victimPlantId });
  victimGatewaySn = gw.sn;
  victimGatewayId = (await s.db.selectFrom('gateways').select('id').where('sn', '=', gw.sn).executeTakeFirstOrThrow()).id;
  const protocols = {
    inverter: 'sunfleet-hybrid-1p',
    battery: 'sunfleet-battery',
    meter: 'sunfleet-meter-3p',
    weather: 'sunfleet-weather',
  } as const;
  for (const kind of ['inverter', 'battery', 'meter', 'weather'] as const) {
    victimDeviceIds[kind] = (
      await s.db
        .insertInto('devices')
        .values({
          sn: victimDevices[kind],
          gateway_id: victimGatewayId,
          plant_id: victimPlantId,
          kind,
          protocol_id: protocols[kind],
          unit: null,
          alias: null,
          device_type: null,
          rated_power_w: null,
          master_device_id: null,
          last_ts: null,
          created_at: t,
          updated_at: t,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  await s.db
    .insertInto('setting_batches')
    .values({
      id: victimSettingBatchId,
      family: 'dyStore',
      group_name: 'batt',
      requested: '{"batteryCapacity":100}',
      requested_by: victim.id,
      state: 'finished',
      total: 1,
      created_at: t,
      finished_at: t,
    })
    .execute();
  await s.db
    .insertInto('setting_changes')
    .values({
      id: victimSettingJobId,
      batch_id: victimSettingBatchId,
      device_id: victimDeviceIds.inverter!,
      device_sn: victimDevices.inverter,
      family: 'dyStore',
      group_name: 'batt',
      kind: 'write',
      revert_of: null,
      state: 'succeeded',
      requested: '{"batteryCapacity":100}',
      before_values: '{"batteryCapacity":50}',
      after_values: '{"batteryCapacity":100}',
      error: null,
      error_code: null,
      command_job_id: null,
      requested_by: victim.id,
      created_at: t,
      updated_at: t,
      finished_at: t,
    })
    .execute();
  await s.db
    .insertInto('command_jobs')
    .values({
      id: '00000000-0000-4000-8000-000000000004',
      gateway_sn: victimGatewaySn,
      device_sn: null,
      batch_id: victimRestartBatchId,
      type: 'restart',
      state: 'succeeded',
      body: '{"type":"restart"}',
      reply: null,
      error: null,
      requested_by: victim.id,
      timeout_ms: 30_000,
      expires_at: t + 86_400_000,
      created_at: t,
      sent_at: t,
      last_sent_at: t,
      acknowledged_at: t,
      finished_at: t,
    })
    .execute();
  platformVersionId = (
    await s.db
      .insertInto('system_versions')
      .values({ number: '1.0', content_zh: '首版', content_en: 'First', published_by: victim.id, published_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  platformFunctionId = (
    await s.db
      .insertInto('logger_functions')
      .values({ name: 'Read faults', code: 'FLT', description_en: '', description_es: '', created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // Customers and agents: the victim's plant is assigned to Victim Co (the victim's agent), and
  // the attacker's company is the agent of a third customer: an agent reaches what its customers
  // are assigned, never another customer's.
  await s.db.updateTable('users').set({ agent_company_id: theirs.id }).where('id', '=', victim.id).execute();
  servedCompanyId = (
    await s.db
      .insertInto('companies')
      .values({ name: 'Served Co', permissions: grantAll, agent_company_id: mine.id, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  victimEnrollmentId = (
    await s.db
      .insertInto('dr_enrollments')
      .values({
        user_id: victim.id,
        program_id: 'p0',
        program_name: 'BESS-DR-2026',
        email: 'victim@example.com',
        first_name: 'V',
        last_name: 'V',
        service_country: 'ES',
        service_region: null,
        service_locality: null,
        service_extended: null,
        service_street: null,
        service_postal: null,
        mailing_country: 'ES',
        mailing_region: null,
        mailing_locality: null,
        mailing_extended: null,
        mailing_street: null,
        mailing_postal: null,
        source_account: '1',
        utility_account: 'victim',
        station_id: victimPlantId,
        state: 'accepted',
        terms_accepted_at: t,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await s.db
    .insertInto('dr_enrollment_devices')
    .values({
      enrollment_id: victimEnrollmentId,
      device_id: victimDeviceIds.inverter!,
      sn: victimDevices.inverter,
      manufacturer: 'Sunfleet',
      model: 'Hybrid',
      install_date: null,
      charge_w: 5000,
      discharge_w: 5000,
      storage_wh: 10000,
      resource_id: null,
      added_at: t,
      removed_at: null,
    })
    .execute();
  victimDrEventId = (
    await s.db
      .insertInto('dr_events')
      .values({
        vtn_id: 'victim-event',
        program_id: 'p0',
        name: null,
        body: JSON.stringify({ id: 'victim-event', programID: 'p0', intervals: [] }),
        start_ms: t + 3_600_000,
        end_ms: t + 7_200_000,
        modified: null,
        cancelled_at: null,
        received_at: t,
        updated_at: t,
        reported_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const a = await s.user({ kind: 'company_admin', companyId: mine.id });
  attacker = await s.login(a.account);
  const ro = await s.user({ readOnly: true });
  readOnly = { id: ro.id, access: (await s.login(ro.account)).access };
});
afterAll(() => s.close());

const fill = (url: string, params: Record<string, string | number>) =>
  url.replace(/:([A-Za-z]+)/g, (_, n: string) => String(params[n] ?? 1));

describe('route table', () => {
  it('has routes, and every route is an endpoint contract with a known access rule', () => {
    const routes = contractRoutes();
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      expect(r.endpoint, `${r.method} ${r.url} is not registered from a contract`).toBeDefined();
      const access = r.endpoint!.access;
      const names = accessPermissions(access);
      expect(
        names === null
          ? ['public', 'user', 'scrape', 'broker'].includes(access as string)
          : names.length > 0 && names.every((n) => permissionNames.has(n)),
        `${r.method} ${r.url}: unknown access "${String(access)}"`,
      ).toBe(true);
    }
  });

  it('public routes are exactly the listed ones', () => {
    const pub = contractRoutes()
      .filter((r) => r.endpoint?.access === 'public')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(pub).toEqual([...publicRoutes].sort());
  });

  it('scraper routes are exactly the listed ones', () => {
    const scrape = contractRoutes()
      .filter((r) => r.endpoint?.access === 'scrape')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(scrape).toEqual([...scrapeRoutes].sort());
  });

  it('broker hook routes are exactly the listed ones', () => {
    const hooks = contractRoutes()
      .filter((r) => r.endpoint?.access === 'broker')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(hooks).toEqual([...brokerRoutes].sort());
  });

  it('every other route answers HTTP 401 without a token, and with a garbage token', async () => {
    for (const r of contractRoutes().filter((x) => x.endpoint?.access !== 'public')) {
      const url = fill(r.url, {});
      for (const headers of [{}, { authorization: 'Bearer not-a-jwt' }]) {
        const res = await s.app.inject({
          method: r.method as 'GET',
          url,
          headers,
          remoteAddress: REMOTE,
          ...(r.method === 'POST' ? { payload: {} } : {}),
        });
        expect(res.statusCode, `${r.method} ${url}`).toBe(401);
        expect(res.json()).toMatchObject({ code: ErrorCode.tokenFailed, data: null });
      }
    }
  });

  it("every route with a path parameter answers nothing for another tenant's object", async () => {
    const withParams = contractRoutes().filter((r) => r.url.includes(':') && r.endpoint?.access !== 'public');
    for (const r of withParams) {
      const fixture = foreignIds.find((f) => f.match.test(r.url));
      expect(fixture, `${r.method} ${r.url}: add a foreignIds fixture`).toBeDefined();
      const url = fill(r.url, fixture!.params(r.url));
      const res = await s.app.inject({
        method: r.method as 'GET',
        url,
        headers: { authorization: `Bearer ${attacker.access}` },
        remoteAddress: REMOTE,
        ...(r.method === 'POST' ? { payload: {} } : {}),
      });
      const body = res.json();
      expect(body.code, `${r.method} ${url} answered code 0 for a foreign object`).not.toBe(ErrorCode.ok);
      const leak = `${r.method} ${url} returned data for a foreign object`;
      // Bad input (the empty body) may name its fields; nothing else comes back.
      if (body.code === ErrorCode.validation && body.data) expect(Object.keys(body.data), leak).toEqual(['fields']);
      else expect(body.data, leak).toBeNull();
    }
  });

  it("the attacker, an agent, reaches its customer's plant and gateway by id (the foreign-id walk above is not vacuous)", async () => {
    const t = Date.now();
    const plant = await s.db
      .insertInto('plants')
      .values({ name: 'Served plant', company_id: servedCompanyId, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const gw = await provisionGateway(s.db, { sn: 'SERVEDGW1', companyId: servedCompanyId });
    const get = (url: string) =>
      s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${attacker.access}` }, remoteAddress: REMOTE });
    expect((await get(`/api/v1/plant/${plant.id}`)).json()).toMatchObject({ code: ErrorCode.ok, data: { name: 'Served plant' } });
    expect((await get(`/api/v1/gateway/${gw.id}`)).json()).toMatchObject({ code: ErrorCode.ok });
    expect((await get(`/api/v1/plant/${victimPlantId}`)).json()).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await get(`/api/v1/gateway/${victimGatewayId}`)).json()).toMatchObject({
      code: ErrorCode.gatewayMissing,
      data: null,
    });
  });

  it('every signed-in call that changes data declares that it writes; reads never do', () => {
    const routes = contractRoutes();
    const key = (r: (typeof routes)[number]) => `${r.method} ${r.url}`;
    const writes = new Set(routes.filter((r) => r.endpoint?.writes).map(key));
    for (const name of mustWrite) expect(writes, `${name} must declare writes`).toContain(name);
    for (const r of routes) {
      const access = r.endpoint?.access;
      if (getsThatWrite.has(key(r))) {
        expect(r.endpoint?.writes, `${key(r)} must declare writes`).toBe(true);
        continue;
      }
      if (r.method === 'GET' || access === 'public' || access === 'scrape' || access === 'broker') {
        expect(r.endpoint?.writes, `${key(r)} declares writes`).toBeUndefined();
        continue;
      }
      const listedRead = postsThatDoNotWrite.has(key(r));
      expect(writes.has(key(r)) !== listedRead, `${key(r)}: declare writes, or list it as a call that does not write`).toBe(true);
    }
  });

  it('a read-only account is refused (2) by every call that writes, before its input is read', async () => {
    const writing = contractRoutes().filter((r) => r.endpoint?.writes);
    expect(writing.length).toBeGreaterThanOrEqual(mustWrite.length);
    for (const r of writing) {
      // Its own ids where a path takes one, so that nothing but the read-only rule refuses it.
      const url = fill(r.url, { id: readOnly.id, plantId: 1, sn: 'X', gsns: 'X' });
      const res = await s.app.inject({
        method: r.method as 'POST',
        url,
        headers: { authorization: `Bearer ${readOnly.access}` },
        remoteAddress: REMOTE,
        ...(r.method === 'GET' ? {} : { payload: {} }),
      });
      expect(res.json(), `${r.method} ${url}`).toEqual({ code: ErrorCode.noPermission, msg: expect.any(String), data: null });
    }
    const before = await s.db.selectFrom('users').selectAll().where('id', '=', readOnly.id).executeTakeFirstOrThrow();
    const profile = await s.call(readOnly.access, 'POST', `/api/v1/user/${readOnly.id}`, { nickname: 'Changed' });
    expect(profile.body.code).toBe(ErrorCode.noPermission);
    expect(await s.db.selectFrom('users').selectAll().where('id', '=', readOnly.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('a read-only account still makes the calls that do not write', async () => {
    const saved = await s.call(readOnly.access, 'POST', '/api/v1/user/personalized', { key: 'columns', value: ['name'] });
    expect(saved.body).toMatchObject({ code: ErrorCode.ok, data: { columns: ['name'] } });
    expect((await s.call(readOnly.access, 'GET', '/api/v1/plants')).body.code).toBe(ErrorCode.ok);
  });
});
