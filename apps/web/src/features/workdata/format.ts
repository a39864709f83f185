/**
 * Operation-data display (times: lib/zonedTime, in the plant's zone): the chart's wall clock,
 * values by their parameter (an enum's label, a number with thousands separators and at most
 * three decimals, a °C parameter in the user's temperature unit, text as is, -- when missing),
 * titles (signed power with its convention), and the chart's bucket width.
 */
import type { DataOf, workdataApi } from '@sunfleet/contracts';
import type { SignedFlow } from '../../lib/chart.ts';
import { zonedParts } from '../../lib/dateNav.ts';
import { displayed, displayUnit, formatNumber } from '../../lib/format.ts';

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

/** A value as its parameter shows it (a °C parameter's in the user's temperature unit). */
export function formatValue(
  value: WorkdataValue | undefined,
  param: (Pick<WorkdataParam, 'options'> & Partial<Pick<WorkdataParam, 'unit'>>) | undefined,
): string {
  if (value === null || value === undefined) return '--';
  if (param?.options && (typeof value === 'number' || typeof value === 'string')) {
    const label = param.options[String(value)];
    if (label !== undefined) return label;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '--';
    return formatNumber(Math.round(displayed(value, param?.unit).value * 1000) / 1000);
  }
  return value;
}

/** The words of the one sign convention per signed power ("+ import / − export"), in the interface language. */
export type SignNotes = Readonly<Record<SignedFlow, string>>;

/**
 * A parameter's column or picker title: "Name (unit)", a °C parameter's in the user's unit; signed
 * power names the convention its values are in: "Grid power (W, + import / − export)".
 */
export function paramTitle(p: Pick<WorkdataParam, 'name' | 'unit' | 'flow'>, signs: SignNotes): string {
  const notes = [p.unit ? displayUnit(p.unit) : null, p.flow ? signs[p.flow] : null].filter(Boolean);
  return notes.length > 0 ? `${p.name} (${notes.join(', ')})` : p.name;
}

type ChartData = DataOf<typeof workdataApi.workdataChart>;

/** A chart's data with its °C parameters (units and values) in the user's temperature unit. */
export function chartInDisplayUnits(data: ChartData): ChartData {
  const unitOf = new Map(data.params.map((p) => [p.key, p.unit]));
  const convert = (unit: string | null | undefined) => (values: ReadonlyArray<number | null>) =>
    values.map((v) => (v === null ? null : displayed(v, unit).value));
  return {
    ...data,
    params: data.params.map((p) => ({ ...p, unit: displayUnit(p.unit) ?? null })),
    series: data.series.map((s) => {
      const to = convert(unitOf.get(s.key));
      return { ...s, avg: to(s.avg), min: to(s.min), max: to(s.max) };
    }),
  };
}

/** A bucket width in seconds: "5 min", "2 h", "1 h 30 min", "45 s". */
export function bucketWidth(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}
