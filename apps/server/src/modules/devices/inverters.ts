/**
 * An inverter's detail page: information, realtime input and output, the PV operating points,
 * the day/month/year/total charts, the generation charts and the grid, meter, battery, eps and
 * load groups. Everything is read through `findDevice` (scope, kind: 600 otherwise).
 */
import { type devicesApi, ErrorCode, inverterTypeKey, inverterTypeName, type Language } from '@sunfleet/contracts';
import type { ProtocolPlan } from '@sunfleet/protocols';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { deviceDayRow } from '../../energy/day-rollups.ts';
import { samplesIn } from '../../energy/samples.ts';
import { fail } from '../../http/errors.ts';
import { iso, localDay } from '../../time/index.ts';
import { chartDay, dayCurves, dayEnergy, decodeRaw, energyBars, generation, integrate } from './charts.ts';
import { type DeviceRow, findDevice } from './device.ts';
import {
  enumLabel,
  faultsOf,
  fieldList,
  firstNum,
  kwhToWh,
  num,
  PV_TOTAL_KEYS,
  phaseKeys,
  phasesOf,
  planOf,
  pvInputs,
  pvInputsOf,
  pvInputsPresent,
  TEMPERATURE_KEYS,
  type Values,
} from './fields.ts';
import { counterWh, groups, groupsPresent } from './groups.ts';
import { chartParam, defaultParams } from './params.ts';

type Detail = Static<typeof devicesApi.InverterDetail>;
type TypeKey = Detail['typeKey'];
type GroupName = devicesApi.InverterGroupName;

export const inverter = (db: Db, caller: Caller, sn: string) => findDevice(db, caller, 'inverter', { sn });

/** The protocol's plan; a device of a protocol this server does not ship has no charts (601). */
function planFor(device: DeviceRow): ProtocolPlan {
  return planOf(device.protocolId) ?? fail(ErrorCode.inverterUnsupported);
}

const valuesOf = (device: DeviceRow): Values => device.latest?.values ?? {};
const positive = (n: number | null) => (n !== null && n > 0 ? n : null);
/** An offline inverter produces nothing, whatever its last reading said (as the plant lists). */
const powerNow = (device: DeviceRow) =>
  device.status === 'offline' ? (device.latest ? 0 : null) : num(valuesOf(device).activePower);

const todayRow = (db: Db, device: DeviceRow) => deviceDayRow(db, device.id, localDay(device.timezone), device.boundAt);

export async function inverterDetail(db: Db, caller: Caller, sn: string, lan: Language): Promise<Detail> {
  const device = await inverter(db, caller, sn);
  const plan = planOf(device.protocolId);
  const values = valuesOf(device);
  const day = await todayRow(db, device);
  const phases = phaseKeys(plan, ['grid', 'ac', '']).length;
  return {
    id: device.id,
    sn: device.sn,
    alias: device.alias,
    status: device.status,
    state: device.state,
    plant: device.plant && { id: device.plant.id, name: device.plant.name, timezone: device.plant.timezone },
    gateway: {
      id: device.gateway.id,
      sn: device.gateway.sn,
      alias: device.gateway.alias,
      status: device.gateway.online ? 'online' : 'offline',
    },
    protocol: { id: device.protocolId, name: plan?.definition.name[lan] ?? device.protocolId },
    deviceType: device.deviceType,
    typeKey: inverterTypeKey(device.deviceType) as TypeKey,
    ratedPower: device.ratedPowerW,
    // A count register of 0 is a device that does not fill it in: the protocol's inputs and phases then.
    mpptCount:
      positive(num(values.mpptCount)) ?? (plan ? pvInputsOf(plan).filter((i) => i.kind === 'mppt').length || null : null),
    phaseCount: positive(num(values.phaseCount)) ?? (phases || null),
    power: powerNow(device),
    todayEnergy: Number(day?.pv_wh ?? 0),
    totalEnergy: kwhToWh(firstNum(values, PV_TOTAL_KEYS)),
    temperature: firstNum(values, TEMPERATURE_KEYS),
    runningState: enumLabel(plan, 'runningState', values, lan),
    // The type register shows the portal's one name of the type.
    info: fieldList(plan, values, lan, (f) => f.group === 'info').map((f) =>
      f.key === 'deviceType' && num(f.value) !== null ? { ...f, text: inverterTypeName(num(f.value), lan) } : f,
    ),
    faults: faultsOf(plan, device.latest?.faults ?? [], lan),
    groups: groupsPresent(plan),
    canEdit: device.canEdit && caller.grants.has('inverter.alias'),
    canDelete: device.canEdit && caller.grants.has('inverter.delete'),
    canPower: device.canEdit && caller.grants.has('inverter.boot'),
    lastUpdate: iso(device.latest?.ts),
    createdAt: iso(device.createdAt)!,
  };
}

export async function inputRealtime(db: Db, caller: Caller, sn: string) {
  const device = await inverter(db, caller, sn);
  const inputs = pvInputs(planOf(device.protocolId), valuesOf(device));
  const powers = inputs.filter((i) => i.kind === 'mppt').flatMap((i) => (i.power === null ? [] : [i.power]));
  return {
    at: iso(device.latest?.ts),
    inputs,
    totalPower: powers.length > 0 ? powers.reduce((a, b) => a + b, 0) : null,
  };
}

export async function outputRealtime(db: Db, caller: Caller, sn: string) {
  const device = await inverter(db, caller, sn);
  const values = valuesOf(device);
  const activePower = num(values.activePower);
  return {
    at: iso(device.latest?.ts),
    phases: phasesOf(planOf(device.protocolId), values, ['grid', 'ac', ''], activePower),
    frequency: firstNum(values, ['gridFrequency', 'acFrequency', 'frequency']),
    activePower,
    reactivePower: firstNum(values, ['reactivePower', 'gridReactivePower']),
    powerFactor: num(values.powerFactor),
  };
}

const HOUR = 3_600_000;

/** The operating points of each PV input over the last hour (decoded from the stored registers). */
export async function pvIv(db: Db, caller: Caller, sn: string) {
  const device = await inverter(db, caller, sn);
  const plan = planOf(device.protocolId);
  const inputs = pvInputs(plan, valuesOf(device));
  const end = device.latest?.ts ?? Date.now();
  const rows =
    plan && inputs.length > 0
      ? // The hour up to the latest reading (ts > end − 1 h, ts ≤ end; times are whole milliseconds).
        await samplesIn(db, 'inverter_samples', device.id, Math.max(end - HOUR, device.boundAt - 1) + 1, end + 1, ['raw'], {
          ordered: true,
        })
      : [];
  const decoded = rows.map((r) => ({ time: iso(Number(r.ts))!, values: plan ? decodeRaw(plan, r.raw) : null }));
  return {
    at: iso(device.latest?.ts),
    inputs: inputs.map((input) => {
      const prefix = `${input.kind === 'mppt' ? 'pv' : 'string'}${input.index}`;
      return {
        ...input,
        points: decoded.flatMap(({ time, values }) => {
          const voltage = num(values?.[`${prefix}Voltage`]);
          const current = num(values?.[`${prefix}Current`]);
          return voltage === null || current === null ? [] : [{ time, voltage, current }];
        }),
      };
    }),
  };
}

/** Keys of the PV inputs' voltage, current and power fields the protocol has. */
function inputKeys(plan: ProtocolPlan, values: Values | null): string[] {
  return pvInputsPresent(plan, values).flatMap((i) =>
    ['Voltage', 'Current', 'Power'].map((q) => `${i.prefix}${q}`).filter((k) => chartParam(plan, 'inverter', k)),
  );
}
function outputKeys(plan: ProtocolPlan): string[] {
  const phases = phaseKeys(plan, ['grid', 'ac', '']).flatMap((p) => [p.voltage, p.current, p.power]);
  const rest = ['gridFrequency', 'acFrequency', 'frequency', 'activePower'];
  return [...phases, ...rest].filter((k): k is string => !!k && !!chartParam(plan, 'inverter', k));
}

export async function inputDay(db: Db, caller: Caller, sn: string, date: string | undefined, lan: Language) {
  const device = await inverter(db, caller, sn);
  const plan = planFor(device);
  return dayCurves(db, device, plan, inputKeys(plan, valuesOf(device)), chartDay(device, date), lan);
}

export async function outputDay(db: Db, caller: Caller, sn: string, date: string | undefined, lan: Language) {
  const device = await inverter(db, caller, sn);
  const plan = planFor(device);
  return dayCurves(db, device, plan, outputKeys(plan), chartDay(device, date), lan);
}

/** The day chart of up to 6 chosen parameters (default: the stored curves) with the day's energy. */
export async function inverterDay(
  db: Db,
  caller: Caller,
  sn: string,
  query: { date?: string; params?: string[] },
  lan: Language,
) {
  const device = await inverter(db, caller, sn);
  const plan = planFor(device);
  const day = chartDay(device, query.date);
  const keys = query.params && query.params.length > 0 ? [...new Set(query.params)] : defaultParams(plan, 'inverter');
  const [curves, energy] = await Promise.all([dayCurves(db, device, plan, keys, day, lan), dayEnergy(db, device, day)]);
  return { ...curves, energy };
}

export async function inverterBars(db: Db, caller: Caller, sn: string, period: 'month' | 'year' | 'total', date?: string) {
  const device = await inverter(db, caller, sn);
  return energyBars(db, device, period, date);
}

export async function inverterGeneration(
  db: Db,
  caller: Caller,
  sn: string,
  period: 'day' | 'month' | 'year' | 'total',
  date?: string,
) {
  const device = await inverter(db, caller, sn);
  return generation(db, device, period, date);
}

/** A micro-inverter's panels over a day: each PV input's power curve and its integrated energy. */
export async function microGeneration(db: Db, caller: Caller, sn: string, date: string | undefined, lan: Language) {
  const device = await inverter(db, caller, sn);
  const plan = planFor(device);
  if (inverterTypeKey(device.deviceType) !== 'micro') fail(ErrorCode.inverterUnsupported);
  const panels = pvInputsOf(plan).filter((i) => i.kind === 'mppt' && chartParam(plan, 'inverter', `${i.prefix}Power`));
  const curves = await dayCurves(
    db,
    device,
    plan,
    panels.map((p) => `${p.prefix}Power`),
    chartDay(device, date),
    lan,
  );
  const times = curves.times.map((t) => Date.parse(t));
  return {
    ...curves,
    panels: panels.map((p, i) => {
      const values = curves.series[i]!.values;
      const peak = values.reduce<number | null>((m, v) => (v !== null && (m === null || v > m) ? v : m), null);
      return { index: p.index, name: `PV${p.index}`, energy: integrate(times, values), peakPower: peak };
    }),
  };
}

// ——— groups ———

function groupOf(device: DeviceRow, group: GroupName): { plan: ProtocolPlan; spec: (typeof groups)[GroupName] } {
  const plan = planFor(device);
  const spec = groups[group];
  if (!spec.present(plan)) fail(ErrorCode.inverterUnsupported);
  return { plan, spec };
}

export async function groupRealtime(db: Db, caller: Caller, group: GroupName, sn: string, lan: Language) {
  const device = await inverter(db, caller, sn);
  const { plan, spec } = groupOf(device, group);
  const values = valuesOf(device);
  const day = await todayRow(db, device);
  return {
    group,
    at: iso(device.latest?.ts),
    power: spec.power(values),
    soc: group === 'battery' ? num(values.batterySoc) : null,
    phases: spec.phasePrefixes.length > 0 ? phasesOf(plan, values, spec.phasePrefixes) : [],
    energy: spec.energy.map((e) => ({
      key: e.key,
      today: Number((day as Record<string, unknown> | undefined)?.[e.column] ?? 0),
      total: counterWh(values, e.counters),
    })),
    fields: fieldList(plan, values, lan, spec.fields),
  };
}

export async function groupDay(db: Db, caller: Caller, group: GroupName, sn: string, date: string | undefined, lan: Language) {
  const device = await inverter(db, caller, sn);
  const { plan, spec } = groupOf(device, group);
  const day = chartDay(device, date);
  const keys = spec.dayParams.filter((k) => chartParam(plan, 'inverter', k));
  const [curves, energy] = await Promise.all([dayCurves(db, device, plan, keys, day, lan), dayEnergy(db, device, day)]);
  return { ...curves, energy };
}

export async function groupBars(
  db: Db,
  caller: Caller,
  group: GroupName,
  sn: string,
  period: 'month' | 'year' | 'total',
  date?: string,
) {
  const device = await inverter(db, caller, sn);
  groupOf(device, group);
  return energyBars(db, device, period, date);
}
