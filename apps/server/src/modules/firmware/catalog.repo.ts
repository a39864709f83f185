/** SQL of the firmware catalogue's writes: products, inverter types and the version lists. */
import type { firmwareApi } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';

type FirmwareType = firmwareApi.FirmwareType;

export interface ProductColumns {
  name: string;
  epn: string | null;
  brand: string | null;
  hardware_versions: string;
}

export async function inverterTypeFound(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('inverter_types').select('id').where('id', '=', id).executeTakeFirst();
  return !!row;
}

export const updateProduct = (db: Db, id: number, values: ProductColumns, inverterTypeId: number | null, t: number) =>
  db
    .updateTable('products')
    .set({ ...values, inverter_type_id: inverterTypeId, updated_at: t })
    .where('id', '=', id)
    .execute();

export async function insertProduct(
  db: Db,
  type: FirmwareType,
  values: ProductColumns,
  inverterTypeId: number | null,
  t: number,
): Promise<number> {
  return (
    await db
      .insertInto('products')
      .values({ type, ...values, inverter_type_id: inverterTypeId, created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

export const deleteProducts = (db: Db, ids: number[]) => db.deleteFrom('products').where('id', 'in', ids).execute();

/** The hardware versions the product's images name. */
export const imageHardwareVersions = (db: Db, productId: number) =>
  db.selectFrom('firmware').select('hardware_version').distinct().where('product_id', '=', productId).execute();

/** The software versions gateways of the fleet report. */
export const fleetGatewayVersions = (db: Db) =>
  db
    .selectFrom('gateways')
    .select('sw_version')
    .distinct()
    .where('deleted_at', 'is', null)
    .where('sw_version', 'is not', null)
    .execute();

/** The versions of the library's gateway images (of one product if given). */
export function gatewayImageVersions(db: Db, productId?: number) {
  let library = db.selectFrom('firmware').select('version').where('type', '=', 'gateway');
  if (productId) library = library.where('product_id', '=', productId);
  return library.execute();
}

/** A new inverter type at the end of the order; its id. */
export async function appendInverterType(db: Db, name: string, t: number): Promise<number> {
  const last = await db
    .selectFrom('inverter_types')
    .select((eb) => eb.fn.max<number | null>('position').as('p'))
    .executeTakeFirstOrThrow();
  const position = last.p === null ? 0 : Number(last.p) + 1;
  const row = await db
    .insertInto('inverter_types')
    .values({ name, position, created_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const renameInverterTypeRow = (db: Db, id: number, name: string) =>
  db.updateTable('inverter_types').set({ name }).where('id', '=', id).execute();

export const setInverterTypePosition = (db: Db, id: number, position: number) =>
  db.updateTable('inverter_types').set({ position }).where('id', '=', id).execute();

export const deleteInverterTypeRow = (db: Db, id: number) => db.deleteFrom('inverter_types').where('id', '=', id).execute();
