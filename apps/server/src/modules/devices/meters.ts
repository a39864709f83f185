/**
 * A meter's pages: realtime per phase with today's and lifetime import and export, the day
 * curve and the import/export bars. Meter power is + import / − export (as the protocol). A
 * meter the caller cannot see answers 404.
 */
import { ErrorCode, type Language } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { deviceDayRow } from '../../energy/day-rollups.ts';
import { fail } from '../../http/errors.ts';
import { iso, localDay } from '../../time/index.ts';
import { chartDay, dayCurves, dayEnergy, energyBars } from './charts.ts';
import { findDevice } from './device.ts';
import { faultsOf, fieldList, firstNum, kwhToWh, num, phasesOf, planOf, type Values } from './fields.ts';
import { chartParam } from './params.ts';

const meter = (db: Db, caller: Caller, sn: string) => findDevice(db, caller, 'meter', { sn });

const PHASE_KEYS = /^(voltage|current|activePower)L\d$/;
const SUMMARY_KEYS = new Set([
  'activePower',
  'reactivePower',
  'apparentPower',
  'powerFactor',
  'frequency',
  'importEnergy',
  'exportEnergy',
]);

export async function meterRealtime(db: Db, caller: Caller, sn: string, lan: Language) {
  const device = await meter(db, caller, sn);
  const plan = planOf(device.protocolId);
  const values: Values = device.latest?.values ?? {};
  const day = await deviceDayRow(db, device.id, localDay(device.timezone), device.boundAt);
  return {
    id: device.id,
    sn: device.sn,
    alias: device.alias,
    status: device.status,
    state: device.state,
    plant: device.plant && { id: device.plant.id, name: device.plant.name, timezone: device.plant.timezone },
    gateway: { id: device.gateway.id, sn: device.gateway.sn, alias: device.gateway.alias },
    protocol: { id: device.protocolId, name: plan?.definition.name[lan] ?? device.protocolId },
    master: device.plant?.masterMeterId === device.id,
    at: iso(device.latest?.ts),
    power: num(values.activePower),
    reactivePower: num(values.reactivePower),
    apparentPower: num(values.apparentPower),
    powerFactor: num(values.powerFactor),
    frequency: firstNum(values, ['frequency', 'gridFrequency']),
    phases: phasesOf(plan, values, ['']),
    importToday: Number(day?.grid_import_wh ?? 0),
    exportToday: Number(day?.grid_export_wh ?? 0),
    importTotal: kwhToWh(num(values.importEnergy)),
    exportTotal: kwhToWh(num(values.exportEnergy)),
    faults: faultsOf(plan, device.latest?.faults ?? [], lan),
    fields: fieldList(plan, values, lan, (f) => f.group === 'realtime' && !PHASE_KEYS.test(f.key) && !SUMMARY_KEYS.has(f.key)),
    canEdit: device.canEdit && caller.grants.has('meter.alias'),
    canDelete: device.canEdit && caller.grants.has('meter.delete'),
    createdAt: iso(device.createdAt)!,
  };
}

export async function meterDay(db: Db, caller: Caller, sn: string, date: string | undefined, lan: Language) {
  const device = await meter(db, caller, sn);
  const plan = planOf(device.protocolId) ?? fail(ErrorCode.notFound);
  const day = chartDay(device, date);
  const keys = ['activePower', 'activePowerL1', 'activePowerL2', 'activePowerL3'].filter((k) => chartParam(plan, 'meter', k));
  const [curves, energy] = await Promise.all([dayCurves(db, device, plan, keys, day, lan), dayEnergy(db, device, day)]);
  return { ...curves, energy };
}

export async function meterBars(db: Db, caller: Caller, sn: string, period: 'month' | 'year' | 'total', date?: string) {
  return energyBars(db, await meter(db, caller, sn), period, date);
}
