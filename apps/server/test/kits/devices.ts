/**
 * Fixtures for the device tests: a server with ingest in the same process (as `npm start`),
 * tenants, and a fleet fed through real gateway frames (values → protocol encoder → register
 * hex → ingest). Plant-local times are computed here independently of the code under test.
 *
 * The world:
 * - owner O (agent: company C) with plant A (zone where it is about midday now) and gateway GA:
 *   hybrid inverter INV1, string inverter INV2 (fault), micro-inverter MIC, battery BAT (two
 *   slave packs), meter MET, weather station WEA;
 * - owner P (another tenant) with plant B, gateway GB and inverter INVB;
 * - gateway GU imported for company C and bound to no plant, with inverter INVU;
 * - accounts: O, P, C's administrator, a visitor of A, a system administrator.
 */
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import type { InputValue } from '@sunfleet/protocols';
import { expect } from 'vitest';
import { provisionGateway } from '../../src/telemetry/gateways.ts';
import { type IngestServer, ingestServer } from '../ingest.ts';
import { BATTERY, type DeviceFrameSpec, dataMessage, HYBRID, METER, STRING, uniqueSn, WEATHER } from '../telemetry.ts';
import { middayZone } from './plant-energy.ts';
import { type Account, account, company, createPlant, gateway } from './plants.ts';

export const MICRO = 'sunfleet-micro';
export const MIN = 60_000;

export interface Fleet extends IngestServer {
  send(gatewaySn: string, ts: number, devices: DeviceFrameSpec[]): Promise<void>;
}

export async function fleetServer(): Promise<Fleet> {
  const server = await ingestServer();
  const { ingest } = server;
  return {
    ...server,
    async send(gatewaySn, ts, devices) {
      ingest.message(gatewaySn, 'data', dataMessage(ts, devices), Math.max(ts, Date.now()));
      await ingest.flush();
    },
  };
}

// ——— time, computed without the code under test ———

/** The local date (YYYY-MM-DD) of `ts` in `timeZone`. */
export const dayIn = (timeZone: string, ts: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ts);

function wallClock(timeZone: string, ts: number): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return f.format(ts).replace(', ', 'T');
}

/** The instant when the wall clock in `timeZone` reads `day` `HH:mm` (searched over every quarter-hour offset). */
export function instantAt(timeZone: string, day: string, hhmm: string): number {
  const wall = Date.parse(`${day}T${hhmm}:00Z`);
  for (let q = -14 * 4; q <= 14 * 4; q++) {
    const t = wall - q * 15 * MIN;
    if (wallClock(timeZone, t) === `${day}T${hhmm}`) return t;
  }
  throw new Error(`no instant for ${day} ${hhmm} in ${timeZone}`);
}

// ——— the world ———

/** The day whose curves the tests chart (a past day: a full series of samples is sent for it). */
export const CHART_DAY = '2025-06-10';
/** Samples of the chart day: 13 at 5-minute steps from 10:00 to 11:00 local. */
export const CHART_STEPS = 13;

export const hybridAt = (i: number): Record<string, InputValue> => ({
  pv1Voltage: 300 + i,
  pv1Current: 5 + i / 10,
  pv1Power: 1500 + 10 * i,
  pv2Voltage: 280,
  pv2Current: 4,
  pv2Power: 1120,
  gridVoltageL1: 230 + i / 10,
  gridVoltageL2: 231,
  gridVoltageL3: 232,
  gridFrequency: 50,
  activePower: 2000 + 10 * i,
  batteryVoltage: 51.2,
  batteryCurrent: -20,
  batteryPower: -1000,
  batterySoc: 50 + i,
  // 0.1 kWh per step (the counter's resolution): 500.0 at 10:00 … 501.2 at 11:00
  pvEnergyTotal: 500 + i / 10,
});

export const microAt = (i: number): Record<string, InputValue> => ({
  deviceType: 3,
  ratedPower: 800,
  runningState: 2,
  pv1Power: 100 * (i + 1),
  pv2Power: 50,
  pv3Power: 0,
  pv4Power: 0,
  pv1Voltage: 40,
  pv1Current: 2.5,
  activePower: 100 * (i + 1) + 50,
  acVoltage: 230,
  acCurrent: 1,
  gridFrequency: 50,
  energyTotal: 100,
});

export interface World extends Fleet {
  zone: string;
  O: Account;
  P: Account;
  admin: Account;
  visitor: Account;
  sysadmin: Account;
  companyId: number;
  plantA: number;
  plantB: number;
  GA: { id: number; sn: string };
  GB: { id: number; sn: string };
  GU: { id: number; sn: string };
  sn: { INV1: string; INV2: string; MIC: string; BAT: string; MET: string; WEA: string; INVB: string; INVU: string };
  /** When the "now" frames were read (two of them, 5 minutes apart; the later one is the latest). */
  now: number;
}

export async function world(): Promise<World> {
  const fleet = await fleetServer();
  const { s } = fleet;
  const zone = middayZone();
  const companyId = await company(s, undefined, companyGrantable);
  const O = await account(s, { agentCompanyId: companyId });
  const P = await account(s);
  const admin = await account(s, { kind: 'company_admin', companyId });
  const visitor = await account(s);
  const sysadmin = await account(s, { kind: 'sysadmin' });
  const plantA = await createPlant(s, O, { timezone: zone });
  const plantB = await createPlant(s, P, { timezone: 'Europe/Madrid' });
  const share = await s.call(O.token, 'POST', `/api/v1/plant/${plantA}/share`, { account: visitor.account, role: 'visitor' });
  if (share.body.code !== ErrorCode.ok) throw new Error(`share: ${JSON.stringify(share.body)}`);
  const GA = await gateway(s, plantA);
  const GB = await gateway(s, plantB);
  const gu = await provisionGateway(s.db, { sn: uniqueSn('GWU'), companyId });
  const GU = { id: gu.id, sn: gu.sn };
  const sn = {
    INV1: uniqueSn('INV'),
    INV2: uniqueSn('STR'),
    MIC: uniqueSn('MIC'),
    BAT: uniqueSn('BAT'),
    MET: uniqueSn('MET'),
    WEA: uniqueSn('WEA'),
    INVB: uniqueSn('INVB'),
    INVU: uniqueSn('INVU'),
  };

  // The chart day: 13 samples of INV1 and MIC.
  for (let i = 0; i < CHART_STEPS; i++) {
    const hhmm = `${String(10 + Math.floor((i * 5) / 60)).padStart(2, '0')}:${String((i * 5) % 60).padStart(2, '0')}`;
    await fleet.send(GA.sn, instantAt(zone, CHART_DAY, hhmm), [
      { sn: sn.INV1, protocol: HYBRID, values: hybridAt(i) },
      { sn: sn.MIC, protocol: MICRO, values: microAt(i) },
    ]);
  }

  // Now: two frames 5 minutes apart (today's energy is the difference of the counters).
  const now = Date.now() - 2 * MIN;
  const frames = (later: boolean): DeviceFrameSpec[] => [
    {
      sn: sn.INV1,
      protocol: HYBRID,
      values: {
        ...hybridAt(0),
        deviceType: 93,
        ratedPower: 10_000,
        activePower: 3400,
        pv1Power: 2000,
        pv2Power: 1500,
        gridActivePower: 500,
        gridCurrentL1: 4.5,
        loadPower: 2900,
        batteryPower: -1500,
        batterySoc: 60,
        pvEnergyTotal: later ? 1002.5 : 1000,
        gridImportEnergyTotal: later ? 300.4 : 300,
        gridExportEnergyTotal: later ? 400.3 : 400,
        batteryChargeEnergyTotal: later ? 200.2 : 200,
        batteryDischargeEnergyTotal: 150,
        loadEnergyTotal: later ? 801 : 800,
      },
    },
    {
      sn: sn.INV2,
      protocol: STRING,
      values: { activePower: 4900, pv1Power: 5000, energyTotal: later ? 5001.5 : 5000 },
      faults: ['pvOvervoltage'],
    },
    { sn: sn.MIC, protocol: MICRO, values: { ...microAt(0), activePower: 250, energyTotal: later ? 100.4 : 100 } },
    {
      sn: sn.BAT,
      protocol: BATTERY,
      values: {
        slavePackCount: 2,
        soc: 77,
        soh: 97,
        voltage: 51.5,
        current: -12.5,
        power: -640,
        bmsState: 1,
        fullCapacity: 200,
        remainingCapacity: 154,
        cellsPerPack: 16,
        'pack1.soc': 78,
        'pack1.cellVoltageMin': 3.201,
        'pack1.cellVoltageMax': 3.25,
        'pack1.cellTemperatureMin': 21,
        'pack1.cellTemperatureMax': 26,
        'pack2.soc': 76,
        'pack2.serialNumber': 'PACK2SN',
        'pack2.cellVoltageMin': 3.19,
        'pack2.cellVoltageMax': 3.26,
        'pack2.cellTemperatureMin': 22,
        'pack2.cellTemperatureMax': 31.5,
        'pack2.cycleCount': 120,
        'pack3.soc': 75,
        'pack3.cellTemperatureMax': 28,
      },
      faults: ['pack2.cellImbalance'],
    },
    {
      sn: sn.MET,
      protocol: METER,
      values: {
        voltageL1: 230.5,
        voltageL2: 231,
        voltageL3: 229.5,
        currentL1: 10,
        currentL2: 11,
        currentL3: 12,
        activePowerL1: -100,
        activePowerL2: -200,
        activePowerL3: -200,
        activePower: -500,
        frequency: 50.02,
        importEnergy: later ? 300.25 : 300,
        exportEnergy: later ? 400.5 : 400,
      },
    },
    {
      sn: sn.WEA,
      protocol: WEATHER,
      values: {
        irradiance: 640,
        ambientTemperature: 21.5,
        moduleTemperature: 38,
        windSpeed: 3.2,
        humidity: 40,
        dailyIrradiation: 2.5,
      },
    },
  ];
  await fleet.send(GA.sn, now - 5 * MIN, frames(false));
  await fleet.send(GA.sn, now, frames(true));
  await fleet.send(GB.sn, now, [{ sn: sn.INVB, protocol: HYBRID, values: { activePower: 1111 } }]);
  await fleet.send(GU.sn, now, [{ sn: sn.INVU, protocol: STRING, values: { deviceType: 2, activePower: 700 } }]);

  return { ...fleet, zone, O, P, admin, visitor, sysadmin, companyId, plantA, plantB, GA, GB, GU, sn, now };
}

export type Caller = Pick<Account, 'token'>;
export const getAs = async (w: Fleet, who: Caller, url: string) => (await w.s.call(who.token, 'GET', url)).body;
/** The data `url` answers `who` with; any other answer than code 0 fails the test, naming the URL. */
export async function dataAs<T = Record<string, unknown>>(w: Fleet, who: Caller, url: string): Promise<T> {
  const body = await getAs(w, who, url);
  expect(body.code, `${url}: ${body.msg}`).toBe(ErrorCode.ok);
  return body.data as T;
}
export const postAs = async (w: Fleet, who: Caller, url: string, payload: unknown = {}) =>
  (await w.s.call(who.token, 'POST', url, payload)).body;
