/** SQL of the firmware library: images, products and inverter types, rows mapped to the contract's types. */
import type { firmwareApi } from '@sunfleet/contracts';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { FirmwareTable } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { iso } from '../../time/index.ts';

type Firmware = firmwareApi.Firmware;
type FirmwareType = firmwareApi.FirmwareType;
type InverterType = firmwareApi.InverterType;
type Product = firmwareApi.Product;

export type FirmwareRow = Selectable<FirmwareTable>;

export const toFirmware = (r: FirmwareRow): Firmware => ({
  id: r.id,
  type: r.type,
  productId: r.product_id,
  productName: r.product_name,
  epn: r.epn,
  brand: r.brand,
  hardwareVersion: r.hardware_version,
  compatibleSoftware: r.compatible_software,
  upgradeMode: r.upgrade_mode,
  fileName: r.file_name,
  version: r.version,
  size: r.size,
  sha256: r.sha256,
  signature: r.signature,
  changeLog: r.change_log,
  enabled: r.enabled === 1,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});

export const firmwareById = (db: Db, id: number) => db.selectFrom('firmware').selectAll().where('id', '=', id).executeTakeFirst();

export interface FirmwareFilter {
  type: FirmwareType;
  productName?: string | undefined;
  version?: string | undefined;
  productId?: number | undefined;
  enabled?: boolean | undefined;
}

/** "Contains", case and accents folded, the text's own `%`, `_` and `!` taken literally (db/search.ts). */
const contains = (column: string, text: string) => containsText([column], text);

function filtered(db: Db, f: FirmwareFilter) {
  let q = db.selectFrom('firmware').where('type', '=', f.type);
  if (f.productName) q = q.where(contains('product_name', f.productName));
  if (f.version) q = q.where(contains('version', f.version));
  if (f.productId) q = q.where('product_id', '=', f.productId);
  if (f.enabled !== undefined) q = q.where('enabled', '=', f.enabled ? 1 : 0);
  return q;
}

export async function firmwarePage(db: Db, f: FirmwareFilter, page: number, size: number) {
  const total = await filtered(db, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, f)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { total: Number(total.n), list: rows.map(toFirmware) };
}

/** Every image of one type (and product), for the version order (small: a product has tens). */
export const firmwareOf = (db: Db, f: FirmwareFilter) => filtered(db, f).selectAll().execute();

/** The versions stored for a product (by id, or by its name for images uploaded under it). */
export async function productVersions(db: Db, type: FirmwareType, productId: number, productName: string) {
  const rows = await db
    .selectFrom('firmware')
    .select('version')
    .where('type', '=', type)
    .where((eb) => eb.or([eb('product_id', '=', productId), eb('product_name', '=', productName)]))
    .execute();
  return rows.map((r) => r.version);
}

export const fileNameTaken = async (db: Db, fileName: string) =>
  !!(await db.selectFrom('firmware').select('id').where('file_name', '=', fileName).executeTakeFirst());

// ---- Products ----

const productColumns = [
  'products.id',
  'products.type',
  'products.name',
  'products.epn',
  'products.brand',
  'products.inverter_type_id',
  'products.hardware_versions',
  'products.created_at',
] as const;

function productsQuery(db: Db) {
  return db
    .selectFrom('products')
    .leftJoin('inverter_types', 'inverter_types.id', 'products.inverter_type_id')
    .select([
      ...productColumns,
      'inverter_types.name as inverter_type_name',
      (eb) =>
        eb
          .selectFrom('firmware')
          .select((f) => f.fn.countAll<number>().as('n'))
          .whereRef('firmware.product_id', '=', 'products.id')
          .as('firmware'),
    ]);
}

type ProductRow = Awaited<ReturnType<ReturnType<typeof productsQuery>['executeTakeFirstOrThrow']>>;
const toProduct = (r: ProductRow): Product => ({
  id: r.id,
  type: r.type,
  name: r.name,
  epn: r.epn,
  brand: r.brand,
  inverterTypeId: r.inverter_type_id,
  inverterTypeName: r.inverter_type_name ?? null,
  hardwareVersions: parseJson<string[]>(r.hardware_versions, []),
  firmware: Number(r.firmware ?? 0),
  createdAt: iso(r.created_at)!,
});

export const productById = async (db: Db, id: number) => {
  const row = await productsQuery(db).where('products.id', '=', id).executeTakeFirst();
  return row ? toProduct(row) : undefined;
};

export const productsOfType = async (db: Db, type: FirmwareType) =>
  (await productsQuery(db).where('products.type', '=', type).orderBy('products.name').execute()).map(toProduct);

export async function productPage(
  db: Db,
  f: { name?: string | undefined; inverterTypeId?: number | undefined },
  page: number,
  size: number,
) {
  let q = productsQuery(db).where('products.type', '=', 'inverter');
  if (f.name) q = q.where(contains('products.name', f.name));
  if (f.inverterTypeId) q = q.where('products.inverter_type_id', '=', f.inverterTypeId);
  let count = db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', 'inverter');
  if (f.name) count = count.where(contains('name', f.name));
  if (f.inverterTypeId) count = count.where('inverter_type_id', '=', f.inverterTypeId);
  const total = Number((await count.executeTakeFirstOrThrow()).n);
  const rows = await q
    .orderBy('products.name')
    .orderBy('products.id')
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { total, list: rows.map(toProduct) };
}

export const productNamed = (db: Db, type: FirmwareType, name: string) =>
  db.selectFrom('products').select('id').where('type', '=', type).where('name', '=', name).executeTakeFirst();

// ---- Inverter types ----

export async function inverterTypeList(db: Db): Promise<InverterType[]> {
  const rows = await db
    .selectFrom('inverter_types')
    .select([
      'inverter_types.id',
      'inverter_types.name',
      'inverter_types.position',
      (eb) =>
        eb
          .selectFrom('products')
          .select((p) => p.fn.countAll<number>().as('n'))
          .whereRef('products.inverter_type_id', '=', 'inverter_types.id')
          .as('products'),
    ])
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, position: r.position, products: Number(r.products ?? 0) }));
}

export const inverterTypeNamed = (db: Db, name: string) =>
  db.selectFrom('inverter_types').select('id').where('name', '=', name).executeTakeFirst();

// ---- Images: writes ----

export type NewFirmware = Omit<Insertable<FirmwareTable>, 'id'>;

/** A new image row; its id. */
export async function insertFirmware(db: Db, values: NewFirmware): Promise<number> {
  const row = await db.insertInto('firmware').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const updateFirmware = (db: Db, id: number, set: Updateable<FirmwareTable>) =>
  db.updateTable('firmware').set(set).where('id', '=', id).execute();

export const deleteFirmwareRows = (db: Db, ids: number[]) => db.deleteFrom('firmware').where('id', 'in', ids).execute();
