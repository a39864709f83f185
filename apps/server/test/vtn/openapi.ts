/**
 * The OpenADR 3.1 OpenAPI file (`shared/data/openadr3/openadr3-3.1.0.yaml`) as a checker of
 * what goes over the wire: a request's path, query parameters and body, and a response body, are
 * checked against the path's operation and the file's schemas. The test VTN runs every request it
 * gets and every answer and notification it sends through it, so a VEN request the specification
 * does not allow fails the tests, whatever the test VTN itself would tolerate.
 *
 * Two readings of the file (it is inconsistent in two places, which no VTN can satisfy literally):
 * - `ven` and `resource` are `allOf(objectMetadata, BlVenRequest | BlResourceRequest)`, whose
 *   `objectType` enums contradict each other (`VEN` vs `BL_VEN_REQUEST`); the server objects are
 *   checked with the metadata's `objectType` (as the reference VTN answers: `"objectType": "VEN"`).
 * - `discriminator` is documentation here (ajv's discriminator needs `oneOf` with `required` on
 *   each branch): the `oneOf`/`anyOf` branches themselves do the work.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

export const OPENADR_YAML = path.resolve(import.meta.dirname, '../../../../../shared/data/openadr3/openadr3-3.1.0.yaml');

type Json = Record<string, unknown>;

interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Json }[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> } | { $ref: string }>;
}

/** Drop what ajv would read differently from the file's intent (see above). */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    if (k === 'discriminator' || k === 'example') continue;
    out[k] = clean(v);
  }
  return out;
}

export class OpenAdrSpec {
  private readonly doc: {
    paths: Record<string, Record<string, Operation & { parameters?: Operation['parameters'] }>>;
    components: Json;
  };
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(file = OPENADR_YAML) {
    this.doc = clean(parse(fs.readFileSync(file, 'utf8'))) as typeof this.doc;
    const schemas = this.doc.components.schemas as Record<string, Json>;
    for (const name of ['BlVenRequest', 'BlResourceRequest'] as const) {
      const props = schemas[name]!.properties as Json;
      // The server object's objectType is the metadata's (VEN, RESOURCE); requests use VenVenRequest / VenResourceRequest.
      schemas[`${name}Stored`] = {
        ...schemas[name],
        properties: { ...props, objectType: { type: 'string' } },
      };
    }
    schemas.ven = {
      ...schemas.ven,
      allOf: [{ $ref: '#/components/schemas/objectMetadata' }, { $ref: '#/components/schemas/BlVenRequestStored' }],
    };
    schemas.resource = {
      ...schemas.resource,
      allOf: [{ $ref: '#/components/schemas/objectMetadata' }, { $ref: '#/components/schemas/BlResourceRequestStored' }],
    };
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'openadr', components: this.doc.components });
  }

  /** A validator of `#/components/schemas/{name}` or of an inline schema (its $refs into the file). */
  private validator(schema: Json | string): ValidateFunction {
    const key = typeof schema === 'string' ? schema : JSON.stringify(schema);
    let v = this.cache.get(key);
    if (!v) {
      const s =
        typeof schema === 'string'
          ? { $ref: `openadr#/components/schemas/${schema}` }
          : (JSON.parse(key.replaceAll('"#/components/', '"openadr#/components/')) as Json);
      v = this.ajv.compile(s);
      this.cache.set(key, v);
    }
    return v;
  }

  /** Problems of a value against a named schema (empty when it conforms). */
  check(schemaName: string, value: unknown): string[] {
    const v = this.validator(schemaName);
    return v(value) ? [] : (v.errors ?? []).map((e) => `${schemaName}${e.instancePath} ${e.message}`);
  }

  /** The path template and operation of a request, or null when the file has none. */
  operation(method: string, url: string): { template: string; op: Operation } | null {
    const pathname = new URL(url, 'http://x').pathname;
    for (const [template, item] of Object.entries(this.doc.paths)) {
      const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (!re.test(pathname)) continue;
      const op = item[method.toLowerCase()];
      if (!op) return null;
      // Parameters declared on the path item apply to each of its operations.
      const shared = (item as unknown as Operation).parameters ?? [];
      return { template, op: { ...op, parameters: [...shared, ...(op.parameters ?? [])] } };
    }
    return null;
  }

  /** Problems of a request: unknown path or method, query parameters the operation does not name or type, the body. */
  checkRequest(method: string, url: string, body: unknown): string[] {
    const where = `${method} ${url}`;
    const found = this.operation(method, url);
    if (!found) return [`${where}: no such operation in the OpenAPI file`];
    const problems: string[] = [];
    const query = new URL(url, 'http://x').searchParams;
    for (const name of new Set(query.keys())) {
      const p = found.op.parameters?.find((x) => x.in === 'query' && x.name === name);
      if (!p) {
        problems.push(`${where}: query parameter ${name} is not in the operation`);
        continue;
      }
      const schema = p.schema ?? {};
      const raw = query.getAll(name);
      const value =
        schema.type === 'array' ? raw : schema.type === 'integer' || schema.type === 'number' ? Number(raw[0]) : raw[0];
      const v = this.validator(schema);
      if (!v(value)) problems.push(...(v.errors ?? []).map((e) => `${where}: query ${name}${e.instancePath} ${e.message}`));
    }
    const content = found.op.requestBody?.content;
    if (content) {
      const schema = content['application/json']?.schema ?? content['application/x-www-form-urlencoded']?.schema;
      if (schema) {
        const v = this.validator(schema);
        if (!v(body)) problems.push(...(v.errors ?? []).map((e) => `${where}: body${e.instancePath} ${e.message}`));
      }
    }
    return problems;
  }

  /** Problems of a response body against the operation's schema for that status. */
  checkResponse(method: string, url: string, status: number, body: unknown): string[] {
    const found = this.operation(method, url);
    if (!found) return [];
    let res = found.op.responses?.[String(status)];
    if (res && '$ref' in res) {
      const name = res.$ref.split('/').pop()!;
      res = (this.doc.components.responses as Json)[name] as typeof res;
    }
    const schema = res && 'content' in res ? (res.content?.['application/json']?.schema ?? null) : null;
    if (!schema) return [];
    const v = this.validator(schema);
    return v(body) ? [] : (v.errors ?? []).map((e) => `${method} ${url} → ${status}${e.instancePath} ${e.message}`);
  }
}
