/**
 * Arbitraries derived from a contract's JSON schema (the typebox schemas are JSON Schema):
 * `valid` honours type, const, anyOf/allOf, min/max, lengths, patterns, formats, required and
 * optional properties, pattern properties and array bounds; `malformed` breaks one rule of the
 * schema at a time (a wrong type, a bound crossed by one, a huge or unicode string, a non-finite
 * number, an extra property, deep nesting). `hints` give values by property name: the ids and
 * serial numbers that exist (own, another tenant's, none), so that valid input reaches the handlers.
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  patternProperties?: Record<string, Schema>;
};

/** A number written as its JSON text (1e309 parses as Infinity, -0, 1e-400): kept raw by `jsonText`. */
export class RawNumber {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

/** JSON text of a value whose RawNumbers are written as they are. */
export function jsonText(value: unknown): string {
  if (value instanceof RawNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type Hints = (name: string, schema: Schema) => fc.Arbitrary<unknown> | undefined;

/** Longest string a valid value gets where the schema sets no bound. */
const FREE_LENGTH = 40;

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

function regexOf(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

/** The pattern's strings up to `max` long, or of any length where the pattern needs longer ones. */
function matching(re: RegExp, max: number): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(re, { maxLength: max });
  } catch {
    return fc.stringMatching(re);
  }
}

function validString(s: Schema): fc.Arbitrary<string> {
  const min = num(s.minLength) ?? 0;
  const max = Math.max(min, Math.min(num(s.maxLength) ?? FREE_LENGTH, 200));
  if (s.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (s.format === 'email') return fc.emailAddress();
  // A calendar day: a real one (the handlers check the calendar, not just the digits).
  if (s.pattern === '^[0-9]{4}-[0-9]{2}-[0-9]{2}$') {
    return fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  const re = typeof s.pattern === 'string' ? regexOf(s.pattern) : null;
  if (re) {
    // The pattern's own strings, cut to the length bounds; one that no longer matches is kept whole.
    return matching(re, max).map((v) =>
      v.length >= min && v.length <= max ? v : v.length > max && re.test(v.slice(0, max)) ? v.slice(0, max) : v,
    );
  }
  return fc.oneof(
    fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii' }),
    fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }).filter((v) => v.length <= max),
  );
}

function validNumber(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = num(s.minimum) ?? (num(s.exclusiveMinimum) !== undefined ? (s.exclusiveMinimum as number) + 1 : undefined);
  const hi = num(s.maximum) ?? (num(s.exclusiveMaximum) !== undefined ? (s.exclusiveMaximum as number) - 1 : undefined);
  const step = num(s.multipleOf);
  const bounds = [lo, hi].filter((v): v is number => v !== undefined);
  const edges = fc.constantFrom(...(bounds.length ? bounds : [0]));
  if (integer || step) {
    const unit = step ?? 1;
    const min = Math.ceil((lo ?? -(2 ** 31)) / unit);
    const max = Math.floor((hi ?? 2 ** 31 - 1) / unit);
    return fc.oneof({ arbitrary: edges, weight: 1 }, { arbitrary: fc.integer({ min, max }).map((n) => n * unit), weight: 3 });
  }
  // Hundredths: what the API's amounts hold (at most two decimals).
  const cents = fc.integer({ min: Math.ceil((lo ?? -1e9) * 100), max: Math.floor((hi ?? 1e9) * 100) }).map((n) => n / 100);
  return fc.oneof({ arbitrary: edges, weight: 1 }, { arbitrary: cents, weight: 3 });
}

function objectParts(s: Schema, hints: Hints, depth: number) {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, p] of Object.entries(props)) model[name] = valid(p, hints, depth + 1, name);
  return { props, required, model };
}

/** Arbitraries made once per hints, kind, property name and schema (building one from a pattern is slow). */
const made = new WeakMap<Hints, Map<string, fc.Arbitrary<unknown>>>();
function memo<T>(kind: string, s: Schema, hints: Hints, name: string, build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  const cache = made.get(hints) ?? new Map<string, fc.Arbitrary<unknown>>();
  made.set(hints, cache);
  const key = `${kind}|${name}|${JSON.stringify(s)}`;
  const arb = cache.get(key) ?? build();
  cache.set(key, arb);
  return arb as fc.Arbitrary<T>;
}

/** A value the schema accepts (as near as the generator gets: a pattern cut to length may not be). */
export function valid(s: Schema, hints: Hints, depth = 0, name = ''): fc.Arbitrary<unknown> {
  return memo('valid', s, hints, name, () => buildValid(s, hints, depth, name));
}

function buildValid(s: Schema, hints: Hints, depth: number, name: string): fc.Arbitrary<unknown> {
  const hinted = name ? hints(name, s) : undefined;
  if (hinted) return hinted;
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.anyOf) return fc.oneof(...s.anyOf.map((b) => valid(b, hints, depth, name)));
  if (s.allOf) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of s.allOf) {
      Object.assign(merged.properties as object, part.properties ?? {});
      (merged.required as string[]).push(...(part.required ?? []));
    }
    return valid(merged, hints, depth, name);
  }
  const ts = types(s);
  if (ts.length > 1) return fc.oneof(...ts.map((t) => valid({ ...s, type: t }, hints, depth, name)));
  switch (ts[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return validNumber(s, true);
    case 'number':
      return validNumber(s, false);
    case 'string':
      return validString(s);
    case 'array': {
      const item = s.items ? valid(s.items, hints, depth + 1, name) : fc.jsonValue({ maxDepth: 1 });
      const minLength = num(s.minItems) ?? 0;
      const maxLength = Math.max(minLength, Math.min(num(s.maxItems) ?? 4, 6));
      return s.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object': {
      const { required, model } = objectParts(s, hints, depth);
      const fixed = fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)) });
      const patterns = Object.entries(s.patternProperties ?? {});
      if (!patterns.length) return fixed;
      const maxKeys = Math.min(num(s.maxProperties) ?? 3, 3);
      const dicts = patterns.map(([p, v]) => {
        const re = regexOf(p);
        return fc.dictionary(re ? matching(re, 24) : fc.string(), valid(v, hints, depth + 1), { maxKeys });
      });
      return fc.tuple(fixed, ...dicts).map(([f, ...ds]) => Object.assign({}, ...ds, f));
    }
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values of the wrong JSON type for a schema of type `t`. */
function wrongType(ts: string[]): fc.Arbitrary<unknown> {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.constantFrom('', 'x', 'true', '1', '-1', '1e309', 'NaN', 'null', '[]', '{}')],
    ['number', fc.constantFrom(0, -1, 1.5, 2 ** 53 + 2, -(2 ** 63))],
    ['integer', fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 2, 2 ** 63, 1e30)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.constantFrom([], [1], ['a', 'b'], [[[]]])],
    ['object', fc.constantFrom({}, { a: 1 }, { ['__proto__']: { admin: true } }, { constructor: { prototype: {} } })],
  ];
  const others = all.filter(([t]) => !ts.includes(t) && !(t === 'integer' && ts.includes('number')));
  return fc.oneof(...others.map(([, a]) => a));
}

/** A huge string, control characters, lone surrogates, right-to-left and emoji, SQL and path fragments. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    'x'.repeat(70_000),
    '\u0000',
    '\ud800',
    '\udfff\ud800',
    '‮evil',
    '🦄'.repeat(40),
    "' OR 1=1 --",
    '../../etc/passwd',
    '%00%2e%2e',
    '\r\nX-Injected: 1',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as it is
    '${7*7}{{7*7}}',
    ' ',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
);

/** Non-finite and out-of-range numbers, as JSON text. */
export const nastyNumber = fc.constantFrom(
  new RawNumber('1e309'),
  new RawNumber('-1e309'),
  new RawNumber('-0'),
  new RawNumber('1e-400'),
  new RawNumber('9007199254740993'),
  new RawNumber('123456789012345678901234567890'),
);

/** JSON nested `depth` levels deep (arrays or objects). */
export function deepJson(depth: number, objects: boolean): string {
  return objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** A value that breaks one rule of the schema. */
export function malformed(s: Schema, hints: Hints, depth = 0): fc.Arbitrary<unknown> {
  return memo(`malformed${depth}`, s, hints, '', () => buildMalformed(s, hints, depth));
}

function buildMalformed(s: Schema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const ts = types(s);
  const out: fc.Arbitrary<unknown>[] = [wrongType(ts), nastyString, nastyNumber];
  const minLength = num(s.minLength);
  const maxLength = num(s.maxLength);
  if (minLength && minLength > 0) out.push(fc.constant('a'.repeat(minLength - 1)));
  if (maxLength !== undefined) out.push(fc.constant('a'.repeat(maxLength + 1)));
  // Past the store's integers: 2^63 and beyond, where no maximum stops them.
  if ((ts.includes('integer') || ts.includes('number')) && num(s.maximum) === undefined) {
    out.push(fc.constantFrom(2 ** 63, 1e30, 2 ** 53 + 2));
  }
  for (const bound of [num(s.minimum), num(s.maximum)]) {
    if (bound !== undefined) out.push(fc.constantFrom(bound - 1, bound + 1, bound - 0.5, bound + 0.5));
  }
  if (ts.includes('array') && s.items) {
    out.push(fc.array(malformed(s.items, hints, depth + 1), { minLength: 1, maxLength: 3 }));
    out.push(fc.constant(Array.from({ length: (num(s.maxItems) ?? 1000) + 1 }, () => 1)));
  }
  if (ts.includes('object') && s.properties && depth < 3) out.push(malformedObject(s, hints, depth));
  if (s.anyOf && depth < 3) out.push(...s.anyOf.slice(0, 3).map((b) => malformed(b, hints, depth + 1)));
  return fc.oneof(...out);
}

/** An object of the schema with one property broken, one required missing, or extra properties. */
export function malformedObject(s: Schema, hints: Hints, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  return memo(`object${depth}`, s, hints, '', () => buildMalformedObject(s, hints, depth));
}

function buildMalformedObject(s: Schema, hints: Hints, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.keys(s.properties ?? {});
  const base = valid(s, hints, depth) as fc.Arbitrary<Record<string, unknown>>;
  const variants: fc.Arbitrary<Record<string, unknown>>[] = [
    // Extra properties, including the prototype's names.
    base.map((v) => ({ ...(v ?? {}), fuzzExtra: 'x', ['__proto__']: { polluted: 1 }, constructor: 'x' })),
  ];
  if (props.length) {
    variants.push(
      fc
        .tuple(base, fc.constantFrom(...props))
        .chain(([v, k]) => malformed(s.properties![k]!, hints, depth + 1).map((bad) => ({ ...(v ?? {}), [k]: bad }))),
    );
  }
  const required = s.required ?? [];
  if (required.length) {
    variants.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([v, k]) => {
        const copy = { ...(v ?? {}) };
        delete copy[k];
        return copy;
      }),
    );
  }
  return fc.oneof(...variants);
}
