/**
 * Energy by flow over a period (EnergyBreakdown) and where the generated energy went and the
 * consumed energy came from (GenerationUse), from the day rows (energy/day-rollups.ts).
 *
 * Generation use: selfUse = generation − export; fromGrid = import; fromBattery = discharge;
 * fromPv = consumption − fromGrid − fromBattery (never below 0); the rates are null when their
 * denominator is 0 and kept within 0–1.
 */
import type { DataOf, plantEnergyApi } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { type EnergyPeriod, type EnergyTotals, plantEnergy, plantEnergySeries } from '../../energy/day-rollups.ts';
import { requestDay } from '../../time/index.ts';
import type { OverviewPlant } from './plant.ts';

export type EnergyBreakdown = DataOf<typeof plantEnergyApi.plantEnergyDay>;
export type GenerationUse = DataOf<typeof plantEnergyApi.plantGenerationUse>;

const flows = (t: EnergyTotals) => ({
  pv: t.pvWh,
  load: t.loadWh,
  gridImport: t.gridImportWh,
  gridExport: t.gridExportWh,
  charge: t.chargeWh,
  discharge: t.dischargeWh,
});

export async function energyBreakdown(
  db: Db,
  plant: OverviewPlant,
  period: EnergyPeriod,
  date: string | undefined,
): Promise<EnergyBreakdown> {
  const day = requestDay(plant.timezone, date);
  const [totals, points] = await Promise.all([
    plantEnergy(db, plant.id, period, day),
    period === 'day' ? Promise.resolve([]) : plantEnergySeries(db, plant.id, period, day),
  ]);
  return { period, date: day, totals: flows(totals), points: points.map((p) => ({ label: p.label, ...flows(p) })) };
}

const wh = (v: number) => Math.round(v * 1000) / 1000;
const rate = (part: number, whole: number) =>
  whole > 0 ? Math.min(1, Math.max(0, Math.round((part / whole) * 10_000) / 10_000)) : null;

export function generationUseOf(period: EnergyPeriod, date: string, t: EnergyTotals): GenerationUse {
  const generation = t.pvWh;
  const exported = t.gridExportWh;
  const selfUse = wh(Math.max(0, generation - exported));
  const consumption = t.loadWh;
  const fromGrid = t.gridImportWh;
  const fromBattery = t.dischargeWh;
  const fromPv = wh(Math.max(0, consumption - fromGrid - fromBattery));
  return {
    period,
    date,
    generation,
    selfUse,
    export: exported,
    consumption,
    fromPv,
    fromGrid,
    fromBattery,
    selfUseRate: rate(selfUse, generation),
    selfSufficiency: rate(consumption - fromGrid, consumption),
  };
}

export async function generationUse(
  db: Db,
  plant: OverviewPlant,
  period: EnergyPeriod | undefined,
  date: string | undefined,
): Promise<GenerationUse> {
  const day = requestDay(plant.timezone, date);
  const p = period ?? 'day';
  return generationUseOf(p, day, await plantEnergy(db, plant.id, p, day));
}
