/**
 * Display formatting shared by the web app and server-made reports. Numbers go through
 * `Intl.NumberFormat` of a language ("1,234.5" in en, "1.234,5" in es); thousands are grouped
 * from four digits on in every language, so the figures of one column line up.
 */
import type { TemperatureUnit } from './limits.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();

/** The cached formatter of a language with fixed decimals, or up to six when none are given. */
function numberFormat(locale: string, decimals: number | undefined): Intl.NumberFormat {
  const key = `${locale}|${decimals ?? ''}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      useGrouping: 'always',
      minimumFractionDigits: decimals ?? 0,
      maximumFractionDigits: decimals ?? 6,
      // A small negative rounded to zero shows as 0, not -0.
      signDisplay: 'negative',
    });
    numberFormats.set(key, format);
  }
  return format;
}

/** Grouped thousands and the language's decimal mark; a missing value shows --. */
export function formatNumber(value: number | null | undefined, decimals?: number, locale = 'en'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '--';
  return numberFormat(locale, decimals).format(value);
}

/** Power in W: 3 to 5 integer digits → k with one decimal; 6 or more → M. Returns value and unit prefix. */
export function formatPower(watts: number | null | undefined, unit = 'W', locale = 'en'): string {
  if (watts === null || watts === undefined || !Number.isFinite(watts)) return '--';
  const digits = String(Math.trunc(Math.abs(watts))).length;
  if (digits >= 6) return `${formatNumber(watts / 1_000_000, 1, locale)} M${unit}`;
  if (digits >= 3) return `${formatNumber(watts / 1000, 1, locale)} k${unit}`;
  return `${formatNumber(watts, undefined, locale)} ${unit}`;
}

/** The unit every temperature is measured and stored in. */
export const CELSIUS = '°C';

/** The symbol of a temperature unit: °C or °F. */
export const temperatureSymbol = (unit: TemperatureUnit): string => (unit === 'F' ? '°F' : '°C');

/** A temperature measured in °C, in the user's unit (°F = °C × 9/5 + 32). */
export function fromCelsius(celsius: number, unit: TemperatureUnit): number {
  return unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
}

/** A temperature difference (a spread, a span) measured in °C, in the user's unit (× 9/5 for °F). */
export function spanFromCelsius(celsius: number, unit: TemperatureUnit): number {
  return unit === 'F' ? (celsius * 9) / 5 : celsius;
}

/**
 * A measured value with its unit as a user with this temperature unit sees it: a °C value
 * converted and labelled in their unit, any other unit as it is.
 */
export function inTemperatureUnit<V extends number | null | undefined>(
  value: V,
  unit: string | null | undefined,
  temperature: TemperatureUnit,
): { value: V; unit: string | null | undefined } {
  if (unit !== CELSIUS) return { value, unit };
  const converted = typeof value === 'number' ? fromCelsius(value, temperature) : value;
  return { value: converted as V, unit: temperatureSymbol(temperature) };
}

/**
 * Inverter device-type register value → type name key: 1, 10 and 11 share one name; a value
 * without a name of its own is three-phase; no value is '--'.
 */
export function inverterTypeKey(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '--';
  switch (Number(value)) {
    case 1:
    case 10:
    case 11:
      return 'sellingFirst';
    case 2:
      return 'singlePhase';
    case 3:
      return 'micro';
    case 94:
      return 'threePhaseHighVoltage';
    case 21:
      return 'singlePhaseHighVoltage';
    case 93:
      return 'threePhaseLowVoltage';
    case 22:
      return 'singlePhaseOther';
    default:
      return 'threePhase';
  }
}
