/**
 * What firmware is for: products (gateway or inverter; name unique within its type, 4005) with
 * their hardware versions, inverter types in an order the operator sets (name unique, 4006; not
 * deleted while products are of the type, 1007), and the version lists the upload dialog offers.
 * A product with images is not deleted (4004): its images name it.
 */
import { compareVersions, ErrorCode, type firmwareApi } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { BusinessError, fail } from '../../http/errors.ts';
import * as repo from './catalog.repo.ts';
import { inverterTypeList, inverterTypeNamed, productById, productNamed, productPage, productsOfType } from './firmware.repo.ts';

export { productPage, productsOfType };

type FirmwareType = firmwareApi.FirmwareType;
type GatewayProductInput = firmwareApi.GatewayProductInput;
type InverterProductInput = firmwareApi.InverterProductInput;

/** Versions highest first; versions equal in the version order ("SFG-2.4.1", "SFG-2_4_1") once, the first given. */
const highestFirst = (versions: Iterable<string | null>) => {
  const sorted = [...new Set([...versions].filter((v): v is string => !!v && v.trim() !== '').map((v) => v.trim()))];
  const out: string[] = [];
  for (const v of sorted) if (!out.some((w) => compareVersions(v, w) === 0)) out.push(v);
  return out.sort((a, b) => compareVersions(b, a));
};

const audit = (
  caller: Caller,
  entity: 'product' | 'inverter_type',
  entityId: number,
  action: string,
  before?: unknown,
  after?: unknown,
) => ({
  actorUserId: caller.user.id,
  companyId: null,
  entity,
  entityId,
  action,
  before,
  after,
});

// ---- Products ----

export async function getProduct(db: Db, id: number) {
  const p = await productById(db, id);
  if (!p) return fail(ErrorCode.notFound);
  return p;
}

export async function checkProductName(db: Db, type: FirmwareType, name: string, exceptId?: number) {
  const taken = await productNamed(db, type, name.trim());
  if (taken && taken.id !== exceptId) fail(ErrorCode.productExists);
  return null;
}

interface ProductValues {
  name: string;
  epn?: string | null | undefined;
  brand?: string | null | undefined;
  hardwareVersions?: string[] | undefined;
}

const productColumns = (input: ProductValues) => ({
  name: input.name.trim(),
  epn: input.epn?.trim() || null,
  brand: input.brand?.trim() || null,
  hardware_versions: JSON.stringify(highestFirst(input.hardwareVersions ?? [])),
});

async function inverterTypeExists(db: Db, id: number) {
  if (!(await repo.inverterTypeFound(db, id))) fail(ErrorCode.validation, 'inverterTypeId: no such inverter type');
}

/** Adds (no id) or edits a product of the type; 4005 when its name is taken in the type. */
async function saveProduct(
  db: Db,
  caller: Caller,
  type: FirmwareType,
  id: number | undefined,
  input: ProductValues,
  inverterTypeId: number | null,
) {
  const values = productColumns(input);
  const before = id ? await productById(db, id) : undefined;
  if (id && (!before || before.type !== type)) return fail(ErrorCode.notFound);
  if (inverterTypeId) await inverterTypeExists(db, inverterTypeId);
  await checkProductName(db, type, values.name, id);
  const t = now();
  const savedId = await db
    .transaction()
    .execute(async (trx) => {
      let savedId: number;
      if (id) {
        await repo.updateProduct(trx, id, values, inverterTypeId, t);
        savedId = id;
      } else {
        savedId = await repo.insertProduct(trx, type, values, inverterTypeId, t);
      }
      await recordAdminChange(
        trx,
        audit(caller, 'product', savedId, id ? 'edit' : 'create', before, { type, ...values, inverterTypeId }),
      );
      return savedId;
    })
    .catch(async (err) => {
      if (err instanceof BusinessError) throw err;
      // Two saves of one name at once: the unique index lets one through.
      await checkProductName(db, type, values.name, id);
      throw err;
    });
  return (await productById(db, savedId))!;
}

export const addInverterProduct = (db: Db, caller: Caller, input: InverterProductInput) =>
  saveProduct(db, caller, 'inverter', undefined, input, input.inverterTypeId);
export const editInverterProduct = (db: Db, caller: Caller, id: number, input: InverterProductInput) =>
  saveProduct(db, caller, 'inverter', id, input, input.inverterTypeId);
export const saveGatewayProduct = (db: Db, caller: Caller, input: GatewayProductInput) =>
  saveProduct(db, caller, 'gateway', input.id, input, null);

/** Deletes inverter products, all or none: 404 for one unknown, 4004 while one has images. */
export async function deleteInverterProducts(db: Db, caller: Caller, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  return db.transaction().execute(async (trx) => {
    for (const id of unique) {
      const p = await productById(trx, id);
      if (p?.type !== 'inverter') return fail(ErrorCode.notFound);
      if (p.firmware > 0) return fail(ErrorCode.productInUse, `${p.name} has firmware`);
      await recordAdminChange(trx, audit(caller, 'product', id, 'delete', p));
    }
    await repo.deleteProducts(trx, unique);
    return { deleted: unique.length };
  });
}

/** A product's hardware versions: its list and those its images name, highest first. */
export async function hardwareVersions(db: Db, productId: number) {
  const p = await getProduct(db, productId);
  const used = await repo.imageHardwareVersions(db, productId);
  return highestFirst([...p.hardwareVersions, ...used.map((r) => r.hardware_version)]);
}

/** Gateway software versions: what the fleet reports and the library's gateway images (of one product if given). */
export async function gatewaySoftware(db: Db, productId?: number) {
  if (productId) {
    const p = await getProduct(db, productId);
    if (p.type !== 'gateway') return fail(ErrorCode.notFound);
  }
  const fleet = await repo.fleetGatewayVersions(db);
  const images = await repo.gatewayImageVersions(db, productId);
  return highestFirst([...images.map((r) => r.version), ...fleet.map((r) => r.sw_version)]);
}

// ---- Inverter types ----

export const listInverterTypes = (db: Db) => inverterTypeList(db);

export async function checkInverterTypeName(db: Db, name: string, exceptId?: number) {
  const taken = await inverterTypeNamed(db, name.trim());
  if (taken && taken.id !== exceptId) fail(ErrorCode.inverterTypeExists);
  return null;
}

async function inverterType(db: Db, id: number) {
  const t = (await inverterTypeList(db)).find((x) => x.id === id);
  if (!t) return fail(ErrorCode.notFound);
  return t;
}

export async function addInverterType(db: Db, caller: Caller, name: string) {
  const trimmed = name.trim();
  await checkInverterTypeName(db, trimmed);
  const id = await db
    .transaction()
    .execute(async (trx) => {
      const row = { id: await repo.appendInverterType(trx, trimmed, now()) };
      await recordAdminChange(trx, audit(caller, 'inverter_type', row.id, 'create', undefined, { name: trimmed }));
      return row.id;
    })
    .catch(async (err) => {
      if (err instanceof BusinessError) throw err;
      await checkInverterTypeName(db, trimmed);
      throw err;
    });
  return inverterType(db, id);
}

export async function renameInverterType(db: Db, caller: Caller, id: number, name: string) {
  const before = await inverterType(db, id);
  const trimmed = name.trim();
  await checkInverterTypeName(db, trimmed, id);
  await db.transaction().execute(async (trx) => {
    await repo.renameInverterTypeRow(trx, id, trimmed);
    await recordAdminChange(trx, audit(caller, 'inverter_type', id, 'edit', { name: before.name }, { name: trimmed }));
  });
  return inverterType(db, id);
}

/** Swaps the type with its neighbour above or below; at an end it stays. Answers the new order. */
export async function moveInverterType(db: Db, caller: Caller, id: number, direction: 'up' | 'down') {
  await db.transaction().execute(async (trx) => {
    const list = await inverterTypeList(trx);
    const at = list.findIndex((t) => t.id === id);
    if (at < 0) return fail(ErrorCode.notFound);
    const other = list[direction === 'up' ? at - 1 : at + 1];
    if (!other) return;
    // Renumber the whole list (0…n-1) with the two swapped: positions stay dense and distinct.
    const order = list.map((t) => t.id);
    order[at] = other.id;
    order[direction === 'up' ? at - 1 : at + 1] = id;
    for (const [position, typeId] of order.entries()) {
      await repo.setInverterTypePosition(trx, typeId, position);
    }
    await recordAdminChange(trx, audit(caller, 'inverter_type', id, 'move', { position: at }, { direction }));
  });
  return inverterTypeList(db);
}

export async function deleteInverterType(db: Db, caller: Caller, id: number) {
  await db.transaction().execute(async (trx) => {
    const t = await inverterType(trx, id);
    if (t.products > 0) fail(ErrorCode.typeHasSubtype, `${t.name} has ${t.products} products`);
    await repo.deleteInverterTypeRow(trx, id);
    await recordAdminChange(trx, audit(caller, 'inverter_type', id, 'delete', t));
  });
  return null;
}
