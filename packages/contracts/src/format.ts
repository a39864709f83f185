/** Display formatting shared by the web app and server-made reports. */

/** Thousands separator every three digits; a missing value shows --. */
export function formatNumber(value: number | null | undefined, decimals?: number): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '--';
  const fixed = decimals === undefined ? String(value) : value.toFixed(decimals);
  const [int, frac] = fixed.split('.');
  const grouped = (int ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
}

/** Power in W: 3 to 5 integer digits → k with one decimal; 6 or more → M. Returns value and unit prefix. */
export function formatPower(watts: number | null | undefined, unit = 'W'): string {
  if (watts === null || watts === undefined || Number.isNaN(watts)) return '--';
  const digits = String(Math.trunc(Math.abs(watts))).length;
  if (digits >= 6) return `${formatNumber(watts / 1_000_000, 1)} M${unit}`;
  if (digits >= 3) return `${formatNumber(watts / 1000, 1)} k${unit}`;
  return `${formatNumber(watts)} ${unit}`;
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
