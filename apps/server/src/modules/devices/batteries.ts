/**
 * A battery system's pages: information, realtime with every pack (the master's own pack and
 * its slaves, `pack<n>.*` fields of the master's protocol) for the cell heat map, and the day
 * curves. A battery the caller cannot see answers 404.
 */
import { type devicesApi, ErrorCode, type Language } from '@sunfleet/contracts';
import type { ProtocolPlan } from '@sunfleet/protocols';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import { chartDay, dayCurves } from './charts.ts';
import { type DeviceRow, findDevice } from './device.ts';
import { enumLabel, faultsOf, fieldList, num, packIndexes, planOf, type Values } from './fields.ts';
import { chartParam } from './params.ts';

type Pack = Static<typeof devicesApi.BatteryPack>;

const valuesOf = (device: DeviceRow): Values => device.latest?.values ?? {};

function packs(plan: ProtocolPlan | undefined, values: Values, faults: readonly string[], lan: Language): Pack[] {
  return packIndexes(plan, values).map((n) => {
    const v = (k: string) => num(values[`pack${n}.${k}`]);
    const sn = values[`pack${n}.serialNumber`];
    const cycles = v('cycleCount');
    return {
      index: n,
      master: n === 1,
      sn: typeof sn === 'string' && sn.trim() ? sn.trim() : null,
      soc: v('soc'),
      soh: v('soh'),
      voltage: v('voltage'),
      current: v('current'),
      cellVoltageMin: v('cellVoltageMin'),
      cellVoltageMax: v('cellVoltageMax'),
      cellTemperatureMin: v('cellTemperatureMin'),
      cellTemperatureMax: v('cellTemperatureMax'),
      cycleCount: cycles === null ? null : Math.round(cycles),
      faults: faultsOf(
        plan,
        faults.filter((c) => c.startsWith(`pack${n}.`)),
        lan,
      ),
    };
  });
}

/** Per-cell values where the protocol has them: `pack<n>.cell<m>Voltage` / `…Temperature`. */
function cells(plan: ProtocolPlan | undefined, values: Values) {
  if (!plan) return [];
  const byCell = new Map<string, { pack: number; cell: number; voltage: number | null; temperature: number | null }>();
  for (const f of plan.definition.fields) {
    const m = /^pack(\d+)\.cell(\d+)(Voltage|Temperature)$/.exec(f.key);
    if (!m) continue;
    const id = `${m[1]}.${m[2]}`;
    const cell = byCell.get(id) ?? { pack: Number(m[1]), cell: Number(m[2]), voltage: null, temperature: null };
    if (m[3] === 'Voltage') cell.voltage = num(values[f.key]);
    else cell.temperature = num(values[f.key]);
    byCell.set(id, cell);
  }
  const present = new Set(packIndexes(plan, values));
  return [...byCell.values()].filter((c) => present.has(c.pack)).sort((a, b) => a.pack - b.pack || a.cell - b.cell);
}

const battery = (db: Db, caller: Caller, by: { sn: string } | { id: number }) => findDevice(db, caller, 'battery', by);

export async function batteryInfo(db: Db, caller: Caller, sn: string, lan: Language) {
  const device = await battery(db, caller, { sn });
  const plan = planOf(device.protocolId);
  const values = valuesOf(device);
  return {
    id: device.id,
    sn: device.sn,
    alias: device.alias,
    status: device.status,
    state: device.state,
    plant: device.plant && { id: device.plant.id, name: device.plant.name, timezone: device.plant.timezone },
    gateway: { id: device.gateway.id, sn: device.gateway.sn, alias: device.gateway.alias },
    protocol: { id: device.protocolId, name: plan?.definition.name[lan] ?? device.protocolId },
    packs: Math.max(1, packIndexes(plan, values).length),
    cellsPerPack: num(values.cellsPerPack),
    fullCapacity: num(values.fullCapacity),
    info: fieldList(plan, values, lan, (f) => f.group === 'info' && !f.key.startsWith('pack')),
    canDelete: device.canEdit && caller.grants.has('battery.delete'),
    lastUpdate: iso(device.latest?.ts),
    createdAt: iso(device.createdAt)!,
  };
}

const SYSTEM_KEYS = new Set(['soc', 'soh', 'voltage', 'current', 'power', 'bmsState', 'remainingCapacity', 'fullCapacity']);

export async function batteryRealtime(db: Db, caller: Caller, sn: string, lan: Language) {
  const device = await battery(db, caller, { sn });
  const plan = planOf(device.protocolId);
  const values = valuesOf(device);
  const faults = device.latest?.faults ?? [];
  const packList = packs(plan, values, faults, lan);
  const hottest = packList.reduce<number | null>(
    (m, p) => (p.cellTemperatureMax !== null && (m === null || p.cellTemperatureMax > m) ? p.cellTemperatureMax : m),
    null,
  );
  return {
    at: iso(device.latest?.ts),
    soc: num(values.soc),
    soh: num(values.soh),
    voltage: num(values.voltage),
    current: num(values.current),
    power: num(values.power),
    state: enumLabel(plan, 'bmsState', values, lan),
    remainingCapacity: num(values.remainingCapacity),
    fullCapacity: num(values.fullCapacity),
    temperatureMax: hottest,
    packs: packList,
    cells: cells(plan, values),
    faults: faultsOf(
      plan,
      faults.filter((c) => !/^pack\d+\./.test(c)),
      lan,
    ),
    fields: fieldList(plan, values, lan, (f) => f.group === 'realtime' && !f.key.startsWith('pack') && !SYSTEM_KEYS.has(f.key)),
  };
}

/** The slave packs of a master battery (pack 2 onwards). */
export async function batterySlaves(db: Db, caller: Caller, id: number, lan: Language) {
  const device = await battery(db, caller, { id });
  const plan = planOf(device.protocolId);
  return packs(plan, valuesOf(device), device.latest?.faults ?? [], lan).filter((p) => !p.master);
}

const BATTERY_DAY = ['power', 'soc', 'soh', 'voltage', 'current', 'cellTemperatureMax'];

export async function batteryDay(db: Db, caller: Caller, sn: string, date: string | undefined, lan: Language) {
  const device = await battery(db, caller, { sn });
  const plan = planOf(device.protocolId) ?? fail(ErrorCode.notFound);
  const keys = BATTERY_DAY.filter((k) => chartParam(plan, 'battery', k));
  return dayCurves(db, device, plan, keys, chartDay(device, date), lan);
}
