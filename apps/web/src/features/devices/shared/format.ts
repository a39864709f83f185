/**
 * Display helpers of the device pages on top of the contracts' formatters: measured
 * values with their units (power-like units by the kW/MW rule, others with fixed decimals),
 * decoded protocol fields, alias bytes, device names, durations and status colours.
 */
import { commTypeName, inverterTypeKey, inverterTypeName, limits } from '@sunfleet/contracts';
import { namesLanguage } from '../../../lib/deviceNames.ts';
import { displayed, formatEnergy, formatNumber, formatPower } from '../../../lib/format.ts';
import type { FieldValue } from './types.ts';

const missing = (v: number | null | undefined): v is null | undefined =>
  v === null || v === undefined || typeof v !== 'number' || !Number.isFinite(v);

/** Units scaled like power (3–5 integer digits → k, 6 or more → M). */
const powerLike = new Set(['W', 'Wh', 'var', 'VA', 'varh', 'Wh/m²']);
/** Fixed decimals per unit; others keep up to three decimals. */
const decimalsByUnit: Record<string, number> = {
  V: 1,
  A: 2,
  Hz: 2,
  '%': 0,
  kWh: 1,
  kvarh: 2,
  'm/s': 1,
  'W/m²': 0,
  Ah: 1,
  s: 0,
};

/**
 * A measured value with its unit: "3.6 kW", "231.1 V", "9.45 A", "58 %", "77.0 °F" (a °C
 * measurement in the user's temperature unit); -- when missing. `decimals` overrides the unit's
 * default (cell voltages take 3).
 */
export function formatValue(value: number | null | undefined, unit: string | null | undefined, decimals?: number): string {
  if (missing(value)) return '--';
  if (unit === '°C') {
    const shown = displayed(value, unit);
    return `${formatNumber(shown.value, decimals ?? 1)} ${shown.unit}`;
  }
  const u = unit ?? '';
  // Energy through the portal's one energy rule, so a figure reads the same on every page.
  if (u === 'Wh' && decimals === undefined) return formatEnergy(value);
  if (powerLike.has(u) && decimals === undefined) return formatPower(Math.round(value), u);
  const d = decimals ?? decimalsByUnit[u];
  const text = d === undefined ? formatNumber(Math.round(value * 1000) / 1000) : formatNumber(value, d);
  if (!u) return text;
  return u === '%' ? `${text} %` : `${text} ${u}`;
}

/** A lowest – highest pair in one unit, written once at the end: "3.201 – 3.345 V", "68.0 – 77.0 °F". */
export function formatValueRange(
  min: number | null | undefined,
  max: number | null | undefined,
  unit: string,
  decimals?: number,
): string {
  const low = formatValue(min, unit, decimals);
  const high = formatValue(max, unit, decimals);
  const suffix = ` ${displayed(0, unit).unit}`;
  return `${low.endsWith(suffix) ? low.slice(0, -suffix.length) : low} – ${high}`;
}

/** A decoded protocol field: its enum label, its text, or its number with the unit. */
export function formatField(field: Pick<FieldValue, 'value' | 'unit' | 'text'>): string {
  if (field.text) return field.text;
  if (typeof field.value === 'string') return field.value.trim() || '--';
  return formatValue(field.value, field.unit);
}

/** UTF-8 bytes of a text (the alias limit counts bytes, not characters: at most 32). */
export const aliasBytes = (s: string) => new TextEncoder().encode(s).length;
export const aliasTooLong = (s: string) => aliasBytes(s) > limits.deviceAliasBytes;

/** What a device is called on screen: its alias, else its SN. */
export const deviceName = (d: { alias: string | null; sn: string }) => (d.alias?.trim() ? d.alias : d.sn);

/** The type name key of an inverter: the server's key, else the register value mapped. */
export const typeKeyOf = (d: { typeKey?: string | null; deviceType?: number | null }) =>
  d.typeKey ?? inverterTypeKey(d.deviceType ?? null);

export { namesLanguage, stateName } from '../../../lib/deviceNames.ts';

/** An inverter's type name: the one name of its type key or register value (contracts). */
export const typeNameOf = (d: { typeKey?: string | null; deviceType?: number | null }, language: string) =>
  inverterTypeName(typeKeyOf(d), namesLanguage(language));

/** The connection type's name from the contracts ("Wi-Fi"); '--' when none. */
export const commName = (type: string | null | undefined, language: string) =>
  commTypeName(type, namesLanguage(language)) ?? '--';

/** A span of seconds: "2 d 3 h", "5 h 12 min", "12 min", "45 s". */
export function formatDuration(seconds: number | null | undefined): string {
  if (missing(seconds) || seconds < 0) return '--';
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** Signal quality words for 0–4 bars. */
export const signalQuality = ['none', 'poor', 'fair', 'good', 'excellent'] as const;
