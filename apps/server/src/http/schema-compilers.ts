/**
 * Fastify compiles a request validator (Ajv) and a reply serializer (fast-json-stringify) for
 * every route's schemas when an app is built: about 3 s of CPU for the whole API. The contracts'
 * schemas are the same in every app of one process, so each distinct schema is compiled once per
 * process and its function shared by every app built after (a test file builds its own app;
 * a production process builds one, and gains nothing but loses nothing).
 *
 * A compiled function depends on the schema, the part of the request it checks, the shared
 * schemas of the app (`addSchema`) and the compiler options: all four make its key. The schema
 * is keyed by its JSON text, because routes build their reply schemas anew for each app.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler, FastifyServerOptions } from 'fastify';

type ValidatorBuilder = (externalSchemas: unknown, options: unknown) => FastifySchemaCompiler<FastifySchema>;
type SerializerBuilder = (externalSchemas: unknown, options: unknown) => FastifySerializerCompiler<FastifySchema>;

/** Ajv's own pool: one Ajv per set of shared schemas and options, for the whole process. */
const ajvPool = AjvCompiler() as unknown as ValidatorBuilder;
const fjsFactory = SerializerSelector() as unknown as SerializerBuilder;

const validators = new Map<string, ReturnType<FastifySchemaCompiler<FastifySchema>>>();
const serializers = new Map<string, ReturnType<FastifySerializerCompiler<FastifySchema>>>();

/** The options as text: functions (Ajv plugins) by name, so equal options give equal keys. */
const optionsKey = (schemas: unknown, options: unknown) =>
  JSON.stringify([schemas, options], (_k, v) => (typeof v === 'function' ? `fn:${v.name}` : v));

const buildValidator: ValidatorBuilder = (externalSchemas, options) => {
  const compile = ajvPool(externalSchemas, options);
  const context = optionsKey(externalSchemas, options);
  return (route) => {
    const key = `${context}|${route.httpPart}|${JSON.stringify(route.schema)}`;
    let fn = validators.get(key);
    if (!fn) {
      fn = compile(route);
      validators.set(key, fn);
    }
    return fn;
  };
};

const buildSerializer: SerializerBuilder = (externalSchemas, options) => {
  const compile = fjsFactory(externalSchemas, options);
  const context = optionsKey(externalSchemas, options);
  return (route) => {
    const key = `${context}|${JSON.stringify(route.schema)}`;
    let fn = serializers.get(key);
    if (!fn) {
      fn = compile(route);
      serializers.set(key, fn);
    }
    return fn;
  };
};

/** Fastify's `schemaController` option with the process-wide compilers. */
export const sharedSchemaCompilers: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator, buildSerializer } as NonNullable<
    NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
  >,
};
