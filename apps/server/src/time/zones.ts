/**
 * Time zones: the names a plant may have, what a name the runtime does not list stands for, and
 * a zone's offset from UTC at an instant. Every offset and daylight-saving switch in use falls
 * on a whole quarter hour, so an offset is looked up once per zone and quarter hour.
 */

/** Every zone a plant may have: the IANA zones this runtime knows, and UTC (the default). */
export const knownTimezones: readonly string[] = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
const knownSet: ReadonlySet<string> = new Set(knownTimezones);
export const isKnownTimezone = (tz: string) => knownSet.has(tz);

/**
 * The runtime's name for a zone (links like Asia/Kolkata, US/Eastern or Etc/UTC resolve to the
 * name the runtime lists), or null if it is no zone at all. Plants store this name, so every
 * stored zone is one of `knownTimezones`.
 */
export function canonicalTimezone(tz: string): string | null {
  if (isKnownTimezone(tz)) return tz;
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
    return isKnownTimezone(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

const resolved = new Map<string, string>();
/**
 * The zone to compute in: a known zone itself, a link its zone, anything else (no zone, a name
 * that is no zone) UTC, so that a bad name in the store gives days in UTC rather than no data.
 */
export function zoneOf(tz: string | null | undefined): string {
  if (!tz) return 'UTC';
  if (isKnownTimezone(tz)) return tz;
  let zone = resolved.get(tz);
  if (zone === undefined) {
    zone = canonicalTimezone(tz) ?? 'UTC';
    if (resolved.size >= 1000) resolved.clear();
    resolved.set(tz, zone);
  }
  return zone;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
/** A formatter of every wall-clock field in a zone (24 h), for `formatToParts`; cached per zone. */
export function zonePartsFormatter(timeZone: string): Intl.DateTimeFormat {
  const zone = zoneOf(timeZone);
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(zone, f);
  }
  return f;
}

export const QUARTER_HOUR_MS = 900_000;
const offsets = new Map<string, Map<number, number>>();

/** The zone's offset from UTC at instant `at`, in ms (local = UTC + offset; +3 600 000 for CET). */
export function offsetAt(timeZone: string, at: number): number {
  const zone = zoneOf(timeZone);
  if (zone === 'UTC') return 0;
  let bySlot = offsets.get(zone);
  if (!bySlot) {
    bySlot = new Map();
    offsets.set(zone, bySlot);
  }
  const slot = Math.floor(at / QUARTER_HOUR_MS);
  let offset = bySlot.get(slot);
  if (offset === undefined) {
    const f: Record<string, number> = {};
    for (const p of zonePartsFormatter(zone).formatToParts(slot * QUARTER_HOUR_MS))
      if (p.type !== 'literal') f[p.type] = Number(p.value);
    offset = Date.UTC(f.year!, f.month! - 1, f.day!, f.hour!, f.minute!, f.second!) - slot * QUARTER_HOUR_MS;
    if (bySlot.size >= 200_000) bySlot.clear();
    bySlot.set(slot, offset);
  }
  return offset;
}

/** An offset in minutes as "+05:30" / "-03:00". */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export interface ZoneEntry {
  id: string;
  offset: string;
  offsetMinutes: number;
}
let zoneListCache: { slot: number; list: ZoneEntry[] } | null = null;

/** Every known zone with its offset at `at`, west to east, then by name. */
export function zonesWithOffsets(at = Date.now()): ZoneEntry[] {
  const slot = Math.floor(at / QUARTER_HOUR_MS);
  if (zoneListCache?.slot !== slot) {
    const list = knownTimezones.map((id) => {
      const minutes = Math.round(offsetAt(id, at) / 60_000);
      return { id, offset: offsetText(minutes), offsetMinutes: minutes };
    });
    list.sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.id.localeCompare(b.id));
    zoneListCache = { slot, list };
  }
  return zoneListCache.list;
}
