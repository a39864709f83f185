/**
 * Forecast upload (`predicted/import`): .xlsx only, judged by content (legacy .xls, encrypted
 * workbooks, other files and ZIP bombs refused with code 4), times in the plant's zone, W or
 * kW, every row checked before anything is written, and the days covered replaced in one go.
 * Who may: editors of the plant (700 for a plant not seen, 2 for a visitor or read-only account).
 */
import { deflateRawSync } from 'node:zlib';
import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account, company } from '../../../test/kits/plants.ts';
import { plant, share, upload, workbookBytes } from '../../../test/kits/reports.ts';
import { forecastRows } from './forecast.ts';
import type { SheetRow } from './sheet-reader.ts';
import { FORECAST_MAX_BYTES, FORECAST_MAX_ROWS, texts } from './texts.ts';

let s: TestServer;
let owner: Account;
let manager: Account;
let visitor: Account;
let readOnly: Account;
let stranger: Account;
let madrid: number;
let utc: number;
let foreign: number;

/** An Excel date cell holding a wall-clock time (Excel dates have no zone: the fields go in as UTC). */
const cell = (text: string) => new Date(`${text.replace(' ', 'T')}:00Z`);
const iso = (t: number) => new Date(Number(t)).toISOString();

const stored = async (plantId = madrid) =>
  (await s.db.selectFrom('plant_forecast').select(['ts', 'power_w']).where('plant_id', '=', plantId).orderBy('ts').execute()).map(
    (r) => [iso(Number(r.ts)), Number(r.power_w)] as const,
  );

const send = async (who: Account, rows: unknown[][], opts: { plantId?: number; lan?: string } = {}) =>
  upload(s, who, { plantId: String(opts.plantId ?? madrid) }, { bytes: await workbookBytes(rows) }, opts.lan);

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
  manager = await account(s);
  visitor = await account(s);
  readOnly = await account(s, { readOnly: true });
  stranger = await account(s, { kind: 'company_admin', companyId: await company(s) });
  madrid = await plant(s, { owner: owner.id, timezone: 'Europe/Madrid' });
  utc = await plant(s, { owner: owner.id, timezone: 'UTC' });
  foreign = await plant(s, { owner: stranger.id, timezone: 'UTC' });
  await share(s, madrid, manager.id, 'manager');
  await share(s, madrid, visitor.id, 'visitor');
  await share(s, madrid, readOnly.id, 'visitor');
});
afterAll(() => s.close());
beforeEach(async () => {
  await s.db.deleteFrom('plant_forecast').execute();
});

describe('forecast import', () => {
  it('reads date cells and text times in the plant’s zone, kW by the header, and stores W', async () => {
    const res = await send(owner, [
      ['Time', 'Power (kW)'],
      [cell('2026-06-01 10:00'), 1.5],
      [cell('2026-06-01 10:05'), 2.25],
      [],
      ['2026-06-01 23:30', 0],
      ['2026-06-02 00:30', '0.75'],
    ]);
    expect(res.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { rows: 4, days: ['2026-06-01', '2026-06-02'] } });
    // Madrid is UTC+2 in June.
    expect(await stored()).toEqual([
      ['2026-06-01T08:00:00.000Z', 1500],
      ['2026-06-01T08:05:00.000Z', 2250],
      ['2026-06-01T21:30:00.000Z', 0],
      ['2026-06-01T22:30:00.000Z', 750],
    ]);
  });

  it('replaces only the plant-local days the new file covers (in one go), W without a header', async () => {
    await send(owner, [
      ['2026-06-01 23:30', 100],
      ['2026-06-02 00:30', 200],
      ['2026-06-02 12:00', 300],
      ['2026-06-03 12:00', 400],
    ]);
    const res = await send(manager, [
      ['2026-06-02 06:00', 1000],
      ['2026-06-02 06:15', 1100.5],
    ]);
    expect(res.body.data).toEqual({ rows: 2, days: ['2026-06-02'] });
    // 00:30 local on the 2nd is 22:30Z on the 1st: replaced with the 2nd; 23:30 local on the 1st stays.
    expect(await stored()).toEqual([
      ['2026-06-01T21:30:00.000Z', 100],
      ['2026-06-02T04:00:00.000Z', 1000],
      ['2026-06-02T04:15:00.000Z', 1100.5],
      ['2026-06-03T10:00:00.000Z', 400],
    ]);
  });

  it('takes the fields in either order', async () => {
    const bytes = await workbookBytes([['2026-06-05 09:00', 10]]);
    const res = await upload(s, owner, { plantId: String(madrid) }, { bytes, first: true });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { rows: 1, days: ['2026-06-05'] } });
    expect(await stored()).toEqual([['2026-06-05T07:00:00.000Z', 10]]);
  });

  it('the first sheet is the forecast, whatever it is called', async () => {
    const bytes = await workbookBytes([['2026-06-01 12:00', 5]], true);
    const res = await upload(s, owner, { plantId: String(madrid) }, { bytes });
    // The first sheet ("Notes") has no time in column A.
    expect(res.body).toMatchObject({ code: ErrorCode.validation, data: null });
  });

  it('reads the hour a clock is set back twice, and a skipped hour after the jump', async () => {
    const res = await send(owner, [
      ['2026-10-25 02:30', 1],
      ['2026-10-25 02:30', 2],
      ['2026-03-29 02:30', 3],
    ]);
    expect(res.body.code).toBe(ErrorCode.ok);
    expect(await stored()).toEqual([
      ['2026-03-29T01:30:00.000Z', 3],
      ['2026-10-25T00:30:00.000Z', 1],
      ['2026-10-25T01:30:00.000Z', 2],
    ]);
    const third = await send(owner, [
      ['2026-10-25 02:30', 1],
      ['2026-10-25 02:30', 2],
      ['2026-10-25 02:30', 3],
    ]);
    expect(third.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(third.body.msg).toContain('row 3');
    // 02:30 does not exist on 29 March in Madrid; read as 03:30 it meets the real 03:30.
    const skipped = await send(owner, [
      ['2026-03-29 03:30', 1],
      ['2026-03-29 02:30', 2],
    ]);
    expect(skipped.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(skipped.body.msg).toContain('row 2: 2026-03-29 02:30 does not exist in Europe/Madrid');
    // The skipped time first: it is still the one named.
    const skippedFirst = await send(owner, [
      ['2026-03-29 02:30', 2],
      ['2026-03-29 03:30', 1],
    ]);
    expect(skippedFirst.body.msg).toContain('row 1: 2026-03-29 02:30 does not exist in Europe/Madrid');
    expect(skippedFirst.body.msg).toContain('row 2');
  });

  it('names the first bad row and writes nothing', async () => {
    await send(owner, [['2026-06-01 12:00', 42]]);
    const before = await stored();
    const cases: Array<[unknown[][], string]> = [
      [
        [
          ['Time', 'Power'],
          ['2026-06-01 10:00', 1],
          ['2026-06-01 10:05', 1],
          ['01/06/2026 10:10', 1],
        ],
        'row 4',
      ],
      [
        [
          ['2026-06-01 10:00', 1],
          ['2026-06-31 10:05', 1],
        ],
        'row 2',
      ],
      [
        [
          ['2026-06-01 10:00', 1],
          ['2026-06-01 24:00', 1],
        ],
        'row 2',
      ],
      [
        [
          ['2026-06-01 10:00', 1],
          ['2026-06-01 10:05', -1],
        ],
        'row 2',
      ],
      [
        [
          ['2026-06-01 10:00', 'abc'],
          ['2026-06-01 10:05', 1],
        ],
        'row 1',
      ],
      [
        [
          ['2026-06-01 10:00', 1],
          ['2026-06-01 10:05', null],
        ],
        'row 2',
      ],
      [
        [
          ['2026-06-01 10:00', 1],
          [null, 5],
        ],
        'row 2',
      ],
      [
        [
          ['2026-06-01 10:00', 1],
          ['2026-06-01 10:05', 2],
          ['2026-06-01 10:00', 3],
        ],
        'row 3',
      ],
      [[['2026-06-01 10:00', Number.NaN]], 'row 1'],
    ];
    for (const [rows, named] of cases) {
      const res = await send(owner, rows);
      expect(res.body, JSON.stringify(rows)).toMatchObject({ code: ErrorCode.validation, data: null });
      expect(res.body.msg, JSON.stringify(rows)).toContain(named);
      expect(await stored()).toEqual(before);
    }
    const es = await send(owner, [['2026-06-01 10:00', -5]], { lan: 'es' });
    expect(es.body.msg).toContain('fila 1');
  });

  it('refuses a legacy .xls (BIFF) with "save it as .xlsx", and an encrypted workbook', async () => {
    const cfb = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(4096)]);
    const res = await upload(s, owner, { plantId: String(madrid) }, { bytes: cfb, name: 'forecast.xlsx' });
    expect(res.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(res.body.msg).toContain('.xls');
    expect(res.body.msg).toContain('save it as .xlsx');
    const es = await upload(s, owner, { plantId: String(madrid) }, { bytes: cfb, name: 'forecast.xls' }, 'es');
    expect(es.body.msg).toContain('guárdelo como .xlsx');
    const encrypted = Buffer.concat([cfb, Buffer.from('EncryptedPackage', 'utf16le'), Buffer.alloc(64)]);
    const enc = await upload(s, owner, { plantId: String(madrid) }, { bytes: encrypted });
    expect(enc.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(enc.body.msg).toContain('password');
    expect(await stored()).toEqual([]);
  });

  it('judges by content: CSV named .xlsx, a ZIP that is no workbook and a ZIP bomb are refused', async () => {
    const csv = Buffer.from('2026-06-01 10:00,100\n');
    expect((await upload(s, owner, { plantId: String(madrid) }, { bytes: csv })).body).toMatchObject({
      code: ErrorCode.validation,
    });
    const plainZip = zip([{ name: 'hello.txt', data: Buffer.from('hi') }]);
    expect((await upload(s, owner, { plantId: String(madrid) }, { bytes: plainZip })).body).toMatchObject({
      code: ErrorCode.validation,
    });
    // A workbook-looking ZIP whose sheet inflates to 80 MB (from ~80 KB).
    const bomb = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(80 * 1024 * 1024, 0x20) },
    ]);
    expect(bomb.length).toBeLessThan(FORECAST_MAX_BYTES);
    const res = await upload(s, owner, { plantId: String(madrid) }, { bytes: bomb });
    expect(res.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(res.body.msg).toContain('unpacked');
    // An entry that claims to be small but inflates to more is refused too.
    const liar = zip(
      [
        { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
        { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
        { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(1024 * 1024, 0x20) },
      ],
      { declaredSize: 100 },
    );
    expect((await upload(s, owner, { plantId: String(madrid) }, { bytes: liar })).body).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses a file over FORECAST_MAX_BYTES', async () => {
    const big = Buffer.concat([await workbookBytes([['2026-06-01 10:00', 1]]), Buffer.alloc(FORECAST_MAX_BYTES)]);
    const res = await upload(s, owner, { plantId: String(madrid) }, { bytes: big });
    expect(res.body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(res.body.msg).toContain('5 MB');
    expect(await stored()).toEqual([]);
  });

  it(`refuses more than ${FORECAST_MAX_ROWS} rows, naming the first row past the limit`, () => {
    const start = Date.UTC(2026, 0, 1);
    const sheet: SheetRow[] = [[1, 'Time', 'Power (W)']];
    for (let i = 0; i <= FORECAST_MAX_ROWS; i++) sheet.push([i + 2, new Date(start + i * 300_000), 100]);
    expect(() => forecastRows(sheet, texts('en'))).toThrow(
      expect.objectContaining({ code: ErrorCode.validation, detail: expect.stringContaining(`row ${FORECAST_MAX_ROWS + 2}`) }),
    );
    expect(forecastRows(sheet.slice(0, -1), texts('en'))).toHaveLength(FORECAST_MAX_ROWS);
  });

  it(`imports a full year of 5-minute rows (${FORECAST_MAX_ROWS}) within the file limits`, async () => {
    const start = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: FORECAST_MAX_ROWS }, (_, i) => [new Date(start + i * 300_000), i % 7000]);
    const bytes = await workbookBytes([['Time', 'Power (W)'], ...rows]);
    expect(bytes.length).toBeLessThan(FORECAST_MAX_BYTES);
    const t0 = Date.now();
    const full = await upload(s, owner, { plantId: String(utc) }, { bytes });
    const ms = Date.now() - t0;
    expect(full.body).toMatchObject({ code: ErrorCode.ok });
    expect(full.body.data).toMatchObject({ rows: FORECAST_MAX_ROWS });
    expect((full.body.data as { days: string[] }).days).toHaveLength(366);
    const count = await s.db
      .selectFrom('plant_forecast')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('plant_id', '=', utc)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(FORECAST_MAX_ROWS);
    console.log(`forecast import of ${FORECAST_MAX_ROWS} rows (${bytes.length} bytes): ${ms} ms`);
  }, 120_000);

  it('needs edit rights on the plant: 700 for a plant not seen, 2 for a visitor and a read-only account', async () => {
    const rows = [['2026-06-01 10:00', 1]];
    expect((await send(stranger, rows)).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await send(owner, rows, { plantId: foreign })).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await send(owner, rows, { plantId: 987654 })).body).toMatchObject({ code: ErrorCode.plantMissing, data: null });
    expect((await send(owner, rows, { plantId: 9_999_999_999 })).body).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    expect((await send(visitor, rows)).body).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect((await send(readOnly, rows)).body).toMatchObject({ code: ErrorCode.noPermission, data: null });
    expect(await stored()).toEqual([]);
    expect(await stored(foreign)).toEqual([]);
  });

  it('needs plantId and file, in a multipart body', async () => {
    const json = await s.call(owner.token, 'POST', '/api/v1/predicted/import', { plantId: madrid });
    expect(json.body).toMatchObject({ code: ErrorCode.validation, data: null });
    const bytes = await workbookBytes([['2026-06-01 10:00', 1]]);
    expect((await upload(s, owner, {}, { bytes })).body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect((await upload(s, owner, { plantId: 'abc' }, { bytes })).body).toMatchObject({
      code: ErrorCode.validation,
      data: null,
    });
    expect((await upload(s, owner, { plantId: String(madrid) })).body).toMatchObject({ code: ErrorCode.validation, data: null });
    expect((await upload(s, owner, { plantId: String(madrid) }, { bytes, field: 'other' })).body).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await stored()).toEqual([]);
  });
});

/** A minimal ZIP (deflate), optionally lying about the uncompressed sizes. */
function zip(files: Array<{ name: string; data: Buffer }>, opts: { declaredSize?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name);
    const body = deflateRawSync(f.data);
    const size = opts.declaredSize ?? f.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(files.length, 8);
  eocd.writeUInt16LE(files.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}
