/**
 * Gateways in stock (the system administrators' gateway management): create one or a batch,
 * import one or many from an .xlsx (its template generated in the caller's language), check
 * before writing with a per-row report, assign to a customer or agent, change the protocol,
 * delete (refused while bound to a plant: 301) and download the filtered list.
 *
 * A created gateway's claim key (the label key a user types to bind it to a plant: 128 random
 * bits, 26 Crockford base32 characters) and its device secret (the MQTT password: 192 random
 * bits) are in the answer of the call that makes them, and nowhere else: the store keeps only
 * their SHA-256.
 *
 * The rows of an import or a batch: SN (1 to 32 of A–Z a–z 0–9 _ -), customer (the company's
 * id or its exact name; blank: the call's `customerId`, or none), protocol (a protocol id of
 * `dict/protocols`; blank: none), alias (at most 32 bytes). Every row is checked: SN format,
 * the SN twice in the file, the SN already in the store, the customer exists, the protocol is
 * known, the alias length. Mode 'valid' writes the rows without a problem; mode 'all' writes
 * every row or, when any row has a problem, none. Either way the rows are written in one
 * transaction: all of them or (on a failure) none.
 */
import Type from 'typebox';
import { endpoint, XLSX_MEDIA_TYPE } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { Id, IdParams, LanQuery, Literals, Nothing, Nullable, Sn } from '../schemas.ts';
import { gatewayFilters } from './devices/gateways.ts';

/** Rows one .xlsx import may hold (the header row not counted). */
export const STOCK_IMPORT_MAX_ROWS = 10_000;
/** The largest import file (a 10,000-row file is about 300 KB). */
export const STOCK_IMPORT_MAX_BYTES = 4 * 1024 * 1024;
/** Gateways one `gateway/batch` call may create. */
export const STOCK_BATCH_MAX = 1_000;
/** Gateways one assign or protocol change may name. */
export const STOCK_SELECTION_MAX = 500;
/** The template's example row: a row with this SN is skipped by the import. */
export const STOCK_EXAMPLE_SN = 'EXAMPLE-GW-0001';
/** Columns of the import file, in order (the template's headers are these, translated). */
export const stockColumns = ['sn', 'customer', 'protocol', 'alias'] as const;

/** Why a row cannot be written. */
export const stockProblems = [
  'snMissing',
  'snFormat',
  'snRepeated',
  'snExists',
  'customerMissing',
  'protocolUnknown',
  'aliasTooLong',
] as const;
export type StockProblem = (typeof stockProblems)[number];

export const ImportMode = Literals(['valid', 'all'] as const, {
  description: 'valid: write the rows without a problem; all: write every row, or none when any row has a problem',
});

const Protocol = Type.String({ maxLength: 64, description: 'a protocol id of dict/protocols' });
const Alias = Type.String({ maxLength: 64, description: `at most ${limits.deviceAliasBytes} bytes` });

/** One gateway to create: what a row of the file holds. */
export const StockItem = Type.Object({
  sn: Type.String({ maxLength: 64, description: 'checked per row: 1 to 32 of A–Z a–z 0–9 _ -' }),
  customerId: Type.Optional(Nullable(Id)),
  protocol: Type.Optional(Nullable(Protocol)),
  alias: Type.Optional(Nullable(Alias)),
});

export const RowProblem = Type.Object({
  row: Type.Integer({ description: 'the sheet row (1-based, as the spreadsheet shows it), or the position in the batch from 1' }),
  sn: Type.String({ description: 'the SN as written in the row (trimmed)' }),
  problem: Literals(stockProblems),
  firstRow: Type.Optional(Type.Integer({ description: 'snRepeated: the row that has it first' })),
  value: Type.Optional(Type.String({ description: 'customerMissing, protocolUnknown: the value given' })),
});

/** The per-row check of a file or batch. */
export const StockReport = Type.Object({
  rows: Type.Integer({ description: 'rows read (header and example row not counted)' }),
  valid: Type.Integer({ description: 'rows without a problem' }),
  problems: Type.Array(RowProblem, { description: 'every problem of every row, in row order' }),
});

/** A gateway just made, with its secrets: shown once. */
export const CreatedGateway = Type.Object({
  id: Type.Integer(),
  sn: Sn,
  claimKey: Type.String({ description: 'the label key users bind it with (shown only now)' }),
  secret: Type.String({ description: 'the device secret it connects with (shown only now)' }),
  firmwareKey: Type.String({
    description:
      "the server's firmware signing public key (Ed25519, base64 of its raw 32 bytes): the gateway checks every firmware image's signature with it",
  }),
});

export const StockImportResult = Type.Object({
  mode: ImportMode,
  written: Type.Integer({ description: 'gateways created (0 in mode all when a row has a problem)' }),
  report: StockReport,
  gateways: Type.Array(CreatedGateway, { description: 'the created gateways with their secrets (shown only now)' }),
});

const CustomerQuery = Type.Object({
  customerId: Type.Optional(Id),
});

export const importOneCheck = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/import/one/check',
  access: 'sys.gateway.edit',
  encoding: 'json',
  summary: 'Check one gateway for import into stock for the customer `customerId` (nothing written): its problems, as a file row',
  query: CustomerQuery,
  body: Type.Object({ sn: StockItem.properties.sn, protocol: StockItem.properties.protocol, alias: StockItem.properties.alias }),
  data: StockReport,
});

export const importOne = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/import/one',
  access: 'sys.gateway.edit',
  writes: true,
  encoding: 'json',
  summary:
    'Import one gateway into stock for the customer `customerId`: 4 bad SN, protocol or alias, 301 the SN is taken, 404 no such customer',
  query: CustomerQuery,
  body: importOneCheck.body,
  data: CreatedGateway,
  tolerate: [ErrorCode.validation, ErrorCode.gatewayUsed, ErrorCode.notFound],
});

export const createGateway = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/create',
  access: 'sys.gateway.edit',
  writes: true,
  encoding: 'json',
  summary:
    'Create one gateway in stock (optionally assigned): 4 bad SN, protocol or alias, 301 the SN is taken, 404 no such customer',
  body: StockItem,
  data: CreatedGateway,
  tolerate: [ErrorCode.validation, ErrorCode.gatewayUsed, ErrorCode.notFound],
});

export const batchCreate = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/batch',
  access: 'sys.gateway.edit',
  writes: true,
  encoding: 'json',
  summary: `Create up to ${STOCK_BATCH_MAX} gateways in stock, checked as an import's rows; \`customerId\` for items without one`,
  body: Type.Object({
    items: Type.Array(StockItem, { minItems: 1, maxItems: STOCK_BATCH_MAX }),
    customerId: Type.Optional(Id),
    mode: ImportMode,
  }),
  data: StockImportResult,
  tolerate: [ErrorCode.notFound],
});

export const importCheck = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/import/check',
  access: 'sys.gateway.edit',
  encoding: 'multipart',
  summary: `Check an import file (field "file": .xlsx, at most ${STOCK_IMPORT_MAX_ROWS} rows; field "customerId" for rows without a customer): the per-row report, nothing written`,
  data: StockReport,
  tolerate: [ErrorCode.validation, ErrorCode.notFound],
});

export const importBatch = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/import/batch',
  access: 'sys.gateway.edit',
  writes: true,
  encoding: 'multipart',
  summary:
    'Import a file (fields "file", "customerId" and "mode"): checked again, then written in one transaction; the created gateways with their secrets',
  data: StockImportResult,
  tolerate: [ErrorCode.validation, ErrorCode.notFound],
});

export const importTemplate = endpoint({
  method: 'GET',
  path: '/api/v1/gateway/import/template',
  access: 'sys.gateway.edit',
  summary: 'The import file template (.xlsx): the column headers in the request language and one example row (skipped on import)',
  query: LanQuery,
  data: Nothing,
  file: true,
  fileType: XLSX_MEDIA_TYPE,
});

const Selection = Type.Array(Id, { minItems: 1, maxItems: STOCK_SELECTION_MAX, uniqueItems: true });

export const assignGateways = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/assign',
  access: 'sys.gateway.edit',
  writes: true,
  encoding: 'json',
  summary: 'Assign gateways to a customer or agent company (null: to none): 305 a gateway does not exist, 404 no such customer',
  body: Type.Object({ ids: Selection, customerId: Nullable(Id) }),
  data: Type.Object({ updated: Type.Integer() }),
  tolerate: [ErrorCode.gatewayMissing, ErrorCode.notFound],
});

export const updateProtocol = endpoint({
  method: 'POST',
  path: '/api/v1/gateway/updateGatewayProtocol',
  access: 'sys.gateway.edit',
  writes: true,
  encoding: 'json',
  summary: 'Set the protocol of gateways (null: none): 4 unknown protocol, 305 a gateway does not exist',
  body: Type.Object({ ids: Selection, protocol: Nullable(Protocol) }),
  data: Type.Object({ updated: Type.Integer() }),
  tolerate: [ErrorCode.validation, ErrorCode.gatewayMissing],
});

export const deleteGateway = endpoint({
  method: 'GET',
  path: '/api/v1/gateway/:id/delete',
  access: 'sys.gateway.edit',
  writes: true,
  summary: 'Delete a gateway from stock: 301 while it is bound to a plant, 305 it does not exist',
  params: IdParams,
  data: Nothing,
  tolerate: [ErrorCode.gatewayUsed, ErrorCode.gatewayMissing],
});

export const downloadGateways = endpoint({
  method: 'GET',
  path: '/api/v1/gateways/downLoad',
  access: ['gateway.view', 'sys.gateway.view'],
  summary: 'The gateway list with its filters as .xlsx (every matching row, streamed), in the request language',
  query: Type.Object({ ...gatewayFilters, ...LanQuery.properties }),
  data: Nothing,
  file: true,
  fileType: XLSX_MEDIA_TYPE,
});
