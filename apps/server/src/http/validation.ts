/**
 * Schema-validation errors → one human sentence naming the field and the rule, e.g.
 * "body.account must be a valid e-mail address". Ajv's own texts dump regular expressions
 * and "must be equal to constant"; a client (and the person reading the toast) needs the rule.
 */
import {
  CODE_PATTERN,
  EMAIL_PATTERN,
  FORBIDDEN_CHARS,
  type Language,
  PASSWORD_PATTERN,
  safeTextPattern,
} from '@sunfleet/contracts';

/** The parts of an Ajv error used here (Fastify passes Ajv's errors through, `verbose` on). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** With Ajv's `verbose`: the failing keyword's schema value and the data at instancePath. */
  schema?: unknown;
  data?: unknown;
}

type Texts = Record<Language, string>;
// The ASCII forbidden characters; their full-width twins are refused as well.
const forbiddenShown = [...FORBIDDEN_CHARS.replace(/[^\x21-\x7e]/g, '')].join(' ');

const patternRules: Record<string, Texts> = {
  [EMAIL_PATTERN]: { en: 'must be a valid e-mail address', es: 'debe ser una dirección de correo electrónico válida' },
  [PASSWORD_PATTERN]: {
    en: 'must be 6 to 16 characters without spaces',
    es: 'debe tener de 6 a 16 caracteres sin espacios',
  },
  [CODE_PATTERN]: { en: 'must be 6 digits', es: 'debe tener 6 dígitos' },
  [safeTextPattern]: {
    en: `must not contain any of these characters: ${forbiddenShown}`,
    es: `no debe contener ninguno de estos caracteres: ${forbiddenShown}`,
  },
};

const typeNames: Record<string, Texts> = {
  integer: { en: 'an integer', es: 'un número entero' },
  number: { en: 'a number', es: 'un número' },
  string: { en: 'text', es: 'un texto' },
  boolean: { en: 'true or false', es: 'verdadero o falso' },
  object: { en: 'an object', es: 'un objeto' },
  array: { en: 'a list', es: 'una lista' },
  null: { en: 'empty', es: 'vacío' },
};

const show = (v: unknown) => (v === null ? 'null' : String(v));

function rule(e: SchemaError, lan: Language): string {
  const p = e.params;
  const es = lan === 'es';
  switch (e.keyword) {
    case 'required':
      return es ? 'es obligatorio' : 'is required';
    case 'additionalProperties':
      return es ? 'no está permitido' : 'is not allowed';
    case 'pattern':
      return patternRules[String(p.pattern)]?.[lan] ?? (es ? 'tiene un formato no válido' : 'has an invalid format');
    case 'minLength':
      if (p.limit === 1) return es ? 'no puede estar vacío' : 'must not be empty';
      return es ? `debe tener al menos ${p.limit} caracteres` : `must be at least ${p.limit} characters`;
    case 'maxLength':
      return es ? `debe tener como máximo ${p.limit} caracteres` : `must be at most ${p.limit} characters`;
    case 'minimum':
      return es ? `debe ser como mínimo ${p.limit}` : `must be at least ${p.limit}`;
    case 'maximum':
      return es ? `debe ser como máximo ${p.limit}` : `must be at most ${p.limit}`;
    case 'minItems':
      return es ? `debe tener al menos ${p.limit} elementos` : `must have at least ${p.limit} items`;
    case 'maxItems':
      return es ? `debe tener como máximo ${p.limit} elementos` : `must have at most ${p.limit} items`;
    case 'type': {
      const name = typeNames[String(p.type)]?.[lan] ?? String(p.type);
      return es ? `debe ser ${name}` : `must be ${name}`;
    }
    case 'const':
      return es ? `debe ser ${show(p.allowedValue)}` : `must be ${show(p.allowedValue)}`;
    case 'enum': {
      const values = (p.allowedValues as unknown[]).map(show).join(', ');
      return es ? `debe ser uno de: ${values}` : `must be one of: ${values}`;
    }
    case 'finite':
      return es ? 'debe ser un número finito' : 'must be a finite number';
    case 'format':
      return es ? `debe ser un ${p.format} válido` : `must be a valid ${p.format}`;
    default:
      return e.message ?? (es ? 'no es válido' : 'is invalid');
  }
}

const field = (where: string, e: SchemaError) => {
  const name = (e.params.missingProperty ?? e.params.additionalProperty) as string | undefined;
  return [where, ...e.instancePath.split('/').filter(Boolean), name].filter(Boolean).join('.');
};

type BranchSchema = { properties?: Record<string, { const?: unknown }> };

/**
 * An `anyOf` (a union) fails with one error per branch. Report what the client most likely
 * meant: for a union of constants, the list of allowed values; for a union of objects told
 * apart by a constant property (`grant_type`), the errors of the branch the data names, or
 * the allowed values of that property when it names none.
 */
function explainUnion(errors: SchemaError[], first: SchemaError, where: string, lan: Language): Finding | null {
  const at = first.schemaPath.lastIndexOf('/anyOf/');
  if (at < 0) return null;
  const prefix = first.schemaPath.slice(0, at + '/anyOf'.length);
  const union = errors.find((e) => e.schemaPath === prefix && e.keyword === 'anyOf');
  const branchErrors = errors.filter((e) => e.schemaPath.startsWith(`${prefix}/`));
  const values = branchErrors.flatMap((e) =>
    e.keyword === 'const' ? [show(e.params.allowedValue)] : e.keyword === 'type' && e.params.type === 'null' ? ['null'] : [],
  );
  if (values.length === branchErrors.length && values.length > 0) {
    const list = [...new Set(values)].join(', ');
    return { field: field(where, first), rule: lan === 'es' ? `debe ser uno de: ${list}` : `must be one of: ${list}` };
  }
  const branches = Array.isArray(union?.schema) ? (union.schema as BranchSchema[]) : null;
  const data = union?.data;
  if (!branches || typeof data !== 'object' || data === null) return null;
  const constKeys = (b: BranchSchema) =>
    Object.entries(b.properties ?? {}).filter(([, s]) => s && typeof s === 'object' && 'const' in s);
  const discriminator = constKeys(branches[0] ?? {})[0]?.[0];
  if (!discriminator) return null;
  const given = (data as Record<string, unknown>)[discriminator];
  const chosen = branches.findIndex((b) => b.properties?.[discriminator]?.const === given);
  if (chosen >= 0) {
    const own = errors.find((e) => e.schemaPath.startsWith(`${prefix}/${chosen}/`));
    if (own) return { field: field(where, own), rule: rule(own, lan) };
  }
  const list = branches.map((b) => show(b.properties?.[discriminator]?.const)).join(', ');
  const name = [where, ...(union?.instancePath ?? '').split('/').filter(Boolean), discriminator].join('.');
  return { field: name, rule: lan === 'es' ? `debe ser uno de: ${list}` : `must be one of: ${list}` };
}

/** The field a validation failure names (`body.account`) and its rule. */
interface Finding {
  field: string;
  rule: string;
}

function finding(errors: SchemaError[], where: string, lan: Language): Finding | null {
  const first = errors[0];
  return first ? (explainUnion(errors, first, where, lan) ?? { field: field(where, first), rule: rule(first, lan) }) : null;
}

/** "body.account must be a valid e-mail address" (without the "Invalid input" prefix). */
export function describeValidation(errors: SchemaError[], context: string | undefined, lan: Language): string {
  const where = context ?? 'input';
  const found = finding(errors, where, lan);
  return found ? `${found.field} ${found.rule}` : where;
}

/**
 * The fields the message names, as paths inside the request part (`account`, `profiles.0.name`):
 * none when the part as a whole is wrong (a body that is not an object).
 */
export function validationFields(errors: SchemaError[], context: string | undefined): string[] {
  const where = context ?? 'input';
  const named = finding(errors, where, 'en')?.field ?? where;
  return named.startsWith(`${where}.`) ? [named.slice(where.length + 1)] : [];
}

/** A path inside a request part, written with the part (`body.name`, `query.endDate`, `body.profiles/0/name`). */
const partPath = '(?:body|query|querystring|params)\\.[\\w./]+';
/** A handler's detail that starts with a path (and maybe a second: `query.startDate and query.endDate …`) or `field:`. */
const leadingPaths = new RegExp(`^(${partPath}|[A-Za-z]\\w*(?=:))(?:\\s+and\\s+(${partPath}))?`);
/** A detail that starts with a part's name (`query: the range …`) names no field. */
const partNames = new Set(['body', 'query', 'querystring', 'params']);

/**
 * The fields a handler's code-4 detail names: the path it starts with, when a request part
 * (`body.name must …`, `query.startDate and query.endDate …`) or a colon (`name: taken`) marks it;
 * `/` in a path (`body.profiles/0/name`) is written as `.`.
 */
export function detailFields(detail: string): string[] {
  const lead = leadingPaths.exec(detail);
  if (!lead) return [];
  return [lead[1], lead[2]]
    .filter((path): path is string => !!path && !partNames.has(path))
    .map((path) =>
      path
        .replace(/^(?:body|query|querystring|params)\./, '')
        .replace(/\//g, '.')
        .replace(/\.$/, ''),
    )
    .filter((path) => path !== '');
}
