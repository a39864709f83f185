/**
 * Display helpers of the plant pages on top of the contracts' formatters (spec §9): capacity in
 * kWp, energy in Wh/kWh/MWh (the power rule: 3–5 digits → k, 6 or more → M), date-times as
 * YYYY-MM-DD HH:mm:ss, "5 minutes ago", and one colour per plant status.
 */
import { formatNumber, formatPower } from '@sunfleet/contracts';
import type { PlantStatusName } from './selection.ts';

/** Status colours: Ant Design badge statuses for the list, hex for map markers and cards. */
export const statusStyle: Record<
  PlantStatusName,
  { badge: 'success' | 'default' | 'warning' | 'error' | 'processing'; color: string }
> = {
  normal: { badge: 'success', color: '#52c41a' },
  offline: { badge: 'default', color: '#8c8c8c' },
  warning: { badge: 'warning', color: '#faad14' },
  fault: { badge: 'error', color: '#ff4d4f' },
  upgrading: { badge: 'processing', color: '#1677ff' },
};

/** Installed capacity (kWp), at most two decimals, thousands separators. */
export function formatCapacity(kwp: number | null | undefined): string {
  if (kwp === null || kwp === undefined || Number.isNaN(kwp)) return '--';
  return `${formatNumber(Math.round(kwp * 100) / 100)} kWp`;
}

/** Energy in Wh → "850 Wh", "12.3 kWh", "1,234.6 MWh". */
export const formatEnergy = (wh: number | null | undefined) => formatPower(wh, 'Wh');

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD HH:mm:ss in the browser's time zone; -- when missing or unreadable. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '--';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '--';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago" / "hace 5 minutos"; under 45 s "now"; -- when missing. */
export function relativeTime(iso: string | null | undefined, language: string, now = Date.now()): string {
  if (!iso) return '--';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '--';
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  let value = (t - now) / 1000;
  if (Math.abs(value) < 45) return format.format(0, 'second');
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}
