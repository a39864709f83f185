/** Fixtures for the report tests: plants with day rows, shares, downloads read back with exceljs, uploads. */
import ExcelJS from 'exceljs';
import { now } from '../../src/db/index.ts';
import type { TestServer } from '../harness.ts';
import type { Account } from './plants.ts';
import { uniqueName } from './plants.ts';

export async function plant(
  s: TestServer,
  values: {
    owner: number;
    name?: string;
    timezone?: string;
    capacity?: number;
    currency?: string | null;
    price?: number | null;
    valuation?: 'constant' | 'generation' | 'tou';
  },
) {
  const t = now();
  return (
    await s.db
      .insertInto('plants')
      .values({
        name: values.name ?? uniqueName(),
        owner_user_id: values.owner,
        company_id: null,
        timezone: values.timezone ?? 'UTC',
        capacity: values.capacity ?? 10,
        currency: values.currency === undefined ? 'EUR' : values.currency,
        price: values.price ?? null,
        valuation_method: values.valuation ?? 'constant',
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

export interface DayRow {
  day: string;
  pv: number;
  load: number;
  gridImport: number;
  gridExport: number;
  charge: number;
  discharge: number;
  peak: number | null;
}

export async function insertDays(s: TestServer, plantId: number, days: DayRow[]) {
  if (days.length === 0) return;
  for (let i = 0; i < days.length; i += 500) {
    await s.db
      .insertInto('plant_day')
      .values(
        days.slice(i, i + 500).map((d) => ({
          plant_id: plantId,
          day: d.day,
          pv_wh: d.pv,
          load_wh: d.load,
          grid_import_wh: d.gridImport,
          grid_export_wh: d.gridExport,
          charge_wh: d.charge,
          discharge_wh: d.discharge,
          peak_power_w: d.peak,
          updated_at: now(),
        })),
      )
      .execute();
  }
}

/** A day row with made-up values (Wh, with fractions). */
export function randomDay(day: string, rnd: () => number = Math.random): DayRow {
  const r = (max: number) => Math.round(rnd() * max * 1000) / 1000;
  return {
    day,
    pv: r(60_000),
    load: r(40_000),
    gridImport: r(20_000),
    gridExport: r(30_000),
    charge: r(10_000),
    discharge: r(9_000),
    peak: r(12_000),
  };
}

/** A seeded generator, so a failing test can be rerun with the same numbers. */
export function seeded(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

export async function share(s: TestServer, plantId: number, userId: number, role: 'manager' | 'visitor') {
  await s.db.insertInto('plant_shares').values({ plant_id: plantId, user_id: userId, role, created_at: now() }).execute();
}

/** GET a download: the workbook when the answer is a file, else the JSON envelope. */
export async function download(s: TestServer, who: Account | null, url: string, headers: Record<string, string> = {}) {
  const res = await s.app.inject({
    method: 'GET',
    url,
    headers: { ...(who ? { authorization: `Bearer ${who.token}` } : {}), ...headers },
  });
  const type = String(res.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.json() as { code: number; msg: string; data: unknown },
      wb: null,
    };
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
  return { status: res.statusCode, headers: res.headers, body: null, wb };
}

/** Values of a sheet's rows from `from` on, as arrays indexed from 0 (column A). */
export function sheetRows(ws: ExcelJS.Worksheet, from = 1): unknown[][] {
  const out: unknown[][] = [];
  for (let r = from; r <= ws.rowCount; r++) {
    const values = ws.getRow(r).values as unknown[];
    out.push(Array.isArray(values) ? values.slice(1) : []);
  }
  return out;
}

/** A multipart body with text fields and one file. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { bytes: Buffer; name?: string; field?: string; first?: boolean },
) {
  const boundary = '----sunfleet-report-test';
  const parts: Buffer[] = [];
  const addFields = () => {
    for (const [k, v] of Object.entries(fields)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    }
  };
  if (!file?.first) addFields();
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name ?? 'forecast.xlsx'}"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  if (file?.first) addFields();
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POST predicted/import. */
export async function upload(
  s: TestServer,
  who: Account,
  fields: Record<string, string>,
  file?: { bytes: Buffer; name?: string; field?: string; first?: boolean },
  lan?: string,
) {
  const body = multipartBody(fields, file);
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/v1/predicted/import${lan ? `?lan=${lan}` : ''}`,
    headers: { authorization: `Bearer ${who.token}`, ...body.headers },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: unknown } };
}

/** An .xlsx whose first sheet holds `rows` (cells as given: Date, string, number, null). */
export async function workbookBytes(rows: unknown[][], extraSheetFirst = false): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (extraSheetFirst) wb.addWorksheet('Notes').addRow(['not the forecast']);
  const ws = wb.addWorksheet('Forecast');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Calendar day arithmetic on YYYY-MM-DD. */
export const plusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Today in a zone, YYYY-MM-DD (independent of the code under test). */
export const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
