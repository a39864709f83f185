/**
 * What a status means in colour: plant and device statuses, gateway connections and event levels
 * as antd presets (badges, tags) and as the palette's meaning colour (map markers, cards), and a
 * gauge's level.
 */
import type { DeviceStateName, plantsApi } from '@sunfleet/contracts';
import type { Level } from './events.ts';
import type { Palette } from './palette.ts';

type PresetStatus = 'success' | 'default' | 'warning' | 'error' | 'processing';
type Meaning = keyof Palette['meaning'];

/**
 * Status colours: Ant Design statuses for badges and tags (antd's status tokens are seeded with the
 * palette, and their text colours are shaded readable by the theme), and the meaning colour for map
 * markers and cards (`meaningColour`).
 */
export const statusStyle: Record<plantsApi.PlantStatusName, { badge: PresetStatus; tag: PresetStatus; meaning: Meaning }> = {
  normal: { badge: 'success', tag: 'success', meaning: 'good' },
  offline: { badge: 'default', tag: 'default', meaning: 'idle' },
  warning: { badge: 'warning', tag: 'warning', meaning: 'warning' },
  fault: { badge: 'error', tag: 'error', meaning: 'bad' },
  upgrading: { badge: 'processing', tag: 'processing', meaning: 'info' },
};

/** A device state's colours: its status's, and powered off as idle. */
export const deviceStateStyle: Record<DeviceStateName, (typeof statusStyle)[plantsApi.PlantStatusName]> = {
  ...statusStyle,
  off: { badge: 'default', tag: 'default', meaning: 'idle' },
};

/** Gateway connection colours (the device states use `deviceStateStyle`). */
export const gatewayStateStyle = {
  online: { badge: 'success', tag: 'success', meaning: 'good' },
  offline: { badge: 'default', tag: 'default', meaning: 'idle' },
} as const;

/** Tag colours (antd presets) and card accents per level. */
export const levelStyle: Record<Level, { tag: 'error' | 'warning' | 'processing'; meaning: Meaning }> = {
  fault: { tag: 'error', meaning: 'bad' },
  warning: { tag: 'warning', meaning: 'warning' },
  info: { tag: 'processing', meaning: 'info' },
};

/** A level of a 0–100 % gauge: bad below 20, warning below 50 (when asked), good above. */
export function chargeColour(palette: Palette, percent: number, withWarning = true): string {
  if (percent < 20) return palette.meaning.bad;
  if (withWarning && percent < 50) return palette.meaning.warning;
  return palette.meaning.good;
}
