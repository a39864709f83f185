/**
 * Overview figures on top of the contracts' formatters (spec §9: kW/MW scaling, thousands
 * separators, -- for a missing value): power, energy, money, CO₂, rates and measurements, and
 * the unit a chart axis takes from its largest value.
 */
import { formatNumber, formatPower } from '@sunfleet/contracts';
import { formatEnergy as formatEnergyRaw } from '../plants/format.ts';

const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !Number.isFinite(v);

/** Power in W, by the spec's rule (rounded to whole watts first: averages carry decimals). */
export const formatWatts = (w: number | null | undefined) => (missing(w) ? '--' : formatPower(Math.round(w)));

/** Energy in Wh → Wh, kWh or MWh by the same rule. */
export const formatWh = (wh: number | null | undefined) => (missing(wh) ? '--' : formatEnergyRaw(Math.round(wh)));

/** Money with two decimals and the currency code; -- without a value. */
export function formatMoney(value: number | null | undefined, currency: string | null | undefined): string {
  if (missing(value)) return '--';
  const text = formatNumber(Math.round(value * 100) / 100, 2);
  return currency ? `${text} ${currency}` : text;
}

/** CO₂ mass: kg with one decimal below a tonne, tonnes with two above. */
export function formatCo2(kg: number | null | undefined): string {
  if (missing(kg)) return '--';
  if (Math.abs(kg) >= 1000) return `${formatNumber(kg / 1000, 2)} t`;
  return `${formatNumber(kg, 1)} kg`;
}

/** A 0–1 ratio as a percentage with one decimal. */
export const formatRate = (ratio: number | null | undefined) => (missing(ratio) ? '--' : `${formatNumber(ratio * 100, 1)} %`);

/** A measurement with a unit and fixed decimals (temperatures, wind, irradiance). */
export function formatMeasure(value: number | null | undefined, unit: string, decimals = 1): string {
  if (missing(value)) return '--';
  return `${formatNumber(value, decimals)} ${unit}`;
}

export interface AxisUnit {
  /** Divide raw values (W or Wh) by this. */
  divisor: number;
  unit: string;
}

/** The unit of a chart axis from its largest magnitude, by the spec's power rule (3–5 digits k, 6+ M). */
export function axisUnit(maxAbs: number, base: 'W' | 'Wh'): AxisUnit {
  const digits = String(Math.trunc(Math.abs(Number.isFinite(maxAbs) ? maxAbs : 0))).length;
  if (digits >= 6) return { divisor: 1_000_000, unit: `M${base}` };
  if (digits >= 3) return { divisor: 1000, unit: `k${base}` };
  return { divisor: 1, unit: base };
}
