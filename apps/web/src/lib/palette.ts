/**
 * The portal's fixed colours: plant statuses, event levels and chart series. Everything else
 * takes its colour from the antd theme tokens (app/theme.tsx).
 */
import type { plantsApi } from '@sunfleet/contracts';
import type { Level } from './events.ts';

/** Status colours: Ant Design badge statuses for the list, hex for map markers and cards. */
export const statusStyle: Record<
  plantsApi.PlantStatusName,
  { badge: 'success' | 'default' | 'warning' | 'error' | 'processing'; color: string }
> = {
  normal: { badge: 'success', color: '#52c41a' },
  offline: { badge: 'default', color: '#8c8c8c' },
  warning: { badge: 'warning', color: '#faad14' },
  fault: { badge: 'error', color: '#ff4d4f' },
  upgrading: { badge: 'processing', color: '#1677ff' },
};

/** Tag colours (antd presets) and card accents per level. */
export const levelStyle: Record<Level, { tag: 'error' | 'warning' | 'processing'; color: string }> = {
  fault: { tag: 'error', color: '#ff4d4f' },
  warning: { tag: 'warning', color: '#faad14' },
  info: { tag: 'processing', color: '#1677ff' },
};

/** Palettes per chart type (spec §9). */
export const powerPalette = {
  pv: '#f5a623',
  load: '#1677ff',
  grid: '#9254de',
  battery: '#52c41a',
  soc: '#13c2c2',
  forecast: '#fa8c16',
} as const;
export const generationPalette = { energy: '#3fb950', income: '#f5a623' } as const;

export type PowerSeriesKey = keyof typeof powerPalette;
export type PowerLabels = Record<PowerSeriesKey, string>;
