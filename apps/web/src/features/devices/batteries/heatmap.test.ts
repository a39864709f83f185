import { describe, expect, it } from 'vitest';
import type { BatteryPack } from '../shared/types.ts';
import { colourRange, heatColor, heatGrid } from './heatmap.ts';

const pack = (index: number, extra: Partial<BatteryPack> = {}): BatteryPack => ({
  index,
  master: index === 1,
  sn: `BT${index}`,
  soc: 50,
  soh: 95,
  voltage: 52.5,
  current: 5,
  cellVoltageMin: 3.27 + index / 1000,
  cellVoltageMax: 3.29 + index / 1000,
  cellTemperatureMin: 20,
  cellTemperatureMax: 22 + index,
  cycleCount: 700,
  faults: [],
  ...extra,
});

describe('battery heat map', () => {
  it('puts packs in rows and cells in columns where cells are reported', () => {
    const cells = [
      { pack: 1, cell: 2, voltage: 3.31, temperature: 24 },
      { pack: 1, cell: 1, voltage: 3.3, temperature: 23 },
      { pack: 2, cell: 1, voltage: 3.25, temperature: null },
    ];
    const grid = heatGrid([pack(1), pack(2)], cells, 'voltage');
    expect(grid.perCell).toBe(true);
    expect(grid.columns).toEqual([1, 2]);
    expect(grid.rows.map((r) => r.cells.map((c) => c.value))).toEqual([
      [3.3, 3.31],
      [3.25, null],
    ]);
    expect([grid.min, grid.max]).toEqual([3.25, 3.31]);
    const temps = heatGrid([pack(1), pack(2)], cells, 'temperature');
    expect(temps.rows[1]?.cells.map((c) => c.value)).toEqual([null, null]);
    expect([temps.min, temps.max]).toEqual([23, 24]);
  });

  it('falls back to each pack’s lowest and highest cell', () => {
    const grid = heatGrid([pack(1), pack(2, { cellVoltageMax: null })], [], 'voltage');
    expect(grid.perCell).toBe(false);
    expect(grid.columns).toEqual(['min', 'max']);
    expect(grid.rows.map((r) => [r.master, ...r.cells.map((c) => c.value)])).toEqual([
      [true, 3.271, 3.291],
      [false, 3.272, null],
    ]);
    const temps = heatGrid([pack(1), pack(2)], [], 'temperature');
    expect(temps.rows.map((r) => r.cells.map((c) => c.value))).toEqual([
      [20, 23],
      [20, 24],
    ]);
  });

  it('widens a narrow range and colours low blue, high red', () => {
    const [lo, hi] = colourRange(3.28, 3.29, 0.02);
    expect(lo).toBeCloseTo(3.275, 9);
    expect(hi).toBeCloseTo(3.295, 9);
    expect(colourRange(3.2, 3.4, 0.02)).toEqual([3.2, 3.4]);
    expect(heatColor(3.2, 3.2, 3.4)).toBe('hsl(220, 70%, 45%)');
    expect(heatColor(3.4, 3.2, 3.4)).toBe('hsl(0, 70%, 45%)');
    expect(heatColor(3.3, 3.2, 3.4)).toBe('hsl(110, 70%, 45%)');
    expect(heatColor(9, 3.2, 3.4)).toBe('hsl(0, 70%, 45%)');
  });
});
