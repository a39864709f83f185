import { describe, expect, it } from 'vitest';
import { Battery, batteryRequest, hhmmMinutes, lfpCellVoltage, touSlotAt, WorkMode } from './battery.ts';
import { dcForAc, inverterLosses } from './pv.ts';

const spec = { capacityKwh: 10, maxChargeW: 5000, maxDischargeW: 5000, chargeEfficiency: 0.97, dischargeEfficiency: 0.97 };
const toDc = (ac: number) => dcForAc(inverterLosses(5000), ac);
const input = { soc: 0.5, exportLimitW: 5000, dcForAc: toDc };

describe('battery', () => {
  it('respects power limits and never leaves its SOC bounds', () => {
    const b = new Battery(spec, 0.12);
    b.floor = 0.1;
    expect(b.limit(9000, 60_000)).toBe(5000);
    for (let i = 0; i < 100; i++) b.apply(b.limit(5000, 60_000), 60_000);
    expect(b.soc).toBeGreaterThanOrEqual(0.1 - 1e-9);
    for (let i = 0; i < 400; i++) b.apply(b.limit(-5000, 60_000), 60_000);
    expect(b.soc).toBeLessThanOrEqual(1);
    expect(b.soc).toBeGreaterThan(0.999);
    expect(b.limit(-1000, 60_000)).toBeCloseTo(0, 6);
  });

  it('loses energy both ways', () => {
    const b = new Battery(spec, 0.5);
    b.apply(-1000, 3_600_000);
    b.apply(1000, 3_600_000);
    expect(b.soc).toBeLessThan(0.5);
  });

  it('self-consumption charges from a surplus and discharges to cover a deficit', () => {
    expect(batteryRequest({ ...input, mode: WorkMode.selfConsumption, pvDcW: 4000, netLoadW: 1000 })).toBeLessThan(-2800);
    expect(batteryRequest({ ...input, mode: WorkMode.selfConsumption, pvDcW: 0, netLoadW: 800 })).toBeGreaterThan(800);
  });

  it('selling first exports up to the limit before charging', () => {
    const sell = { ...input, mode: WorkMode.sellingFirst, exportLimitW: 2000 };
    expect(batteryRequest({ ...sell, pvDcW: 2500, netLoadW: 500 })).toBe(0);
    expect(batteryRequest({ ...sell, pvDcW: 4500, netLoadW: 500 })).toBeLessThan(-1500);
    expect(batteryRequest({ ...sell, pvDcW: 0, netLoadW: 500 })).toBeGreaterThan(500);
  });

  it('time of use: the slot in force charges from the grid at its power up to its SOC, discharges above it, holds at power 0', () => {
    const slots = [
      { start: hhmmMinutes(200)!, powerW: 2000, soc: 0.95, gridCharge: true },
      { start: hhmmMinutes(500)!, powerW: 3000, soc: 0.2, gridCharge: false },
      { start: hhmmMinutes(2330)!, powerW: 0, soc: 0.2, gridCharge: false },
    ];
    expect(touSlotAt(slots, 3 * 60)).toBe(slots[0]);
    expect(touSlotAt(slots, 20 * 60)).toBe(slots[1]);
    expect(touSlotAt(slots, 60)).toBe(slots[2]); // before the first start: the last slot of the day before
    const tou = { ...input, mode: WorkMode.timeOfUse, gridCharge: true, gridChargeW: 5000, pvDcW: 0, netLoadW: 300 };
    expect(batteryRequest({ ...tou, slot: slots[0] })).toBe(-2000);
    expect(batteryRequest({ ...tou, slot: slots[0], gridCharge: false })).toBe(0); // below its SOC: no discharge
    expect(batteryRequest({ ...tou, slot: slots[1] })).toBe(3000);
    expect(batteryRequest({ ...tou, slot: slots[1], exportLimitW: 0 })).toBeCloseTo(toDc(300), 6);
    expect(batteryRequest({ ...tou, slot: slots[1], soc: 0.2 })).toBe(0);
    expect(batteryRequest({ ...tou, slot: slots[2], pvDcW: 4000 })).toBe(0);
    expect(hhmmMinutes(2460)).toBeNull();
  });

  it('has an LFP voltage curve: steep at the ends, flat in the middle', () => {
    expect(lfpCellVoltage(0.5) - lfpCellVoltage(0.3)).toBeLessThan(0.05);
    expect(lfpCellVoltage(1) - lfpCellVoltage(0.9)).toBeGreaterThan(0.1);
    expect(lfpCellVoltage(0.5, 0.5)).toBeLessThan(lfpCellVoltage(0.5));
  });
});
