// The PCS's remote power control (in its battery settings) against SunSpec model 124 (the shared model file): the points
// it carries, their access, signedness and units, and their writes.
import { describe, expect, it } from 'vitest';
import { readSharedJson } from '../fixtures/shared-data.ts';
import { settingGroupFields, validateSettingValues } from '../settings.ts';
import { protocolPlan } from './index.ts';

interface Point {
  name: string;
  type: string;
  units?: string;
  access?: string;
  symbols?: { name: string; value: number }[];
}

const model124 = readSharedJson('sunspec-models', 'model_124.json') as {
  group: { points: Point[] };
};
const point = (name: string) => model124.group.points.find((p) => p.name === name)!;

const mapped: Record<string, string> = {
  storageMaxPower: 'WChaMax',
  storageControl: 'StorCtl_Mod',
  dischargeRate: 'OutWRte',
  chargeRate: 'InWRte',
  rateRevertTime: 'InOutWRte_RvrtTms',
  chargeFromGrid: 'ChaGriSet',
};

describe('PCS storage control (SunSpec model 124)', () => {
  const fields = settingGroupFields('sunfleet-pcs-3p', 'setBattery')!.filter((f) => f.address >= 100);

  it('has the model’s writable control points, in its order, with its units and signedness', () => {
    expect(fields.map((f) => f.key)).toEqual(Object.keys(mapped));
    const order = model124.group.points.map((p) => p.name);
    const indices = Object.values(mapped).map((n) => order.indexOf(n));
    expect(indices.every((i, k) => i >= 0 && (k === 0 || i > indices[k - 1]!))).toBe(true);
    for (const f of fields) {
      const p = point(mapped[f.key]!);
      expect(p.access, f.key).toBe('RW');
      expect(f.access).toBe('rw');
      if (p.type.startsWith('int')) expect(f.dataType, f.key).toBe('s16');
      if (p.units === 'W') expect(f.unit).toBe('W');
      if (p.units === '%') expect(f.unit).toBe('%');
    }
    // StorCtl_Mod bit 0 = CHARGE, bit 1 = DISCHARGE: the options are their combinations.
    expect(point('StorCtl_Mod').symbols!.map((s) => [s.name.toUpperCase(), s.value])).toEqual([
      ['CHARGE', 0],
      ['DISCHARGE', 1],
    ]);
    expect(Object.keys(fields.find((f) => f.key === 'storageControl')!.enum!).map(Number)).toEqual([0, 1, 2, 3]);
    expect(Object.keys(fields.find((f) => f.key === 'chargeFromGrid')!.enum!).map(Number)).toEqual(
      point('ChaGriSet').symbols!.map((s) => s.value),
    );
  });

  it('writes a discharge at 40 % of 10 kW as the registers 100.. hold them, a negative rate in two’s complement', () => {
    const checked = validateSettingValues('sunfleet-pcs-3p', 'setBattery', {
      storageMaxPower: 10_000,
      storageControl: 2,
      dischargeRate: 40,
      chargeRate: -12.5,
    });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.writes).toEqual([{ functionCode: 16, address: 100, registers: [1000, 2, 400, 0x10000 - 125] }]);
    const decoded = protocolPlan('sunfleet-pcs-3p')!.decode([
      { functionCode: 3, address: 100, registers: [1000, 2, 400, 65411, 0, 1] },
    ]);
    expect(decoded.values).toMatchObject({
      storageMaxPower: 10_000,
      storageControl: 2,
      dischargeRate: 40,
      chargeRate: -12.5,
      chargeFromGrid: 1,
    });
  });
});
