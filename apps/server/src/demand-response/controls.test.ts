/**
 * Which settings force each storage family: the Deye hybrids' time-of-use program slots (every
 * day, six slots over the day at the target power, discharge down to the reserve with export on,
 * charge from the grid up to the ceiling, hold at 0 W), the PCS's SunSpec model 124 storage
 * control (rates as a share of WChaMax); values snapped to the fields' steps and limits; which
 * families cannot take part and why.
 */
import { describe, expect, it } from 'vitest';
import {
  cannotTakePart,
  controlGroups,
  controlValues,
  FULL_SOC,
  groupOfFields,
  isStorageCapable,
  RESERVE_SOC,
} from './controls.ts';

const slotsOf = (values: Record<string, number>) =>
  [1, 2, 3, 4, 5, 6].map((i) => [
    values[`program${i}Time`],
    values[`program${i}Power`],
    values[`program${i}Soc`],
    values[`program${i}Charging`],
  ]);

describe('controls', () => {
  it('storage inverters take part; a battery pack cannot (its registers have no power control); others are no storage', () => {
    for (const p of ['sunfleet-hybrid-1p', 'sunfleet-hybrid-3p', 'sunfleet-pcs-3p']) {
      expect(isStorageCapable(p)).toBe(true);
      expect(cannotTakePart(p)).toBeNull();
    }
    expect(cannotTakePart('sunfleet-battery')).toBe('noPowerControl');
    expect(cannotTakePart('sunfleet-string-3p')).toBe('noBattery');
    expect(controlValues('sunfleet-string-3p', 'discharge', 3000, 5000)).toBeNull();
  });

  it('a Deye hybrid discharges by time of use: every day, six slots over the day at the target down to the reserve, export first, selling on', () => {
    const v = controlValues('sunfleet-hybrid-1p', 'discharge', 2667, 5000, { maxSellPower: 3000 })!;
    expect(Object.keys(v)).toEqual(['workMode']);
    expect(v.workMode).toMatchObject({ timeOfUse: 255, workMode: 0, solarSell: 1, maxSellPower: 5000 });
    expect(slotsOf(v.workMode!)).toEqual([0, 400, 800, 1200, 1600, 2000].map((t) => [t, 2667, RESERVE_SOC, 0]));
    // A sell limit above the rating is kept; the three-phase power registers step by 10 W.
    expect(controlValues('sunfleet-hybrid-1p', 'discharge', 2000, 5000, { maxSellPower: 8000 })!.workMode!.maxSellPower).toBe(
      8000,
    );
    expect(controlValues('sunfleet-hybrid-3p', 'discharge', 2667, 10_000)!.workMode!.program3Power).toBe(2660);
  });

  it('a Deye hybrid charges from the grid in its slots up to the ceiling, grid charge on at its highest current; holds at slot power 0', () => {
    const v = controlValues('sunfleet-hybrid-3p', 'charge', 3000, 10_000)!;
    expect(slotsOf(v.workMode!)).toEqual([0, 400, 800, 1200, 1600, 2000].map((t) => [t, 3000, FULL_SOC, 1]));
    expect(v.gridInput).toEqual({ gridCharge: 1, gridChargeCurrent: 350 });
    const hold = controlValues('sunfleet-hybrid-1p', 'hold', 0, 5000)!;
    expect(Object.keys(hold)).toEqual(['workMode']);
    expect(slotsOf(hold.workMode!).map((s) => s[1])).toEqual([0, 0, 0, 0, 0, 0]);
    // Every group any action writes is read before the event's first write.
    expect(controlGroups('sunfleet-hybrid-1p')).toEqual(['workMode', 'gridInput']);
  });

  it('the PCS: StorCtl_Mod discharge with OutWRte the target’s share of WChaMax (its rating), charge with InWRte from the grid, hold at 0 % both ways', () => {
    expect(controlValues('sunfleet-pcs-3p', 'discharge', 2667, 5000)).toEqual({
      setBattery: { storageMaxPower: 5000, storageControl: 2, dischargeRate: 53.3, rateRevertTime: 0 },
      pcsWorkModel: { workMode: 0 },
    });
    expect(controlValues('sunfleet-pcs-3p', 'charge', 2000, 5000)).toEqual({
      setBattery: { storageMaxPower: 5000, storageControl: 1, chargeRate: 40, chargeFromGrid: 1, rateRevertTime: 0 },
    });
    expect(controlValues('sunfleet-pcs-3p', 'hold', 0, 5000)).toEqual({
      setBattery: { storageControl: 3, chargeRate: 0, dischargeRate: 0, rateRevertTime: 0 },
    });
    // Above the rating: the rate's maximum.
    expect(controlValues('sunfleet-pcs-3p', 'discharge', 50_000, 5000)!.setBattery!.dischargeRate).toBe(100);
    expect(groupOfFields('sunfleet-pcs-3p', controlGroups('sunfleet-pcs-3p')!).get('dischargeRate')).toBe('setBattery');
  });
});
