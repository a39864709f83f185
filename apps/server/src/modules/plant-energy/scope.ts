/**
 * The plant or device a request names, through the plant scopes (access/scopes.ts): one indexed
 * query that both checks the caller may see it and reads what the overview needs. A plant the
 * caller cannot see answers 700, like one that does not exist; a device of such a plant is
 * reported as missing (null), and the route answers its own "unknown" code.
 */
import type { Caller } from '../../access/caller.ts';
import { plantsOperable, plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceKind, Plant } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';

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

const plantColumns = [
  'plants.id',
  'plants.name',
  'plants.type',
  'plants.status',
  'plants.capacity',
  'plants.timezone',
  'plants.currency',
  'plants.valuation_method',
  'plants.price',
  'plants.price_segments',
  'plants.income_total',
  'plants.updated_at',
  'plants.last_data_at',
  'plants.master_meter_id',
] as const;

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

function normalise(row: OverviewPlant): OverviewPlant {
  return {
    ...row,
    capacity: Number(row.capacity),
    price: numberOrNull(row.price),
    income_total: numberOrNull(row.income_total),
    updated_at: Number(row.updated_at),
    last_data_at: numberOrNull(row.last_data_at),
  };
}

/** A plant the caller can see, or 700. */
export async function visiblePlant(db: Db, caller: Caller, id: number): Promise<OverviewPlant> {
  const row = await db
    .selectFrom('plants')
    .select(plantColumns)
    .where((eb) => plantsVisible(eb, caller))
    .where('plants.id', '=', id)
    .executeTakeFirst();
  if (!row) return fail(700);
  return normalise(row);
}

export interface ScopedDevice {
  id: number;
  sn: string;
  kind: DeviceKind;
  protocolId: string;
  alias: string | null;
  status: string;
  gatewayId: number;
  /** When it joined its plant: its data before then is an earlier owner's. */
  boundAt: number;
  plant: OverviewPlant;
  /** Whether the caller may change the device's plant. */
  canEdit: boolean;
}

/** A live device on a plant the caller can see, or null (unknown, deleted, unbound or foreign alike). */
export async function visibleDevice(db: Db, caller: Caller, sn: string): Promise<ScopedDevice | null> {
  const row = await db
    .selectFrom('devices')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select(plantColumns)
    .select((eb) => [
      'devices.id as device_id',
      'devices.sn',
      'devices.kind',
      'devices.protocol_id',
      'devices.alias',
      'devices.status as device_status',
      'devices.gateway_id',
      'devices.bound_at',
      eb.case().when(plantsOperable(eb, caller)).then(1).else(0).end().as('operable'),
    ])
    .where((eb) => plantsVisible(eb, caller))
    .where('devices.sn', '=', sn)
    .where('devices.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.device_id,
    sn: row.sn,
    kind: row.kind,
    protocolId: row.protocol_id,
    alias: row.alias,
    status: row.device_status,
    gatewayId: row.gateway_id,
    boundAt: Number(row.bound_at),
    plant: normalise(row),
    canEdit: Number(row.operable) === 1,
  };
}
