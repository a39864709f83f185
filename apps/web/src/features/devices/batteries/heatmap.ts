/**
 * The battery heat map's grid and colours. Rows are the packs (master first); columns are the
 * cells where the protocol reports cells one by one, otherwise each pack's lowest and highest
 * cell (the contract's fallback). Colours run blue → green → red over the shown values' range,
 * widened to a minimum span so that a healthy, balanced battery does not look alarming.
 */
import type { BatteryCell, BatteryPack } from '../shared/types.ts';

export type HeatMode = 'voltage' | 'temperature';

/** The narrowest range the colours stretch over: 20 mV, 4 °C. */
export const MIN_SPAN: Record<HeatMode, number> = { voltage: 0.02, temperature: 4 };

export interface HeatCell {
  pack: number;
  /** Cell number (1-based), or 'min' / 'max' in the per-pack fallback. */
  column: number | 'min' | 'max';
  value: number | null;
}
export interface HeatGrid {
  perCell: boolean;
  columns: Array<number | 'min' | 'max'>;
  rows: Array<{ pack: number; master: boolean; sn: string | null; cells: HeatCell[] }>;
  min: number | null;
  max: number | null;
}

export function heatGrid(packs: readonly BatteryPack[], cells: readonly BatteryCell[], mode: HeatMode): HeatGrid {
  const key = mode === 'voltage' ? 'voltage' : 'temperature';
  const perCell = cells.length > 0;
  const packIds = packs.length ? packs.map((p) => p.index) : [...new Set(cells.map((c) => c.pack))].sort((a, b) => a - b);
  const columns: HeatGrid['columns'] = perCell ? [...new Set(cells.map((c) => c.cell))].sort((a, b) => a - b) : ['min', 'max'];
  const rows = packIds.map((id) => {
    const pack = packs.find((p) => p.index === id);
    const row = columns.map((column): HeatCell => {
      if (perCell) {
        const cell = cells.find((c) => c.pack === id && c.cell === column);
        return { pack: id, column, value: cell?.[key] ?? null };
      }
      const value =
        mode === 'voltage'
          ? column === 'min'
            ? pack?.cellVoltageMin
            : pack?.cellVoltageMax
          : column === 'min'
            ? pack?.cellTemperatureMin
            : pack?.cellTemperatureMax;
      return { pack: id, column, value: value ?? null };
    });
    return { pack: id, master: pack?.master ?? id === 1, sn: pack?.sn ?? null, cells: row };
  });
  const values = rows.flatMap((r) => r.cells.map((c) => c.value)).filter((v): v is number => v !== null && Number.isFinite(v));
  return {
    perCell,
    columns,
    rows,
    min: values.length ? Math.min(...values) : null,
    max: values.length ? Math.max(...values) : null,
  };
}

/** The colour range: the values' range, widened around its middle to at least the minimum span. */
export function colourRange(min: number, max: number, span: number): [number, number] {
  if (max - min >= span) return [min, max];
  const mid = (min + max) / 2;
  return [mid - span / 2, mid + span / 2];
}

/** A colour from blue (low) through green to red (high) for `value` within [lo, hi]. */
export function heatColor(value: number, lo: number, hi: number): string {
  const t = hi > lo ? Math.max(0, Math.min(1, (value - lo) / (hi - lo))) : 0.5;
  const hue = Math.round(220 - 220 * t); // 220 blue → 110 green → 0 red
  return `hsl(${hue}, 70%, 45%)`;
}
