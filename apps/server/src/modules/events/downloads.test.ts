import { ErrorCode } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addEvent, DAY, type Site, site, url } from '../../../test/kits/events.ts';
import { account, company } from '../../../test/kits/plants.ts';
import { XLSX_TYPE } from './xlsx.ts';

let s: TestServer;
let a: Site;
let b: Site;
const now = Date.now();
// Whole minutes, so the expected local times are plain to write down.
const T = Math.floor(now / 60_000) * 60_000 - 2 * DAY;

beforeAll(async () => {
  s = await startServer();
  a = await site(s, { timezone: 'Europe/Madrid' });
  b = await site(s);
  await addEvent(s, {
    plantId: a.plantId,
    sn: a.inverter.sn,
    deviceId: a.inverter.id,
    gatewayId: a.gatewayId,
    code: 'gridOvervoltage',
    startedAt: T,
    endedAt: T + 90_000,
  });
  await addEvent(s, {
    plantId: a.plantId,
    sn: a.battery.sn,
    deviceId: a.battery.id,
    gatewayId: a.gatewayId,
    code: 'pack2.shortCircuit',
    startedAt: T - DAY,
    en: 'Short circuit',
    es: 'Cortocircuito',
  });
  // Outside the default 90 days.
  await addEvent(s, {
    plantId: a.plantId,
    sn: a.inverter.sn,
    deviceId: a.inverter.id,
    code: 'islanding',
    startedAt: now - 120 * DAY,
    endedAt: now - 119 * DAY,
  });
  await addEvent(s, { plantId: b.plantId, sn: b.inverter.sn, deviceId: b.inverter.id, startedAt: T });
});
afterAll(() => s.close());

async function download(token: string, path: string, query: Record<string, string | number | undefined> = {}) {
  const res = await s.app.inject({ method: 'GET', url: url(path, query), headers: { authorization: `Bearer ${token}` } });
  return res;
}
async function sheetRows(payload: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: ws.name, rows };
}
const madrid = (t: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Madrid', dateStyle: 'short', timeStyle: 'medium' }).format(t);

describe('event downloads', () => {
  it('inverter/events/download: the inverter events of the last 90 days as .xlsx, times in the given zone', async () => {
    const res = await download(a.owner.token, '/api/v1/inverter/events/download', { timezone: 'Europe/Madrid' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="events-inverter-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const { name, rows } = await sheetRows(res.rawPayload);
    expect(name).toBe('Events');
    expect(rows[0]).toEqual([
      'Plant',
      'SN',
      'Device',
      'Alias',
      'Code',
      'Level',
      'Event',
      'Suggested action',
      'Start (Europe/Madrid)',
      'End (Europe/Madrid)',
      'State',
      'Acknowledged',
      'Acknowledged by',
      'Note',
    ]);
    expect(rows).toHaveLength(2);
    const [plant, sn, kind, alias, code, level, text, action, start, end, state] = rows[1]!;
    expect([sn, kind, alias, code, level, text, state]).toEqual([
      a.inverter.sn,
      'Inverter',
      'inverter alias',
      'gridOvervoltage',
      'Fault',
      'Grid overvoltage',
      'Closed',
    ]);
    expect(typeof plant).toBe('string');
    expect(action).toMatch(/Grid voltage is above the limit/);
    expect(start).toBe(madrid(T));
    expect(end).toBe(madrid(T + 90_000));
  });

  it('battery/events/download: battery events in Spanish', async () => {
    const res = await download(a.owner.token, '/api/v1/battery/events/download', { lan: 'es' });
    expect(res.statusCode).toBe(200);
    const { name, rows } = await sheetRows(res.rawPayload);
    expect(name).toBe('Eventos');
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(1, 7)).toEqual([
      a.battery.sn,
      'Batería',
      'battery alias',
      'pack2.shortCircuit',
      'Fallo',
      'Cortocircuito',
    ]);
    expect(rows[1]![7]).toMatch(/Apague la batería/);
    expect(rows[1]![10]).toBe('Abierto');
  });

  it('events/download: every kind, with a date range; the range limit and foreign filters answer as the list does', async () => {
    const from = new Date(now - 150 * DAY).toISOString().slice(0, 10);
    const to = new Date(now - 70 * DAY).toISOString().slice(0, 10);
    const old = await download(a.owner.token, '/api/v1/events/download', { startDate: from, endDate: to });
    const { rows } = await sheetRows(old.rawPayload);
    expect(rows.slice(1).map((r) => r[4])).toEqual(['islanding']);

    const tooLong = await download(a.owner.token, '/api/v1/events/download', { startDate: '2025-01-01', endDate: '2025-04-01' });
    expect(tooLong.headers['content-type']).toMatch(/application\/json/);
    expect(tooLong.json()).toMatchObject({ code: ErrorCode.validation, data: null });
    expect(tooLong.json().msg).toMatch(/90 days/);
    expect((await download(a.owner.token, '/api/v1/events/download', { plantId: b.plantId })).json()).toMatchObject({
      code: ErrorCode.plantMissing,
      data: null,
    });
    expect((await download(a.owner.token, '/api/v1/battery/events/download', { sn: b.battery.sn })).json()).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
  });

  it('shows nothing of other tenants', async () => {
    const res = await download(b.owner.token, '/api/v1/events/download');
    const { rows } = await sheetRows(res.rawPayload);
    expect(rows.slice(1).map((r) => r[1])).toEqual([b.inverter.sn]);
  });

  it('needs the export permission', async () => {
    const companyId = await company(s, undefined, ['equip.view', 'event.view', 'inverter.view']);
    const viewer = await account(s, { kind: 'company_admin', companyId });
    expect((await download(viewer.token, '/api/v1/inverter/events/download')).json()).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect((await download(viewer.token, '/api/v1/events/download')).json()).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    expect((await download(viewer.token, '/api/v1/events')).json()).toMatchObject({ code: ErrorCode.ok });
  });
});
