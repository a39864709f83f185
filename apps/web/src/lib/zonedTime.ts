/**
 * Times that say their zone. Every time the portal shows is read in a named IANA zone — the
 * plant's on plant and device pages, the browser's (named) on lists across plants — and says
 * which: "2026-05-20 10:00 (Europe/Madrid)", or a column header "Started (Europe/Madrid)" over
 * bare times. Dates are written YYYY-MM-DD HH:mm[:ss] in every language (the date filters'
 * order); the language gives the zone's long name in titles ("hora de verano de Europa central").
 * An unknown zone name is read as UTC and labelled UTC, never silently as the browser's.
 */

const pad = (n: number) => String(n).padStart(2, '0');

let ownZone: string | null = null;
/** The browser's IANA zone, UTC when it has none; read once (a formatter per call costs a render). */
export function browserZone(): string {
  if (ownZone === null) {
    try {
      ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      ownZone = 'UTC';
    }
  }
  return ownZone;
}

const known = new Map<string, boolean>();
/** `zone` when the runtime knows it, else UTC. */
export function checkedZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  let ok = known.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    known.set(zone, ok);
  }
  return ok ? zone : 'UTC';
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** One wall-clock formatter per zone and language for the page's life (building one costs far more than using it). */
export function wallClock(zone: string, locale: string): Intl.DateTimeFormat {
  const key = `${zone}|${locale}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      numberingSystem: 'latn',
    });
    formats.set(key, f);
  }
  return f;
}

export interface ZonedOptions {
  /** Show seconds (default no). */
  seconds?: boolean;
  /** Append " (zone)" (default yes); leave it out only under a header that names the zone. */
  label?: boolean;
  /** Only the time of day (HH:mm[:ss]), for a page that shows the day elsewhere. */
  timeOnly?: boolean;
}

const toDate = (at: string | number | Date | null | undefined): Date | null => {
  if (at === null || at === undefined || at === '') return null;
  const d = at instanceof Date ? at : new Date(at);
  return Number.isNaN(d.getTime()) ? null : d;
};

/**
 * An instant as the wall clock of `zone` shows it: "2026-05-20 10:00 (Europe/Madrid)"; -- when
 * missing or unreadable.
 */
export function formatZoned(
  at: string | number | Date | null | undefined,
  zone: string | null | undefined,
  locale: string,
  options: ZonedOptions = {},
): string {
  const d = toDate(at);
  if (!d) return '--';
  const tz = checkedZone(zone);
  const parts = wallClock(tz, locale).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const time = `${pad(get('hour') % 24)}:${pad(get('minute'))}${options.seconds ? `:${pad(get('second'))}` : ''}`;
  const text = options.timeOnly ? time : `${get('year')}-${pad(get('month'))}-${pad(get('day'))} ${time}`;
  return options.label === false ? text : `${text} (${tz})`;
}

/** A header or caption over times read in `zone`: "Started (Europe/Madrid)". */
export const withZone = (title: string, zone: string | null | undefined) => `${title} (${checkedZone(zone)})`;

/** UTC offset of a zone at an instant: "UTC+02:00", "UTC". */
export function zoneOffset(zone: string | null | undefined, at: Date = new Date()): string {
  const tz = checkedZone(zone);
  const parts = wallClock(tz, 'en').formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  const minutes = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The zone spelled out for a title: "Europe/Madrid — Central European Summer Time, UTC+02:00"
 * in the language, at `at` (daylight saving changes the name and the offset).
 */
export function describeZone(zone: string | null | undefined, locale: string, at: Date = new Date()): string {
  const tz = checkedZone(zone);
  let name = '';
  try {
    name =
      new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: 'long' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    name = '';
  }
  const offset = zoneOffset(tz, at);
  return name && name !== tz ? `${tz} — ${name}, ${offset}` : `${tz}, ${offset}`;
}
