/**
 * The day a sample counts in: its plant-local date. Ingest files samples into device_day and
 * plant_day by it, and whatever reads those rows by day (energy totals, curves, incomes) asks the
 * same function, so a sample and its day row always agree on the day.
 */

const QUARTER_HOUR = 900_000;
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const dayBuckets = new Map<string, Map<number, string>>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      format = dayFormat('UTC'); // an unknown zone name in the store: days in UTC rather than no rollups
    }
    dayFormats.set(timeZone, format);
  }
  return format;
}

/**
 * The local date (YYYY-MM-DD) of `ts` in `timeZone`. Every offset and daylight-saving switch in
 * use falls on a quarter hour, so a day is looked up once per zone and quarter hour.
 */
export function localDay(timeZone: string, ts: number): string {
  let buckets = dayBuckets.get(timeZone);
  if (!buckets) {
    buckets = new Map();
    dayBuckets.set(timeZone, buckets);
  }
  const bucket = Math.floor(ts / QUARTER_HOUR);
  let day = buckets.get(bucket);
  if (day === undefined) {
    let y = '';
    let m = '';
    let d = '';
    for (const part of dayFormat(timeZone).formatToParts(ts)) {
      if (part.type === 'year') y = part.value;
      else if (part.type === 'month') m = part.value;
      else if (part.type === 'day') d = part.value;
    }
    day = `${y.padStart(4, '0')}-${m}-${d}`;
    if (buckets.size >= 50_000) buckets.clear();
    buckets.set(bucket, day);
  }
  return day;
}
