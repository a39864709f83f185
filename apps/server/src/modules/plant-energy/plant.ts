/**
 * The plant a request names, with the columns the overview reads: through the resolver
 * (access/resolve.ts: a plant the caller cannot see answers 700, as if it did not exist), in
 * the one indexed query that checks it.
 */
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import type { Plant } from '../../db/schema.ts';

/** The plant columns the overview reads. */
export type OverviewPlant = Pick<
  Plant,
  | 'id'
  | 'name'
  | 'type'
  | 'status'
  | 'capacity'
  | 'timezone'
  | 'currency'
  | 'valuation_method'
  | 'price'
  | 'price_segments'
  | 'income_total'
  | 'updated_at'
  | 'last_data_at'
  | 'master_meter_id'
>;

/** The plant columns the overview reads, as a select list. */
export const overviewColumns = [
  'id',
  'name',
  'type',
  'status',
  'capacity',
  'timezone',
  'currency',
  'valuation_method',
  'price',
  'price_segments',
  'income_total',
  'updated_at',
  'last_data_at',
  'master_meter_id',
] as const satisfies readonly (keyof OverviewPlant)[];

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

/** A plant the caller can see, or 700. */
export async function overviewPlant(db: Db, caller: Caller, id: number): Promise<OverviewPlant> {
  const { row } = await plantFor(db, caller, id, 'view', overviewColumns);
  return {
    ...row,
    capacity: Number(row.capacity),
    price: numberOrNull(row.price),
    income_total: numberOrNull(row.income_total),
    updated_at: Number(row.updated_at),
    last_data_at: numberOrNull(row.last_data_at),
  };
}
