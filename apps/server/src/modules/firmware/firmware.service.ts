/**
 * Firmware image rules: an upload is checked (file, fields, product, name and version) before
 * anything is kept, then signed and stored with its row in one transaction; a refused upload
 * leaves no row and no file. Changing an image needs the edit permission of its type; deleting
 * one is refused while a registered use check (an upgrade rollout) still needs it, and its
 * bytes go when no other image has them.
 */
import { compareVersions, ErrorCode, firmwareApi, isFirmwareVersion, limits } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { recordAdminChange } from '../../audit/admin.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { deleteUnusedBlob } from '../../firmware/blobs.ts';
import type { FirmwareSigner } from '../../firmware/signing.ts';
import { BusinessError, fail } from '../../http/errors.ts';
import {
  deleteFirmwareRows,
  type FirmwareFilter,
  fileNameTaken,
  firmwareById,
  firmwareOf,
  firmwarePage,
  insertFirmware,
  productById,
  productVersions,
  toFirmware,
  updateFirmware,
} from './firmware.repo.ts';
import { firmwareInUse } from './in-use.ts';
import type { FirmwareUpload } from './upload.ts';

type FirmwareEdit = firmwareApi.FirmwareEdit;
type FirmwareType = firmwareApi.FirmwareType;
type UpgradeMode = firmwareApi.UpgradeMode;
const { firmwareEditPermission, firmwareUploadProblem, upgradeModes, versionRefusal } = firmwareApi;

export interface FirmwareStore {
  db: Db;
  dataDir: string;
  signer: FirmwareSigner;
}

const problemText = {
  fileMissing: 'file: required',
  extension: 'file: must be a .bin or .hex file',
  fileName: `file: name of letters, digits, hyphen, underscore or dot, at most ${limits.firmwareFileName}`,
  tooLarge: `file: larger than ${limits.firmwareBytes} bytes`,
  empty: 'file: empty',
  version: 'version: letters, digits, hyphen and underscore, at most 40',
  notHigher: 'version: not higher than the latest',
} as const;

const blank = (s: string | undefined) => (s === undefined || s.trim() === '' ? null : s.trim());

function optionalText(fields: Record<string, string>, name: string, max: number): string | null {
  const value = blank(fields[name]);
  if (value !== null && value.length > max) fail(ErrorCode.validation, `${name}: at most ${max} characters`);
  return value;
}

function upgradeModeOf(value: string | undefined): UpgradeMode | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(upgradeModes as readonly string[]).includes(value)) return fail(ErrorCode.validation, 'upgradeMode: IAP or ISP');
  return value as UpgradeMode;
}

function editOf(fields: Record<string, string>): FirmwareEdit {
  const edit: FirmwareEdit = {};
  if ('hardwareVersion' in fields) edit.hardwareVersion = optionalText(fields, 'hardwareVersion', 64);
  if ('compatibleSoftware' in fields) edit.compatibleSoftware = optionalText(fields, 'compatibleSoftware', 64);
  if ('changeLog' in fields) edit.changeLog = optionalText(fields, 'changeLog', 2000);
  const mode = upgradeModeOf(fields.upgradeMode);
  if (mode) edit.upgradeMode = mode;
  return edit;
}

const positiveId = (text: string | undefined, name: string) => {
  if (!text || !/^[1-9][0-9]{0,9}$/.test(text.trim())) return fail(ErrorCode.validation, `${name}: required`);
  return Number(text.trim());
};

/** The code an image of `productId` with this name and version would be refused with, or null. */
async function refusal(db: Db, type: FirmwareType, product: { id: number; name: string }, fileName: string, version: string) {
  if (await fileNameTaken(db, fileName)) return ErrorCode.firmwareNameTaken;
  return versionRefusal(type, version, await productVersions(db, type, product.id, product.name));
}

/** Stores an uploaded image (the caller has read the upload; its staged file is kept or discarded here). */
export async function addFirmware(store: FirmwareStore, caller: Caller, type: FirmwareType, upload: FirmwareUpload) {
  const { db } = store;
  const staged = upload.file?.blob;
  try {
    const { fields } = upload;
    if ('id' in fields) return fail(ErrorCode.validation, 'id: not with a new image');
    const version = (fields.version ?? '').trim();
    const problem = firmwareUploadProblem(upload.file && { name: upload.file.name, size: staged!.size }, version);
    if (problem) return fail(ErrorCode.validation, problemText[problem]);
    const productId = positiveId(fields.productId, 'productId');
    const product = await productById(db, productId);
    if (!product || product.type !== type) return fail(ErrorCode.validation, `productId: no such ${type} product`);
    const meta = editOf(fields);
    const fileName = upload.file!.name;
    const blob = staged!;
    const signature = store.signer.sign(blob.sha256);
    const t = now();
    const id = await db
      .transaction()
      .execute(async (trx) => {
        const code = await refusal(trx, type, product, fileName, version);
        if (code) fail(code);
        const row = {
          id: await insertFirmware(trx, {
            type,
            product_id: product.id,
            product_name: product.name,
            epn: product.epn,
            brand: product.brand,
            hardware_version: meta.hardwareVersion ?? null,
            compatible_software: meta.compatibleSoftware ?? null,
            upgrade_mode: meta.upgradeMode ?? 'IAP',
            file_name: fileName,
            version,
            size: blob.size,
            sha256: blob.sha256,
            signature,
            change_log: meta.changeLog ?? null,
            created_by: caller.user.id,
            created_at: t,
            updated_at: t,
          }),
        };
        await recordAdminChange(trx, {
          actorUserId: caller.user.id,
          companyId: null,
          entity: 'firmware',
          entityId: row.id,
          action: 'create',
          after: { type, productName: product.name, fileName, version, size: blob.size, sha256: blob.sha256 },
        });
        // Last inside the transaction: a failed move rolls the row back.
        await blob.keep();
        return row.id;
      })
      .catch(async (err) => {
        // The row did not commit: its bytes go unless another image has them.
        await deleteUnusedBlob(db, store.dataDir, blob.sha256).catch(() => undefined);
        if (err instanceof BusinessError) throw err;
        // Two uploads of one name or version at once: the unique indexes let one through.
        const code = await refusal(db, type, product, fileName, version);
        if (code) return fail(code);
        throw err;
      });
    return toFirmware((await firmwareById(db, id))!);
  } finally {
    await staged?.discard();
  }
}

/** The check of the upload dialog: 4000 a name or version taken, 4001/4002 a lower version. */
export async function checkFirmware(
  db: Db,
  type: FirmwareType,
  q: { productId?: number | undefined; fileName?: string | undefined; version?: string | undefined },
) {
  if (q.fileName && (await fileNameTaken(db, q.fileName))) fail(ErrorCode.firmwareNameTaken);
  if (q.version && q.productId) {
    if (!isFirmwareVersion(q.version)) fail(ErrorCode.validation, problemText.version);
    const product = await productById(db, q.productId);
    if (!product || product.type !== type) return fail(ErrorCode.validation, `productId: no such ${type} product`);
    const code = versionRefusal(type, q.version, await productVersions(db, type, product.id, product.name));
    if (code) fail(code);
  }
  return null;
}

/** An image of the type (404 for another id or type). */
export async function getFirmware(db: Db, type: FirmwareType, id: number) {
  const row = await firmwareById(db, id);
  if (!row || row.type !== type) return fail(ErrorCode.notFound);
  return toFirmware(row);
}

export const listFirmware = (db: Db, f: FirmwareFilter, page = 1, size = 10) => firmwarePage(db, f, page, size);

/** A stored image the caller may change: 404 when there is none, 2 without its type's edit permission. */
async function editable(db: Db, caller: Caller, id: number) {
  const row = await firmwareById(db, id);
  if (!row) return fail(ErrorCode.notFound);
  if (!caller.grants.has(firmwareEditPermission[row.type])) return fail(ErrorCode.noPermission);
  return row;
}

export async function editFirmware(db: Db, caller: Caller, type: FirmwareType, id: number, edit: FirmwareEdit) {
  const before = await editable(db, caller, id);
  if (before.type !== type) return fail(ErrorCode.notFound);
  const patch = {
    ...(edit.hardwareVersion !== undefined ? { hardware_version: blank(edit.hardwareVersion ?? undefined) } : {}),
    ...(edit.compatibleSoftware !== undefined ? { compatible_software: blank(edit.compatibleSoftware ?? undefined) } : {}),
    ...(edit.changeLog !== undefined ? { change_log: blank(edit.changeLog ?? undefined) } : {}),
    ...(edit.upgradeMode !== undefined ? { upgrade_mode: edit.upgradeMode } : {}),
  };
  await db.transaction().execute(async (trx) => {
    await updateFirmware(trx, id, { ...patch, updated_at: now() });
    await recordAdminChange(trx, {
      actorUserId: caller.user.id,
      companyId: null,
      entity: 'firmware',
      entityId: id,
      action: 'edit',
      before: toFirmware(before),
      after: patch,
    });
  });
  return toFirmware((await firmwareById(db, id))!);
}

/** `firmware/save` with an `id` field: the multipart fields as an edit; a file with it is refused. */
export function editFromUpload(db: Db, caller: Caller, upload: FirmwareUpload) {
  if (upload.file) return fail(ErrorCode.validation, 'file: not with an edit (upload a new version instead)');
  if ('version' in upload.fields || 'productId' in upload.fields)
    return fail(ErrorCode.validation, 'version, productId: an image keeps its own');
  return editFirmware(db, caller, 'inverter', positiveId(upload.fields.id, 'id'), editOf(upload.fields));
}

export async function setEnabled(db: Db, caller: Caller, id: number, enabled: boolean) {
  const before = await editable(db, caller, id);
  await db.transaction().execute(async (trx) => {
    await updateFirmware(trx, id, { enabled: enabled ? 1 : 0, updated_at: now() });
    await recordAdminChange(trx, {
      actorUserId: caller.user.id,
      companyId: null,
      entity: 'firmware',
      entityId: id,
      action: enabled ? 'enable' : 'disable',
      before: { enabled: before.enabled === 1 },
      after: { enabled },
    });
  });
  return toFirmware((await firmwareById(db, id))!);
}

/** Deletes images, all or none: 404 for one unknown, 2 without its type's permission, 4003 while one is in use. */
export async function deleteFirmware(store: FirmwareStore, caller: Caller, ids: readonly number[]) {
  const { db } = store;
  const unique = [...new Set(ids)];
  const deleted = await db.transaction().execute(async (trx) => {
    const rows = [];
    for (const id of unique) {
      const row = await editable(trx, caller, id);
      if (await firmwareInUse(trx, id)) fail(ErrorCode.firmwareInUse, `${row.file_name} is used by an upgrade`);
      rows.push(row);
    }
    await deleteFirmwareRows(trx, unique);
    for (const row of rows) {
      await recordAdminChange(trx, {
        actorUserId: caller.user.id,
        companyId: null,
        entity: 'firmware',
        entityId: row.id,
        action: 'delete',
        before: toFirmware(row),
      });
    }
    return rows;
  });
  for (const sha of new Set(deleted.map((r) => r.sha256))) await deleteUnusedBlob(db, store.dataDir, sha);
  return deleted.length;
}

/**
 * The versions of a type (and product), highest first. An account that only upgrades devices
 * (no firmware view permission) sees enabled images only.
 */
export async function versions(
  db: Db,
  caller: Caller,
  q: { type: FirmwareType; productId?: number | undefined; productName?: string | undefined; page?: number; size?: number },
) {
  const manager = caller.grants.has(q.type === 'gateway' ? 'firmware.gateway.view' : 'firmware.inverter.view');
  const rows = await firmwareOf(db, { type: q.type, productId: q.productId, enabled: manager ? undefined : true });
  const matching = q.productName ? rows.filter((r) => r.product_name === q.productName) : rows;
  matching.sort((a, b) => compareVersions(b.version, a.version));
  const page = q.page ?? 1;
  const size = q.size ?? 10;
  return {
    total: matching.length,
    infos: matching.slice((page - 1) * size, page * size).map((r) => ({
      id: r.id,
      version: r.version,
      fileName: r.file_name,
      size: r.size,
      enabled: r.enabled === 1,
      changeLog: r.change_log,
      createdAt: toFirmware(r).createdAt,
    })),
  };
}
