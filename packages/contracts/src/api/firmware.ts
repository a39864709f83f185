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
 */
import Type, { type Static } from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { limits } from '../limits.ts';
import { Id, IdParams, Instant, Literals, Nothing, Nullable } from '../schemas.ts';
import { isFirmwareFileName, isFirmwareVersion } from '../validation.ts';
import { compareVersions } from '../versionOrder.ts';

export const firmwareTypes = ['gateway', 'inverter'] as const;
export type FirmwareType = (typeof firmwareTypes)[number];
export const upgradeModes = ['IAP', 'ISP'] as const;
export type UpgradeMode = (typeof upgradeModes)[number];

/** Firmware image limits: the file at most 1.5 MiB (binary megabytes: 1,572,864 bytes). */
export const firmwareRules = {
  maxBytes: limits.firmwareBytes,
  fileNameMax: limits.firmwareFileName,
  versionMax: 40,
  extensions: ['.bin', '.hex'],
  changeLogMax: 2000,
  /** Product name, EPN, brand, hardware and software version texts. */
  textMax: 64,
} as const;

export type FirmwareUploadProblem = 'fileMissing' | 'extension' | 'tooLarge' | 'empty' | 'fileName' | 'version' | 'notHigher';

/**
 * What is wrong with an upload, or null: the file (name, extension, size) and the version
 * against the product's versions. One rule for both sides.
 */
export function firmwareUploadProblem(
  file: { name: string; size: number } | null,
  version: string,
  productVersions: Iterable<string> = [],
): FirmwareUploadProblem | null {
  if (!file) return 'fileMissing';
  const lower = file.name.toLowerCase();
  if (!firmwareRules.extensions.some((ext) => lower.endsWith(ext))) return 'extension';
  if (!isFirmwareFileName(file.name)) return 'fileName';
  if (file.size > firmwareRules.maxBytes) return 'tooLarge';
  if (file.size === 0) return 'empty';
  if (!isFirmwareVersion(version) || version.length > firmwareRules.versionMax) return 'version';
  for (const v of productVersions) if (compareVersions(version, v) <= 0) return 'notHigher';
  return null;
}

/** The code a version that is not higher answers: the same version is a duplicate (4000). */
export function versionRefusal(
  type: FirmwareType,
  version: string,
  productVersions: Iterable<string>,
): 4000 | 4001 | 4002 | null {
  let refusal: 4000 | 4001 | 4002 | null = null;
  for (const v of productVersions) {
    const c = compareVersions(version, v);
    if (c === 0) return 4000;
    if (c < 0) refusal = type === 'gateway' ? 4002 : 4001;
  }
  return refusal;
}

const Text = (max: number = firmwareRules.textMax) => Type.String({ maxLength: max });
const OptionalText = (max?: number) => Type.Optional(Nullable(Text(max)));
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
  tolerate: [4000, 4001],
});

export const checkGatewayFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/gateway/check',
  access: 'firmware.gateway.view',
  summary: 'Whether a file name is free (4000) and a version higher than the product’s (4000 the same, 4002 lower)',
  query: CheckQuery,
  data: Nothing,
  tolerate: [4000, 4002],
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
  tolerate: [4000, 4001],
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
  tolerate: [4000, 4002],
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
  tolerate: [4003],
});

export const batchDeleteFirmware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/batchDelete',
  access: eitherEdit,
  writes: true,
  summary: 'Delete several images, all or none (4003 naming the first one in use; 404 for an unknown id)',
  query: Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 100 }) }),
  data: Type.Object({ deleted: Type.Integer() }),
  tolerate: [4003],
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

// ---- Products, hardware and software versions ----

export const Product = Type.Object({
  id: Type.Integer(),
  type: Literals(firmwareTypes),
  name: Type.String(),
  epn: Nullable(Type.String()),
  brand: Nullable(Type.String()),
  inverterTypeId: Nullable(Type.Integer()),
  inverterTypeName: Nullable(Type.String()),
  hardwareVersions: Type.Array(Type.String()),
  firmware: Type.Integer({ description: 'images stored for this product' }),
  createdAt: Instant,
});
export type Product = Static<typeof Product>;

const ProductName = Type.String({ minLength: 1, maxLength: firmwareRules.textMax, pattern: '^[^\\s].*$' });
const HardwareVersions = Type.Array(Type.String({ minLength: 1, maxLength: firmwareRules.textMax }), {
  maxItems: 50,
  uniqueItems: true,
});
const ProductFields = {
  name: ProductName,
  epn: OptionalText(),
  brand: OptionalText(),
  hardwareVersions: Type.Optional(HardwareVersions),
};
export const InverterProductInput = Type.Object({ ...ProductFields, inverterTypeId: Id }, { additionalProperties: false });
export type InverterProductInput = Static<typeof InverterProductInput>;
export const GatewayProductInput = Type.Object({ id: Type.Optional(Id), ...ProductFields }, { additionalProperties: false });
export type GatewayProductInput = Static<typeof GatewayProductInput>;

const eitherView = ['firmware.gateway.view', 'firmware.inverter.view'] as const;

export const products = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/product/',
  access: eitherView,
  summary: 'Every product of a type, by name (the upload dialog’s choices)',
  query: Type.Object({ type: Literals(firmwareTypes) }),
  data: Type.Array(Product),
});

export const product = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/product/:id',
  access: eitherView,
  summary: 'One product',
  params: IdParams,
  data: Product,
});

export const saveGatewayProduct = endpoint({
  method: 'POST',
  path: '/api/v1/product/',
  access: 'firmware.gateway.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add a gateway product, or with `id` edit one; 4005 when the name is taken',
  body: GatewayProductInput,
  data: Product,
  tolerate: [4005],
});

export const inverterProducts = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/products',
  access: 'firmware.inverter.view',
  summary: 'Inverter products by name; filters: name (contains), inverter type',
  query: Type.Object({ ...PageQuery, name: Type.Optional(Text()), inverterTypeId: Type.Optional(Id) }),
  data: Paged(Product),
});

export const checkInverterProduct = endpoint({
  method: 'GET',
  path: '/api/v1/inverter/product/check',
  access: 'firmware.inverter.view',
  summary: 'Whether a product name is free (4005 if taken; id: the product being edited)',
  query: Type.Object({ name: ProductName, id: Type.Optional(Id) }),
  data: Nothing,
  tolerate: [4005],
});

export const addInverterProduct = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/product',
  access: 'product.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add an inverter product under an inverter type; 4005 when the name is taken',
  body: InverterProductInput,
  data: Product,
  tolerate: [4005],
});

export const editInverterProduct = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/products/:id',
  access: 'product.edit',
  writes: true,
  encoding: 'json',
  summary: 'Edit an inverter product (its images keep the name they were uploaded under); 4005',
  params: IdParams,
  body: InverterProductInput,
  data: Product,
  tolerate: [4005],
});

export const deleteInverterProducts = endpoint({
  method: 'POST',
  path: '/api/v1/inverter/products/delete',
  access: 'product.edit',
  writes: true,
  encoding: 'json',
  summary: 'Delete inverter products, all or none; 4004 while one has firmware images',
  body: Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
  data: Type.Object({ deleted: Type.Integer() }),
  tolerate: [4004],
});

export const hardwareVersions = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/hardware',
  access: eitherView,
  summary: 'The hardware versions of a product (its list and those its images name), highest first',
  query: Type.Object({ productId: Id }),
  data: Type.Array(Type.String()),
});

export const gatewaySoftware = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/gateway/software',
  access: 'firmware.gateway.view',
  summary:
    'Gateway software versions, highest first: those the fleet’s gateways report and the library’s gateway images (of one product if given)',
  query: Type.Object({ productId: Type.Optional(Id) }),
  data: Type.Array(Type.String()),
});

// ---- Inverter types ----

export const InverterType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer({ description: 'place in the list, from 0' }),
  products: Type.Integer({ description: 'inverter products of this type' }),
});
export type InverterType = Static<typeof InverterType>;

const InverterTypeName = Type.String({ minLength: 1, maxLength: 32, pattern: '^[^\\s].*$' });
const InverterTypeInput = Type.Object({ name: InverterTypeName }, { additionalProperties: false });

export const inverterTypes = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/inverterTypes',
  access: 'firmware.inverter.view',
  summary: 'Inverter types in their order',
  data: Type.Array(InverterType),
});

export const checkInverterType = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/inverterType/check',
  access: 'firmware.inverter.view',
  summary: 'Whether an inverter type name is free (4006 if taken; id: the type being renamed)',
  query: Type.Object({ name: InverterTypeName, id: Type.Optional(Id) }),
  data: Nothing,
  tolerate: [4006],
});

export const addInverterType = endpoint({
  method: 'POST',
  path: '/api/v1/inverterType/add',
  access: 'product.edit',
  writes: true,
  encoding: 'json',
  summary: 'Add an inverter type at the end of the list; 4006 when the name is taken',
  body: InverterTypeInput,
  data: InverterType,
  tolerate: [4006],
});

export const editInverterType = endpoint({
  method: 'POST',
  path: '/api/v1/inverterType/:id/edit',
  access: 'product.edit',
  writes: true,
  encoding: 'json',
  summary: 'Rename an inverter type; 4006 when the name is taken',
  params: IdParams,
  body: InverterTypeInput,
  data: InverterType,
  tolerate: [4006],
});

export const moveInverterType = endpoint({
  method: 'POST',
  path: '/api/v1/inverterType/:id/move',
  access: 'product.edit',
  writes: true,
  encoding: 'json',
  summary: 'Move an inverter type one place up or down (at an end it stays); answers the new order',
  params: IdParams,
  body: Type.Object({ direction: Literals(['up', 'down']) }, { additionalProperties: false }),
  data: Type.Array(InverterType),
});

export const deleteInverterType = endpoint({
  method: 'GET',
  path: '/api/v1/firmware/inverterType/:id/delete',
  access: 'product.edit',
  writes: true,
  summary: 'Delete an inverter type; 1007 while products are of that type',
  params: IdParams,
  data: Nothing,
  tolerate: [1007],
});
