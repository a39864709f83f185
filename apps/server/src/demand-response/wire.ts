/**
 * OpenADR 3 objects as the VEN reads them, made uniform whatever the VTN sent: keys in camelCase
 * (a VTN may send snake_case: `program_id`, `interval_period`), a body that is a JSON-encoded
 * string of the object decoded, timestamps with a space instead of `T` and without an offset read
 * as UTC, ISO 8601 durations in milliseconds.
 */

export interface IntervalPeriod {
  start?: string | null;
  duration?: string | null;
  randomizeStart?: string | null;
}
export interface ValuesMap {
  type: string;
  values: unknown[];
}
export interface OadrInterval {
  id: number;
  intervalPeriod?: IntervalPeriod | null;
  payloads: ValuesMap[];
}
export interface PayloadDescriptor {
  payloadType: string;
  units?: string | null;
  objectType?: string;
}
export interface ReportDescriptor {
  payloadType: string;
  readingType?: string | null;
  units?: string | null;
  aggregate?: boolean;
}
export interface OadrProgram {
  id: string;
  programName: string;
  createdDateTime?: string;
  modificationDateTime?: string;
  intervalPeriod?: IntervalPeriod | null;
  programDescriptions?: { URL: string }[] | null;
  attributes?: ValuesMap[] | null;
  targets?: string[] | null;
}
export interface OadrEvent {
  id: string;
  programID: string;
  eventName?: string | null;
  createdDateTime?: string;
  modificationDateTime?: string;
  priority?: number | null;
  duration?: string | null;
  targets?: string[] | null;
  payloadDescriptors?: PayloadDescriptor[] | null;
  reportDescriptors?: ReportDescriptor[] | null;
  intervalPeriod?: IntervalPeriod | null;
  intervals: OadrInterval[];
}
export interface OadrNotification {
  objectType: string;
  operation: string;
  object: Record<string, unknown>;
  targets?: string[] | null;
}

/** Keys that keep their spelling: the spec's own capitalised ids. */
const KEEP = new Set(['programID', 'eventID', 'venID', 'resourceID', 'clientID', 'subscriptionID', 'URL']);
/** snake_case spellings of the spec's `…ID` keys. */
const ID_KEYS: Record<string, string> = {
  program_id: 'programID',
  event_id: 'eventID',
  ven_id: 'venID',
  resource_id: 'resourceID',
  client_id: 'clientID',
  subscription_id: 'subscriptionID',
  url: 'URL',
};

const camel = (key: string) =>
  ID_KEYS[key] ?? (KEEP.has(key) ? key : key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

/** A key-by-key copy with camelCase keys; arrays and values as they are. */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = camel(k);
    // `values` of a payload are data, not objects with keys to rename (points keep x, y anyway).
    out[key] = key === 'values' ? v : camelKeys(v);
  }
  return out;
}

/** A body as received: an object, or a JSON text of one (possibly JSON-encoded twice). */
export function decodeBody(body: unknown): unknown {
  let value = body;
  for (let i = 0; i < 3 && typeof value === 'string'; i++) {
    const text = value.trim();
    if (text === '') return null;
    value = JSON.parse(text);
  }
  if (Buffer.isBuffer(value)) return decodeBody(value.toString('utf8'));
  return camelKeys(value);
}

/** A notification body, whatever its encoding; null when it is not one. */
export function parseNotification(body: unknown): OadrNotification | null {
  let value: unknown;
  try {
    value = decodeBody(body);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const n = value as Partial<OadrNotification>;
  if (typeof n.objectType !== 'string' || typeof n.operation !== 'string' || !n.object || typeof n.object !== 'object')
    return null;
  return {
    objectType: n.objectType.toUpperCase(),
    operation: n.operation.toUpperCase(),
    object: n.object,
    targets: n.targets ?? null,
  };
}

/** "The beginning of time": an interval start that means "now" or "right after the previous one". */
export const isZeroStart = (text: string | null | undefined) => !!text && /^0001-01-01/.test(text.trim());

/**
 * An RFC 3339 timestamp to epoch ms, tolerating a space for `T` and a missing offset (UTC);
 * null when it is not a timestamp.
 */
export function parseInstant(text: string | null | undefined): number | null {
  if (!text) return null;
  let t = text.trim();
  const m = t.match(/^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/);
  if (!m) return null;
  const [, date, time = '00:00:00', zone] = m;
  let offset = zone ?? 'Z';
  if (/^[+-]\d{2}$/.test(offset)) offset += ':00';
  else if (/^[+-]\d{4}$/.test(offset)) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
  t = `${date}T${time.length === 5 ? `${time}:00` : time}${offset.toUpperCase()}`;
  // Year 0001 is outside what Date.parse reads in every engine: it means "the beginning of time".
  if (date!.startsWith('0001-')) return Number.MIN_SAFE_INTEGER;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : ms;
}

/** P9999Y and longer: "for ever". */
export const FOREVER_MS = 9999 * 365.25 * 86_400_000;

/**
 * An ISO 8601 duration (the spec's pattern: years, months, weeks or days, hours, minutes,
 * seconds) in ms; years as 365.25 days and months as 30 days (the spec advises against months).
 * Null when it is not a duration.
 */
export function parseDuration(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = text
    .trim()
    .match(/^(-?)P(?=\d|T\d)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)([DW]))?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/);
  if (!m) return null;
  const [, sign, y, mo, d, dw, h, mi, s] = m;
  const n = (v: string | undefined) => (v ? Number(v) : 0);
  const ms =
    n(y) * 365.25 * 86_400_000 +
    n(mo) * 30 * 86_400_000 +
    n(d) * (dw === 'W' ? 7 : 1) * 86_400_000 +
    n(h) * 3_600_000 +
    n(mi) * 60_000 +
    n(s) * 1000;
  return sign === '-' ? -ms : ms;
}

/** ms as an ISO 8601 duration (hours, minutes, seconds). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A program from the VTN, or null when the object is not one. */
export function asProgram(value: unknown): OadrProgram | null {
  const v = camelKeys(value);
  if (!isObject(v) || v.id === undefined || typeof v.programName !== 'string') return null;
  return { ...(v as unknown as OadrProgram), id: String(v.id) };
}

/** An event from the VTN, or null when the object is not one. */
export function asEvent(value: unknown): OadrEvent | null {
  const v = camelKeys(value);
  if (!isObject(v) || v.id === undefined || v.programID === undefined) return null;
  const intervals = Array.isArray(v.intervals) ? (v.intervals as OadrInterval[]) : [];
  return {
    ...(v as unknown as OadrEvent),
    id: String(v.id),
    programID: String(v.programID),
    intervals: intervals.map((i, n) => ({
      ...i,
      id: typeof i.id === 'number' ? i.id : n,
      payloads: Array.isArray(i.payloads) ? i.payloads : [],
    })),
  };
}
