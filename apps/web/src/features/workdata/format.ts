/**
 * Operation-data display (times: lib/zonedTime, in the plant's zone): the chart's wall clock,
 * values by their parameter (an enum's label, a number with thousands separators and at most
 * three decimals, text as is, -- when missing), and the chart's bucket width.
 */
import { type DataOf, formatNumber, type workdataApi } from '@sunfleet/contracts';
import { zonedParts } from '../../lib/dateNav.ts';

export type WorkdataParam = DataOf<typeof workdataApi.workdataParams>['params'][number];
export type WorkdataValue = DataOf<typeof workdataApi.workdataDynamic>['list'][number]['values'][number];

/**
 * The wall-clock time of an instant in a zone, as if it were UTC (epoch ms): a chart drawn in UTC
 * then labels its axis in the plant's time.
 */
export function wallClockMs(iso: string, timezone: string): number {
  const p = zonedParts(new Date(iso), timezone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** A value as its parameter shows it. */
export function formatValue(value: WorkdataValue | undefined, param: Pick<WorkdataParam, 'options'> | undefined): string {
  if (value === null || value === undefined) return '--';
  if (param?.options && (typeof value === 'number' || typeof value === 'string')) {
    const label = param.options[String(value)];
    if (label !== undefined) return label;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? formatNumber(Math.round(value * 1000) / 1000) : '--';
  return value;
}

/** A parameter's column or legend title: "Name (unit)". */
export const paramTitle = (p: Pick<WorkdataParam, 'name' | 'unit'>) => (p.unit ? `${p.name} (${p.unit})` : p.name);

/** A bucket width in seconds: "5 min", "2 h", "1 h 30 min", "45 s". */
export function bucketWidth(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}
