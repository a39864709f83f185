/**
 * The overview's realtime card: power now (the fresh inverters' output, latest.ts), energy of the
 * plant-local day, month, year and all time (one pass over the day rows), CO₂ avoided, income
 * (income.ts) and the time of the newest data (plants.last_data_at, kept by ingest).
 */
import { type DataOf, plantEnergyApi } from '@sunfleet/contracts';
import { LoadingCache } from '../../cache/loading-cache.ts';
import type { Db } from '../../db/index.ts';
import { plantEnergyToDate } from '../../energy/day-rollups.ts';
import { plantLatest } from '../../energy/latest.ts';
import { iso, localDay, previousDay } from '../../time/index.ts';
import { powerNow } from './flow.ts';
import { dayIncomes, energyIncome, hasPrice, roundMoney, totalOf } from './income.ts';
import type { OverviewPlant } from './plant.ts';

export type PlantRealtime = DataOf<typeof plantEnergyApi.plantRealtime>;

const { CO2_KG_PER_KWH } = plantEnergyApi;
const pastIncomes = new LoadingCache<number>({ max: 2000 });
const co2Kg = (wh: number) => Math.round((wh / 1000) * CO2_KG_PER_KWH * 1000) / 1000;

export async function plantRealtime(db: Db, plant: OverviewPlant, now = Date.now()): Promise<PlantRealtime> {
  const today = localDay(plant.timezone, now);
  const [energy, inverters] = await Promise.all([
    plantEnergyToDate(db, plant.id, today),
    plantLatest(db, plant.id, ['inverter'], now),
  ]);
  const power = powerNow(inverters);
  const capacityW = Number(plant.capacity) * 1000;

  let todayIncome: number | null = null;
  let totalIncome: number | null = null;
  if (hasPrice(plant)) {
    if (plant.valuation_method === 'tou') {
      // The past days' sum is kept per plant while none of their day rows and no plant setting changed.
      const firstDay = energy.firstDay;
      const past =
        firstDay !== null && firstDay < today
          ? await pastIncomes.get(
              `${plant.id}|${today}|${plant.timezone}|${plant.price_segments}`,
              async () => totalOf(await dayIncomes(db, plant, firstDay, previousDay(today))) ?? 0,
              `${plant.updated_at}|${energy.pastUpdatedAt}|${energy.pastDays}`,
            )
          : 0;
      todayIncome = (await dayIncomes(db, plant, today, today)).get(today) ?? 0;
      totalIncome = past + todayIncome;
    } else {
      todayIncome = energyIncome(plant, energy.day) ?? 0;
      totalIncome = energyIncome(plant, energy.total) ?? 0;
    }
    totalIncome += plant.income_total ?? 0;
  }

  return {
    id: plant.id,
    name: plant.name,
    status: plant.status as PlantRealtime['status'],
    capacity: Number(plant.capacity),
    power,
    powerRatio: power !== null && capacityW > 0 ? Math.round((power / capacityW) * 10_000) / 10_000 : null,
    todayEnergy: energy.day.pvWh,
    monthEnergy: energy.month.pvWh,
    yearEnergy: energy.year.pvWh,
    totalEnergy: energy.total.pvWh,
    currency: plant.currency,
    todayIncome: todayIncome === null ? null : roundMoney(todayIncome),
    totalIncome: totalIncome === null ? null : roundMoney(totalIncome),
    co2TodayKg: co2Kg(energy.day.pvWh),
    co2TotalKg: co2Kg(energy.total.pvWh),
    today,
    timezone: plant.timezone,
    lastUpdate: iso(plant.last_data_at),
  };
}
