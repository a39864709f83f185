/**
 * Income per plant-local day for the report's plants, from modules/plant-energy (`dayIncomes`:
 * null for every day when the plant has no price). A few plants at a time: on PostgreSQL they
 * share the pool with other requests, on SQLite they run one after another anyway.
 */
import type { Db } from '../../db/index.ts';
import type { Plant } from '../../db/schema.ts';
import { dayIncomes } from '../plant-energy/income.ts';

const CONCURRENCY = 4;

export async function plantDayIncomes(
  db: Db,
  plants: readonly Plant[],
  fromDay: string,
  toDay: string,
): Promise<Map<number, Map<string, number | null>>> {
  const out = new Map<number, Map<string, number | null>>();
  let next = 0;
  const worker = async () => {
    while (next < plants.length) {
      const plant = plants[next++]!;
      out.set(plant.id, await dayIncomes(db, plant, fromDay, toDay));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, plants.length) }, worker));
  return out;
}
