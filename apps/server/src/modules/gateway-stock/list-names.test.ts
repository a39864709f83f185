/**
 * The operators' gateway list and its .xlsx say the same as the rest of the portal: a gateway
 * without a protocol of its own shows its devices' protocols, its customer is the company's name
 * (the plant's company for a gateway bound to a customer's plant), and the connection is its
 * name in the language asked ("Wi-Fi", not `wifi`).
 */
import { commTypeName, ErrorCode, gatewayProtocols } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { addDevice } from '../../../test/kits/events.ts';
import { type Account, account, company, storePlant, uniqueName, uniqueSn } from '../../../test/kits/plants.ts';
import { provisionGateway } from '../../telemetry/gateways.ts';

let s: TestServer;
let admin: Account;
let customerName: string;
let gatewaySn: string;

type Item = {
  sn: string;
  company: { id: number; name: string } | null;
  protocol: string | null;
  protocols: string[];
  commType: string | null;
};

beforeAll(async () => {
  s = await startServer();
  admin = await account(s, { kind: 'sysadmin' });
  customerName = uniqueName('Solar Customer');
  const customer = await company(s, customerName);
  const plantId = await storePlant(s, { owner_user_id: (await account(s)).id, company_id: customer });
  gatewaySn = uniqueSn('GN');
  const gw = await provisionGateway(s.db, { sn: gatewaySn, plantId });
  await s.db.updateTable('gateways').set({ comm_type: 'wifi' }).where('id', '=', gw.id).execute();
  await addDevice(s, gw.id, plantId, 'inverter', 'sunfleet-hybrid-1p');
  await addDevice(s, gw.id, plantId, 'meter', 'sunfleet-meter-3p');
});
afterAll(() => s.close());

async function listed(): Promise<Item> {
  const res = await s.call(admin.token, 'GET', `/api/v1/gateways?keyword=${gatewaySn}`);
  expect(res.body.code).toBe(ErrorCode.ok);
  return (res.body.data as { list: Item[] }).list.find((g) => g.sn === gatewaySn)!;
}

async function sheetRow(lan: 'en' | 'es') {
  const res = await s.app.inject({
    method: 'GET',
    url: `/api/v1/gateways/downLoad?keyword=${gatewaySn}&lan=${lan}`,
    headers: { authorization: `Bearer ${admin.token}` },
  });
  expect(res.statusCode).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const header = rows[0]!;
  const row = rows.find((r) => r[0] === gatewaySn)!;
  return (column: number) => ({ header: header[column], value: row[column] });
}

describe('the gateway list and its .xlsx', () => {
  it('the list answer names the customer and the protocols behind the gateway', async () => {
    const g = await listed();
    expect(g.company?.name).toBe(customerName);
    expect(g.protocol).toBeNull();
    expect(g.protocols).toEqual(['sunfleet-hybrid-1p', 'sunfleet-meter-3p']);
    expect(gatewayProtocols(g)).toBe('sunfleet-hybrid-1p, sunfleet-meter-3p');
  });

  it('the .xlsx cells say what the list says: customer name, protocols, connection name', async () => {
    const g = await listed();
    for (const lan of ['en', 'es'] as const) {
      const cell = await sheetRow(lan);
      expect(cell(2).value).toBe(customerName);
      expect(cell(3).value).toBe(gatewayProtocols(g));
      expect(cell(8)).toEqual({ header: lan === 'en' ? 'Communication' : 'Comunicación', value: commTypeName('wifi', lan) });
      expect(cell(8).value).toBe('Wi-Fi');
    }
  });
});
