/**
 * The firmware library: gateway and inverter firmware images (upload, detail, change log,
 * enable, delete), the products they are for (name, EPN, brand, hardware versions; inverter
 * products under an inverter type), the ordered inverter types, and the version lists the
 * upload and upgrade dialogs pick from. Only the platform operator manages it (firmware.*,
 * product.edit); `firmware/versions` is also open to whoever may upgrade a device, who then sees
 * only enabled images.
 *
 * Upload rules (`firmwareUploadProblem`, checked by the web before sending and by the server on
 * what arrived): a .bin or .hex file of at most 1.5 MiB (1.5 × 1024 × 1024 = 1,572,864 bytes);
 * its name letters, digits, hyphen, underscore or dot, at most 40 characters; the version
 * letters, digits, hyphen and underscore, at most 40, strictly higher (`compareVersions`) than
 * every version of that product. Codes: 4000 the file name is taken, or that product has that
 * version already; 4001 an inverter firmware's version is not higher than the product's latest;
 * 4002 a gateway firmware's (the gateway's software) version is not higher than the latest;
 * 4003 the image is used by an upgrade rollout (delete refused).
 * The products and inverter types are in `firmwareProducts.ts`, the shared rules in `firmwareRules.ts`.
 */
import Type, { type Static } from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { Id, IdParams, Instant, Literals, Nothing, Nullable } from '../schemas.ts';
import {
  firmwareRules,
  firmwareTypes,
  optionalFirmwareText as OptionalText,
  firmwareText as Text,
  upgradeModes,
} from './firmwareRules.ts';

export * from './firmwareProducts.ts';
export {
  type FirmwareType,
  type FirmwareUploadProblem,
  firmwareRules,
  firmwareTypes,
  firmwareUploadProblem,
  type UpgradeMode,
  upgradeModes,
  versionRefusal,
} from './firmwareRules.ts';

const Version = Type.String({ minLength: 1, maxLength: firmwareRules.versionMax, pattern: '^[A-Za-z0-9_-]+$' });
const FileName = Type.String({ minLength: 1, maxLength: firmwareRules.fileNameMax, pattern: '^[A-Za-z0-9._-]+$' });

export const Firmware = Type.Object({
  id: Type.Integer(),
  type: Literals(firmwareTypes),
  productId: Nullable(Type.Integer()),
  productName: Type.String(),
  epn: Nullable(Type.String()),
  brand: Nullable(Type.String()),
  hardwareVersion: Nullable(Type.String()),
  compatibleSoftware: Nullable(Type.String()),
  upgradeMode: Literals(upgradeModes),
  fileName: Type.String(),
  version: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  sha256: Type.String({ description: 'hex SHA-256 of the image' }),
  signature: Type.String({ description: 'base64 Ed25519 signature of the SHA-256 digest, by the server key' }),
  changeLog: Nullable(Type.String()),
  enabled: Type.Boolean(),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Firmware = Static<typeof Firmware>;

const FirmwareListQuery = Type.Object({
  ...PageQuery,
  productName: Type.Optional(Text()),
  version: Type.Optional(Text(firmwareRules.versionMax)),
  productId: Type.Optional(Id),
  enabled: Type.Optional(Literals(['0', '1'])),
});

/** The multipart fields of an upload (beside `file`); on `firmware/save`, `id` edits instead. */
export const FirmwareUploadFields = Type.Object({
  productId: Id,
  version: Version,
  hardwareVersion: OptionalText(),
  compatibleSoftware: OptionalText(),
  upgradeMode: Type.Optional(Literals(upgradeModes)),
  changeLog: OptionalText(firmwareRules.changeLogMax),
});
export type FirmwareUploadFields = Static<typeof FirmwareUploadFields>;

/** What may change on a stored image: everything but its product, version and bytes. */
export const FirmwareEdit = Type.Object(
  {
    hardwareVersion: OptionalText(),
    compatibleSoftware: OptionalText(),
    upgradeMode: Type.Optional(Literals(upgradeModes)),
    changeLog: OptionalText(firmwareRules.changeLogMax),
  },
  { additionalProperties: false },
);
export type FirmwareEdit = Static<typeof FirmwareEdit>;

const CheckQuery = Type.Object({
  productId: Type.Optional(Id),
  fileName: Type.Optional(FileName),
  version: Type.Optional(Version),
});

// ---- Firmware images ----

export const inverterFirmwarePage = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/page',
  access: 'firmware.inverter.view',
  summary: 'Inverter firmware, newest first; filters: product name (contains), version (contains), product, enabled',
  query: FirmwareListQuery,
  data: Paged(Firmware),
});

export const gatewayFirmwarePage = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/gateway/page',
  access: 'firmware.gateway.view',
  summary: 'Gateway firmware, newest first; filters as the inverter list',
  query: FirmwareListQuery,
  data: Paged(Firmware),
});

export const inverterFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/inverter/:id',
  access: 'firmware.inverter.view',
  summary: 'One inverter firmware (404 for another id or a gateway firmware)',
  params: IdParams,
  data: Firmware,
});

export const gatewayFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/gateway/:id',
  access: 'firmware.gateway.view',
  summary: 'One gateway firmware (404 for another id or an inverter firmware)',
  params: IdParams,
  data: Firmware,
});

export const checkInverterFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/check',
  access: 'firmware.inverter.view',
  summary: 'Whether a file name is free (4000) and a version higher than the product’s (4000 the same, 4001 lower)',
  query: CheckQuery,
  data: Nothing,
  tolerate: [ErrorCode.firmwareNameTaken, ErrorCode.firmwareLatest],
});

export const checkGatewayFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/gateway/check',
  access: 'firmware.gateway.view',
  summary: 'Whether a file name is free (4000) and a version higher than the product’s (4000 the same, 4002 lower)',
  query: CheckQuery,
  data: Nothing,
  tolerate: [ErrorCode.firmwareNameTaken, ErrorCode.softwareLatest],
});

export const saveInverterFirmware = endpoint({
  method: 'POST',
  path: '/api/v1/firmware/save',
  access: 'firmware.inverter.edit',
  writes: true,
  encoding: 'multipart',
  summary:
    'Upload an inverter firmware (fields of FirmwareUploadFields and `file`), or with an `id` field and no file edit one (FirmwareEdit); 4000, 4001',
  body: Type.Intersect([Type.Object({ id: Type.Optional(Id) }), Type.Partial(FirmwareUploadFields)]),
  data: Firmware,
  tolerate: [ErrorCode.firmwareNameTaken, ErrorCode.firmwareLatest],
});

export const addGatewayFirmware = endpoint({
  method: 'POST',
  path: '/api/v1/firmware/gateway/add',
  access: 'firmware.gateway.edit',
  writes: true,
  encoding: 'multipart',
  summary: 'Upload a gateway firmware (fields of FirmwareUploadFields and `file`); 4000, 4002',
  body: FirmwareUploadFields,
  data: Firmware,
  tolerate: [ErrorCode.firmwareNameTaken, ErrorCode.softwareLatest],
});

export const editGatewayFirmware = endpoint({
  method: 'POST',
  path: '/api/v1/firmware/gateway/:id',
  access: 'firmware.gateway.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit a gateway firmware’s hardware version, compatible software, upgrade mode or change log',
  params: IdParams,
  body: FirmwareEdit,
  data: Firmware,
});

/** Which permission changes an image of a type. */
export const firmwareEditPermission = { gateway: 'firmware.gateway.edit', inverter: 'firmware.inverter.edit' } as const;
const eitherEdit = ['firmware.gateway.edit', 'firmware.inverter.edit'] as const;

export const changeFirmwareEnable = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/:id/changeEnable',
  access: eitherEdit,
  writes: true,
  summary:
    'Enable (enable=1) or disable (enable=0) an image; upgrades offer only enabled ones. Needs the edit permission of its type',
  params: IdParams,
  query: Type.Object({ enable: Literals(['0', '1']) }),
  data: Firmware,
});

export const deleteFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/:id/delete',
  access: eitherEdit,
  writes: true,
  summary: 'Delete an image (4003 while an upgrade rollout uses it); its file goes when no other image has the same bytes',
  params: IdParams,
  data: Nothing,
  tolerate: [ErrorCode.firmwareInUse],
});

export const batchDeleteFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/batchDelete',
  access: eitherEdit,
  writes: true,
  summary: 'Delete several images, all or none (4003 naming the first one in use; 404 for an unknown id)',
  query: Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 100 }) }),
  data: Type.Object({ deleted: Type.Integer() }),
  tolerate: [ErrorCode.firmwareInUse],
});

export const FirmwareVersionInfo = Type.Object({
  id: Type.Integer(),
  version: Type.String(),
  fileName: Type.String(),
  size: Type.Integer(),
  enabled: Type.Boolean(),
  changeLog: Nullable(Type.String()),
  createdAt: Instant,
});

export const firmwareVersions = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/versions',
  access: ['firmware.gateway.view', 'firmware.inverter.view', 'gateway.upgrade', 'inverter.upgrade'],
  summary:
    'The versions of one type (and product), highest first (compareVersions); an account that only upgrades devices sees enabled ones only',
  query: Type.Object({
    type: Literals(firmwareTypes),
    productId: Type.Optional(Id),
    productName: Type.Optional(Text()),
    page: PageQuery.page,
    size: PageQuery.size,
  }),
  data: Type.Object({ infos: Type.Array(FirmwareVersionInfo), total: Type.Integer({ minimum: 0 }) }),
});
