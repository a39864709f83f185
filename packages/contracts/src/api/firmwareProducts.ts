// The firmware library's products (name, EPN, brand, hardware versions; inverter products
// under an inverter type), the hardware and gateway software version lists, and the ordered
// inverter types.
import Type, { type Static } from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { Id, IdParams, Instant, Literals, Nothing, Nullable } from '../schemas.ts';
import { firmwareRules, firmwareTypes, optionalFirmwareText as OptionalText, firmwareText as Text } from './firmwareRules.ts';

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
  tolerate: [ErrorCode.productExists],
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
  tolerate: [ErrorCode.productExists],
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
  tolerate: [ErrorCode.productExists],
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
  tolerate: [ErrorCode.productExists],
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
  tolerate: [ErrorCode.productInUse],
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
  tolerate: [ErrorCode.inverterTypeExists],
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
  tolerate: [ErrorCode.inverterTypeExists],
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
  tolerate: [ErrorCode.inverterTypeExists],
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
  tolerate: [ErrorCode.typeHasSubtype],
});
