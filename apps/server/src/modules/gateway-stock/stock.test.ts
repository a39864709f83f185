/**
 * Gateways in stock: create one, import one, batch, the check report, file import in both modes
 * (and a failure mid-write leaving nothing), the template, assign, protocol, delete, the list
 * download, the claim key, the audit records, and who may call any of it.
 */
import { createHash } from 'node:crypto';
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company, createPlant, uniqueName, uniqueSn } from '../../../test/kits/plants.ts';
import { multipartBody, workbookBytes } from '../../../test/kits/reports.ts';
import { isPostgres } from '../../db/migrations/columns.ts';
import { loadFirmwareSigner } from '../../firmware/signing.ts';

let s: TestServer;
let admin: Account;
let companyAdmin: Account;
let readOnly: Account;
let customer: number;
let customerName: string;
let otherCustomer: number;

const CLAIM_KEY = /^[0-9ABCDEFGHJKMNPQRSTVWXYZ]{26}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  s = await startServer();
  admin = await account(s, { kind: 'sysadmin' });
  customerName = uniqueName('Customer');
  customer = await company(s, customerName);
  otherCustomer = await company(s);
  companyAdmin = await account(s, { kind: 'company_admin', companyId: customer });
  readOnly = await account(s, { kind: 'sysadmin', readOnly: true });
});
afterAll(() => s.close());

type Body = { code: number; msg: string; data: unknown };
const call = (who: Account, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  s.call(who.token, method, url, payload).then((r) => r.body as Body);

async function upload(who: Account, path: 'check' | 'batch', fields: Record<string, string>, bytes?: Buffer, lan = 'en') {
  const body = multipartBody(fields, bytes ? { bytes, name: 'gateways.xlsx' } : undefined);
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/v1/gateway/import/${path}?lan=${lan}`,
    headers: { authorization: `Bearer ${who.token}`, ...body.headers },
    payload: body.payload,
  });
  return res.json() as Body;
}

const header = ['SN', 'Customer (id or name)', 'Protocol', 'Alias'];
const file = (rows: unknown[][]) => workbookBytes([header, ...rows]);

const gatewayRow = (sn: string) => s.db.selectFrom('gateways').selectAll().where('sn', '=', sn).executeTakeFirst();
const stockAudits = () =>
  s.db.selectFrom('admin_audit').selectAll().where('entity', '=', 'gateway_stock').orderBy('id').execute();
const count = async () =>
  Number(
    (
      await s.db
        .selectFrom('gateways')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function readXlsx(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: ws.name, rows };
}

describe('create one', () => {
  it('makes a gateway in stock and shows its claim key and secret once, stored only as hashes', async () => {
    const sn = uniqueSn('NEW');
    const res = await call(admin, 'POST', '/api/v1/gateway/create', {
      sn,
      customerId: customer,
      protocol: 'sunfleet-hybrid-1p',
      alias: 'Roof',
    });
    expect(res.code).toBe(ErrorCode.ok);
    const made = res.data as { id: number; sn: string; claimKey: string; secret: string; firmwareKey: string };
    expect(made.sn).toBe(sn);
    // Provisioned with the key it checks firmware images with: the server's signing key.
    expect(made.firmwareKey).toBe(loadFirmwareSigner(s.config.dataDir).publicKey);
    expect(made.claimKey).toMatch(CLAIM_KEY);
    expect(made.secret.length).toBeGreaterThanOrEqual(32);
    const row = (await gatewayRow(sn))!;
    expect(row).toMatchObject({ company_id: customer, protocol_id: 'sunfleet-hybrid-1p', alias: 'Roof', plant_id: null });
    expect(row.claim_key_hash).toBe(sha256(made.claimKey));
    expect(row.secret_hash).toBe(sha256(made.secret));
    expect(JSON.stringify(row)).not.toContain(made.claimKey);

    // Shown once: neither the detail nor the list carries it again.
    const detail = await call(admin, 'GET', `/api/v1/gateway/${made.id}`);
    expect(detail.code).toBe(ErrorCode.ok);
    expect(JSON.stringify(detail)).not.toContain(made.claimKey);
    const list = await call(admin, 'GET', `/api/v1/gateways?keyword=${sn}`);
    expect(JSON.stringify(list)).not.toContain(made.claimKey);
    expect((list.data as { list: Array<{ protocol: string }> }).list[0]!.protocol).toBe('sunfleet-hybrid-1p');

    // The key is the one a user binds it with.
    const owner = await account(s);
    const plantId = await createPlant(s, owner);
    expect((await call(owner, 'POST', '/api/v1/gateways/check', { sn, key: made.claimKey })).code).toBe(ErrorCode.ok);
    expect((await call(owner, 'POST', `/api/v1/plant/${plantId}/gateway`, { sn, key: made.claimKey })).code).toBe(ErrorCode.ok);
  });

  it('records who made it, in the same transaction', async () => {
    const sn = uniqueSn('AUD');
    const res = await call(admin, 'POST', '/api/v1/gateway/create', { sn });
    const audit = (await stockAudits()).find((a) => a.entity_id === String((res.data as { id: number }).id))!;
    expect(audit).toMatchObject({ actor_user_id: admin.id, action: 'create', before_values: null });
    expect(JSON.parse(audit.after_values!)).toMatchObject({ sn, customerId: null, protocol: null, alias: null });
  });

  it('refuses every problem with its code and writes nothing', async () => {
    const taken = uniqueSn('TAKEN');
    expect((await call(admin, 'POST', '/api/v1/gateway/create', { sn: taken })).code).toBe(ErrorCode.ok);
    const before = await count();
    const audits = (await stockAudits()).length;
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ sn: '' }, 4],
      [{ sn: 'BAD SN' }, 4],
      [{ sn: 'A'.repeat(33) }, 4],
      [{ sn: 'ÑANDU1' }, 4],
      [{ sn: taken }, 301],
      [{ sn: uniqueSn(), customerId: 999_999 }, 404],
      [{ sn: uniqueSn(), protocol: 'no-such-protocol' }, 4],
      [{ sn: uniqueSn(), alias: 'é'.repeat(17) }, 4],
    ];
    for (const [body, code] of cases) {
      const res = await call(admin, 'POST', '/api/v1/gateway/create', body);
      expect(res, JSON.stringify(body)).toMatchObject({ code, data: null });
    }
    expect(await count()).toBe(before);
    expect((await stockAudits()).length).toBe(audits);
  });

  it('takes the limits exactly: a 32-character SN and a 32-byte alias', async () => {
    const sn = `L${uniqueSn()}`.padEnd(32, '0').slice(0, 32);
    const res = await call(admin, 'POST', '/api/v1/gateway/create', { sn, alias: 'é'.repeat(16) });
    expect(res.code).toBe(ErrorCode.ok);
  });

  it('gives every gateway its own 128-bit key', async () => {
    const res = await call(admin, 'POST', '/api/v1/gateway/batch', {
      items: Array.from({ length: 200 }, () => ({ sn: uniqueSn('KEY') })),
      mode: 'all',
    });
    const keys = (res.data as { gateways: Array<{ claimKey: string }> }).gateways.map((g) => g.claimKey);
    expect(keys).toHaveLength(200);
    expect(new Set(keys).size).toBe(200);
    for (const k of keys) expect(k).toMatch(CLAIM_KEY);
    // 26 base32 characters carry 130 bits, the last 2 padding: 128 random bits. Each of the
    // first 25 characters' 5 bits is set about half the time over 200 keys.
    for (let bit = 0; bit < 125; bit++) {
      const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
      const ones = keys.filter((k) => (alphabet.indexOf(k[Math.floor(bit / 5)]!) >> (4 - (bit % 5))) & 1).length;
      expect(ones, `bit ${bit}`).toBeGreaterThan(50);
      expect(ones, `bit ${bit}`).toBeLessThan(150);
    }
  });
});

describe('import one', () => {
  it('checks without writing, then imports for the customer of the query', async () => {
    const sn = uniqueSn('ONE');
    const check = await call(admin, 'POST', `/api/v1/gateway/import/one/check?customerId=${customer}`, { sn });
    expect(check).toMatchObject({ code: ErrorCode.ok, data: { rows: 1, valid: 1, problems: [] } });
    expect(await gatewayRow(sn)).toBeUndefined();
    const bad = await call(admin, 'POST', '/api/v1/gateway/import/one/check?customerId=999999', {
      sn: 'x y',
      protocol: 'nope',
    });
    expect(bad.data).toEqual({
      rows: 1,
      valid: 0,
      problems: [
        { row: 1, sn: 'x y', problem: 'snFormat' },
        { row: 1, sn: 'x y', problem: 'customerMissing', value: '999999' },
        { row: 1, sn: 'x y', problem: 'protocolUnknown', value: 'nope' },
      ],
    });
    const res = await call(admin, 'POST', `/api/v1/gateway/import/one?customerId=${customer}`, { sn });
    expect(res.code).toBe(ErrorCode.ok);
    expect((await gatewayRow(sn))!.company_id).toBe(customer);
    expect((await call(admin, 'POST', `/api/v1/gateway/import/one?customerId=${customer}`, { sn })).code).toBe(
      ErrorCode.gatewayUsed,
    );
    expect((await call(admin, 'POST', '/api/v1/gateway/import/one?customerId=999999', { sn: uniqueSn() })).code).toBe(
      ErrorCode.notFound,
    );
  });
});

describe('batch', () => {
  it("reports each row's problems; 'valid' writes the good rows, 'all' none of them", async () => {
    const taken = uniqueSn('BT');
    await call(admin, 'POST', '/api/v1/gateway/create', { sn: taken });
    const good = [uniqueSn('B1'), uniqueSn('B2')];
    const items = [{ sn: good[0] }, { sn: taken }, { sn: good[1], protocol: 'sunfleet-meter-3p' }, { sn: good[0] }];
    const before = await count();
    const all = await call(admin, 'POST', '/api/v1/gateway/batch', { items, mode: 'all' });
    expect(all.data).toMatchObject({
      mode: 'all',
      written: 0,
      gateways: [],
      report: {
        rows: 4,
        valid: 2,
        problems: [
          { row: 2, sn: taken, problem: 'snExists' },
          { row: 4, sn: good[0], problem: 'snRepeated', firstRow: 1 },
        ],
      },
    });
    expect(await count()).toBe(before);
    const valid = await call(admin, 'POST', '/api/v1/gateway/batch', { items, mode: 'valid', customerId: otherCustomer });
    expect(valid.data).toMatchObject({ mode: 'valid', written: 2 });
    expect(await count()).toBe(before + 2);
    expect(await gatewayRow(good[1]!)).toMatchObject({ company_id: otherCustomer, protocol_id: 'sunfleet-meter-3p' });
    const audit = (await stockAudits()).at(-1)!;
    expect(audit).toMatchObject({ action: 'batch', entity_id: 'batch', company_id: otherCustomer });
    expect(JSON.parse(audit.after_values!)).toEqual({ count: 2, sns: good });
  });

  it(`takes at most 1000 items, and a customer that exists`, async () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ sn: uniqueSn('M') }));
    expect((await call(admin, 'POST', '/api/v1/gateway/batch', { items: many(1001), mode: 'valid' })).code).toBe(
      ErrorCode.validation,
    );
    expect((await call(admin, 'POST', '/api/v1/gateway/batch', { items: [], mode: 'valid' })).code).toBe(ErrorCode.validation);
    expect((await call(admin, 'POST', '/api/v1/gateway/batch', { items: many(1), mode: 'sometimes' })).code).toBe(
      ErrorCode.validation,
    );
    const before = await count();
    expect((await call(admin, 'POST', '/api/v1/gateway/batch', { items: many(2), mode: 'valid', customerId: 999999 })).code).toBe(
      404,
    );
    expect(await count()).toBe(before);
    const full = await call(admin, 'POST', '/api/v1/gateway/batch', { items: many(1000), mode: 'all' });
    expect(full.data).toMatchObject({ written: 1000 });
  });
});

describe('import from a file', () => {
  it('serves the template in the language asked, with one example row that the import skips', async () => {
    for (const [lan, headers] of [
      ['en', header],
      ['es', ['SN', 'Cliente (id o nombre)', 'Protocolo', 'Alias']],
    ] as const) {
      const res = await s.app.inject({
        method: 'GET',
        url: `/api/v1/gateway/import/template?lan=${lan}`,
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const sheet = await readXlsx(res.rawPayload);
      expect(sheet.rows[0]).toEqual(headers);
      expect(sheet.rows).toHaveLength(2);
      expect(sheet.rows[1]![0]).toBe('EXAMPLE-GW-0001');
      // The untouched template has no gateway rows.
      expect(await upload(admin, 'check', {}, res.rawPayload)).toMatchObject({ code: ErrorCode.validation });
    }
  });

  it('reports every bad row of a file (row number, SN, problem) and writes the valid ones', async () => {
    const taken = uniqueSn('FT');
    await call(admin, 'POST', '/api/v1/gateway/create', { sn: taken });
    const sns = Array.from({ length: 5 }, () => uniqueSn('F'));
    const bytes = await file([
      [sns[0], customerName, 'sunfleet-hybrid-1p', 'First'],
      [sns[1], String(otherCustomer), 'SUNFLEET-METER-3P', null],
      ['bad sn!', null, null, null],
      [sns[0], null, null, null],
      [taken, null, null, null],
      [sns[2], 'Nobody Ltd', 'nope', 'x'.repeat(33)],
      [],
      [sns[3], null, null, null],
    ]);
    const check = await upload(admin, 'check', { customerId: String(customer) }, bytes);
    expect(check).toMatchObject({ code: ErrorCode.ok });
    expect(check.data).toEqual({
      rows: 7,
      valid: 3,
      problems: [
        { row: 4, sn: 'bad sn!', problem: 'snFormat' },
        { row: 5, sn: sns[0], problem: 'snRepeated', firstRow: 2 },
        { row: 6, sn: taken, problem: 'snExists' },
        { row: 7, sn: sns[2], problem: 'customerMissing', value: 'Nobody Ltd' },
        { row: 7, sn: sns[2], problem: 'protocolUnknown', value: 'nope' },
        { row: 7, sn: sns[2], problem: 'aliasTooLong' },
      ],
    });
    const before = await count();
    expect(await gatewayRow(sns[0]!)).toBeUndefined();

    const refused = await upload(admin, 'batch', { customerId: String(customer), mode: 'all' }, bytes);
    expect(refused.data).toMatchObject({ written: 0, gateways: [] });
    expect(await count()).toBe(before);

    const audits = (await stockAudits()).length;
    const written = await upload(admin, 'batch', { customerId: String(customer), mode: 'valid' }, bytes);
    expect(written.data).toMatchObject({ mode: 'valid', written: 3 });
    expect(await count()).toBe(before + 3);
    expect(await gatewayRow(sns[0]!)).toMatchObject({ company_id: customer, protocol_id: 'sunfleet-hybrid-1p', alias: 'First' });
    expect(await gatewayRow(sns[1]!)).toMatchObject({ company_id: otherCustomer, protocol_id: 'sunfleet-meter-3p' });
    expect(await gatewayRow(sns[3]!)).toMatchObject({ company_id: customer, protocol_id: null });
    const made = (written.data as { gateways: Array<{ sn: string; claimKey: string }> }).gateways;
    expect(made.map((g) => g.sn)).toEqual([sns[0], sns[1], sns[3]]);
    // One record for the whole import: the count and the SNs.
    const added = (await stockAudits()).slice(audits);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ action: 'import', entity_id: 'import', company_id: customer });
    expect(JSON.parse(added[0]!.after_values!)).toEqual({ count: 3, sns: [sns[0], sns[1], sns[3]] });
  });

  it("mode 'all' writes a clean file whole", async () => {
    const sns = Array.from({ length: 3 }, () => uniqueSn('C'));
    const res = await upload(admin, 'batch', { mode: 'all' }, await file(sns.map((sn) => [sn])));
    expect(res.data).toMatchObject({ written: 3, report: { rows: 3, valid: 3, problems: [] } });
  });

  it('leaves nothing behind when the write fails part way', async () => {
    const sns = Array.from({ length: 1200 }, () => uniqueSn('X'));
    const last = sns.at(-1)!;
    // The store refuses the last row's insert (a fault in the middle of the write).
    if (isPostgres(s.db)) {
      await sql
        .raw(
          `create function refuse_gateway() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$;
           create trigger refuse_gateway before insert on gateways for each row when (new.sn = '${last}') execute function refuse_gateway();`,
        )
        .execute(s.db);
    } else {
      await sql
        .raw(
          `create trigger refuse_gateway before insert on gateways when new.sn = '${last}' begin select raise(abort, 'refused'); end`,
        )
        .execute(s.db);
    }
    const before = await count();
    const audits = (await stockAudits()).length;
    const bytes = await file(sns.map((sn) => [sn]));
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/gateway/import/batch',
      headers: { authorization: `Bearer ${admin.token}`, ...multipartBody({ mode: 'valid' }, { bytes }).headers },
      payload: multipartBody({ mode: 'valid' }, { bytes }).payload,
    });
    expect(res.statusCode).toBe(500);
    expect(await count()).toBe(before);
    expect((await stockAudits()).length).toBe(audits);
    await sql.raw(`drop trigger refuse_gateway${isPostgres(s.db) ? ' on gateways' : ''}`).execute(s.db);
  });

  it('refuses what is not an .xlsx gateway file, naming the field', async () => {
    expect(await call(admin, 'POST', '/api/v1/gateway/import/check', { file: 'x' })).toMatchObject({
      code: ErrorCode.validation,
      data: null,
    });
    expect(await call(admin, 'POST', '/api/v1/gateway/import/batch', { mode: 'all' })).toMatchObject({
      code: ErrorCode.validation,
      data: null,
    });
    expect(await upload(admin, 'check', {})).toMatchObject({ code: ErrorCode.validation });
    expect(await upload(admin, 'check', {}, Buffer.from('sn,customer\nA,1\n'))).toMatchObject({ code: ErrorCode.validation });
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    const refused = await upload(admin, 'check', {}, xls, 'es');
    expect(refused.code).toBe(ErrorCode.validation);
    expect(refused.msg).toContain('.xls');
    expect(await upload(admin, 'check', { customerId: 'abc' }, await file([[uniqueSn()]]))).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await upload(admin, 'check', { customerId: '999999' }, await file([[uniqueSn()]]))).toMatchObject({
      code: ErrorCode.notFound,
    });
    expect(await upload(admin, 'batch', {}, await file([[uniqueSn()]]))).toMatchObject({ code: ErrorCode.validation });
    expect(await upload(admin, 'batch', { mode: 'most' }, await file([[uniqueSn()]]))).toMatchObject({
      code: ErrorCode.validation,
    });
  });

  it('takes a file of 4 MB and refuses one byte more, before reading it', async () => {
    const limit = 4 * 1024 * 1024;
    const atLimit = await upload(admin, 'check', {}, Buffer.alloc(limit, 0x41));
    expect(atLimit).toMatchObject({ code: ErrorCode.validation, msg: expect.stringContaining('not an .xlsx workbook') });
    const over = await upload(admin, 'check', {}, Buffer.alloc(limit + 1, 0x41));
    expect(over).toMatchObject({ code: ErrorCode.validation, msg: expect.stringContaining('larger than 4 MB') });
  });

  it('reads 10,000 rows and refuses 10,001', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [`LIM${i.toString().padStart(6, '0')}`]);
    const ok = await upload(admin, 'check', {}, await file(rows));
    expect(ok.data).toMatchObject({ rows: 10_000, valid: 10_000, problems: [] });
    const over = await upload(admin, 'check', {}, await file([...rows, ['LIMX']]));
    expect(over).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(over.msg).toContain('10000');
  }, 60_000);
});

describe('assign, protocol, delete', () => {
  async function stocked(fields: Record<string, unknown> = {}) {
    const res = await call(admin, 'POST', '/api/v1/gateway/create', { sn: uniqueSn('S'), ...fields });
    return res.data as { id: number; sn: string; claimKey: string };
  }

  it("assigns to a customer: that customer's accounts see it, another customer's do not", async () => {
    const g = await stocked();
    const other = await account(s, { kind: 'company_admin', companyId: otherCustomer });
    const sees = async (who: Account) =>
      ((await call(who, 'GET', `/api/v1/gateways?keyword=${g.sn}`)).data as { total: number }).total;
    expect(await sees(companyAdmin)).toBe(0);
    expect(await call(admin, 'POST', '/api/v1/gateway/assign', { ids: [g.id], customerId: customer })).toMatchObject({
      code: ErrorCode.ok,
      data: { updated: 1 },
    });
    expect(await sees(companyAdmin)).toBe(1);
    expect(await sees(other)).toBe(0);
    const filteredList = await call(admin, 'GET', `/api/v1/gateways?customerId=${customer}&keyword=${g.sn}`);
    expect((filteredList.data as { total: number }).total).toBe(1);
    const audit = (await stockAudits()).at(-1)!;
    expect(audit).toMatchObject({ action: 'assign', entity_id: String(g.id), company_id: customer });
    expect(JSON.parse(audit.before_values!)).toEqual({ customerId: null });

    expect((await call(admin, 'POST', '/api/v1/gateway/assign', { ids: [g.id], customerId: null })).code).toBe(ErrorCode.ok);
    expect(await sees(companyAdmin)).toBe(0);
  });

  it('refuses a missing gateway (305) or customer (404) and changes nothing', async () => {
    const g = await stocked();
    expect((await call(admin, 'POST', '/api/v1/gateway/assign', { ids: [g.id, 999999], customerId: customer })).code).toBe(
      ErrorCode.gatewayMissing,
    );
    expect((await call(admin, 'POST', '/api/v1/gateway/assign', { ids: [g.id], customerId: 999999 })).code).toBe(
      ErrorCode.notFound,
    );
    expect((await gatewayRow(g.sn))!.company_id).toBeNull();
    // At most 500 ids: 500 unknown ones pass the input check and are not found; 501 are refused as input.
    const ids = Array.from({ length: 501 }, (_, i) => 900_000 + i);
    expect((await call(admin, 'POST', '/api/v1/gateway/assign', { ids: ids.slice(0, 500), customerId: null })).code).toBe(
      ErrorCode.gatewayMissing,
    );
    expect((await call(admin, 'POST', '/api/v1/gateway/assign', { ids, customerId: null })).code).toBe(ErrorCode.validation);
    expect((await call(admin, 'POST', '/api/v1/gateway/updateGatewayProtocol', { ids, protocol: null })).code).toBe(
      ErrorCode.validation,
    );
  });

  it('sets a known protocol, clears it, and refuses an unknown one', async () => {
    const g = await stocked();
    const set = await call(admin, 'POST', '/api/v1/gateway/updateGatewayProtocol', { ids: [g.id], protocol: 'sunfleet-weather' });
    expect(set).toMatchObject({ code: ErrorCode.ok, data: { updated: 1 } });
    expect((await gatewayRow(g.sn))!.protocol_id).toBe('sunfleet-weather');
    const byProtocol = await call(admin, 'GET', `/api/v1/gateways?protocol=sunfleet-weather&keyword=${g.sn}`);
    expect((byProtocol.data as { total: number }).total).toBe(1);
    const audit = (await stockAudits()).at(-1)!;
    expect(audit).toMatchObject({ action: 'protocol', entity_id: String(g.id) });
    expect(JSON.parse(audit.after_values!)).toEqual({ protocol: 'sunfleet-weather' });

    expect((await call(admin, 'POST', '/api/v1/gateway/updateGatewayProtocol', { ids: [g.id], protocol: 'nope' })).code).toBe(
      ErrorCode.validation,
    );
    expect((await call(admin, 'POST', '/api/v1/gateway/updateGatewayProtocol', { ids: [999999], protocol: null })).code).toBe(
      305,
    );
    expect((await gatewayRow(g.sn))!.protocol_id).toBe('sunfleet-weather');
    expect((await call(admin, 'POST', '/api/v1/gateway/updateGatewayProtocol', { ids: [g.id], protocol: null })).code).toBe(
      ErrorCode.ok,
    );
    expect((await gatewayRow(g.sn))!.protocol_id).toBeNull();
  });

  it('deletes a gateway in stock, refuses one bound to a plant (301), and frees the SN', async () => {
    const owner = await account(s);
    const plantId = await createPlant(s, owner);
    const bound = await stocked();
    expect((await call(owner, 'POST', `/api/v1/plant/${plantId}/gateway`, { sn: bound.sn, key: bound.claimKey })).code).toBe(
      ErrorCode.ok,
    );
    expect(await call(admin, 'GET', `/api/v1/gateway/${bound.id}/delete`)).toMatchObject({
      code: ErrorCode.gatewayUsed,
      data: null,
    });
    expect((await gatewayRow(bound.sn))!.deleted_at).toBeNull();

    const free = await stocked({ customerId: customer });
    expect(await call(admin, 'GET', `/api/v1/gateway/${free.id}/delete`)).toMatchObject({ code: ErrorCode.ok });
    expect((await gatewayRow(free.sn))!.deleted_at).not.toBeNull();
    expect(await call(admin, 'GET', `/api/v1/gateway/${free.id}/delete`)).toMatchObject({ code: ErrorCode.gatewayMissing });
    expect((await call(admin, 'GET', `/api/v1/gateway/${free.id}`)).code).toBe(ErrorCode.gatewayMissing);
    const audit = (await stockAudits()).at(-1)!;
    expect(audit).toMatchObject({ action: 'delete', entity_id: String(free.id), company_id: customer });

    // Its SN can be stocked again: the row starts afresh, with new secrets.
    const again = await call(admin, 'POST', '/api/v1/gateway/create', { sn: free.sn });
    expect(again.code).toBe(ErrorCode.ok);
    const revived = (await gatewayRow(free.sn))!;
    expect(revived).toMatchObject({ deleted_at: null, company_id: null });
    expect(revived.claim_key_hash).toBe(sha256((again.data as { claimKey: string }).claimKey));
    expect(revived.claim_key_hash).not.toBe(sha256(free.claimKey));
  });
});

describe('download', () => {
  it('streams the filtered list as .xlsx in the language asked', async () => {
    const g = await call(admin, 'POST', '/api/v1/gateway/create', {
      sn: uniqueSn('DL'),
      customerId: otherCustomer,
      protocol: 'sunfleet-battery',
    });
    const sn = (g.data as { sn: string }).sn;
    const res = await s.app.inject({
      method: 'GET',
      url: `/api/v1/gateways/downLoad?customerId=${otherCustomer}&protocol=sunfleet-battery&lan=es`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode).toBe(200);
    const sheet = await readXlsx(res.rawPayload);
    expect(sheet.rows[0]!.slice(0, 4)).toEqual(['SN', 'Alias', 'Cliente o agente', 'Protocolo']);
    expect(sheet.rows.slice(1).map((r) => r[0])).toEqual([sn]);
    expect(sheet.rows[1]!.slice(3, 6)).toEqual(['sunfleet-battery', undefined, 'Desconectada']);

    // A company's account downloads only what it sees.
    const mine = await s.app.inject({
      method: 'GET',
      url: `/api/v1/gateways/downLoad?customerId=${otherCustomer}`,
      headers: { authorization: `Bearer ${companyAdmin.token}` },
    });
    expect((await readXlsx(mine.rawPayload)).rows).toHaveLength(1);
  });

  it('pages through more rows than one read', async () => {
    const items = Array.from({ length: 1500 }, (_, i) => ({
      sn: `PAGE${i.toString().padStart(5, '0')}`,
      protocol: 'sunfleet-pcs-3p',
    }));
    await call(admin, 'POST', '/api/v1/gateway/batch', { items: items.slice(0, 1000), mode: 'all' });
    await call(admin, 'POST', '/api/v1/gateway/batch', { items: items.slice(1000), mode: 'all' });
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/v1/gateways/downLoad?protocol=sunfleet-pcs-3p',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const rows = (await readXlsx(res.rawPayload)).rows.slice(1).map((r) => r[0]);
    expect(rows).toEqual(items.map((i) => i.sn));
  });
});

describe('who may', () => {
  it("refuses a company's administrator (holding every company permission) and a read-only operator on every route", async () => {
    const fullCompany = await company(s, uniqueName('Full'), companyGrantable);
    const outsider = await account(s, { kind: 'company_admin', companyId: fullCompany });
    const g = (await call(admin, 'POST', '/api/v1/gateway/create', { sn: uniqueSn('W'), customerId: fullCompany })).data as {
      id: number;
    };
    const before = await count();
    const bytes = await file([[uniqueSn()]]);
    for (const who of [outsider, readOnly]) {
      const calls: Array<Promise<Body>> = [
        call(who, 'POST', '/api/v1/gateway/create', { sn: uniqueSn() }),
        call(who, 'POST', `/api/v1/gateway/import/one?customerId=${fullCompany}`, { sn: uniqueSn() }),
        call(who, 'POST', '/api/v1/gateway/batch', { items: [{ sn: uniqueSn() }], mode: 'all' }),
        upload(who, 'batch', { mode: 'all' }, bytes),
        call(who, 'POST', '/api/v1/gateway/assign', { ids: [g.id], customerId: null }),
        call(who, 'POST', '/api/v1/gateway/updateGatewayProtocol', { ids: [g.id], protocol: 'sunfleet-pcs-3p' }),
        call(who, 'GET', `/api/v1/gateway/${g.id}/delete`),
      ];
      if (who === outsider) {
        calls.push(
          call(who, 'POST', `/api/v1/gateway/import/one/check?customerId=${fullCompany}`, { sn: uniqueSn() }),
          upload(who, 'check', {}, bytes),
          call(who, 'GET', '/api/v1/gateway/import/template'),
        );
      }
      for (const res of await Promise.all(calls)) expect(res).toMatchObject({ code: ErrorCode.noPermission, data: null });
    }
    expect(await count()).toBe(before);
    expect(
      await gatewayRow((await s.db.selectFrom('gateways').select('sn').where('id', '=', g.id).executeTakeFirstOrThrow()).sn),
    ).toMatchObject({
      company_id: fullCompany,
      deleted_at: null,
      protocol_id: null,
    });
  });
});
