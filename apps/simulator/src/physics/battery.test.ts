import { describe, expect, it } from 'vitest';
import { Battery, batteryRequest, lfpCellVoltage, WorkMode } from './battery.ts';
import { dcForAc, inverterLosses } from './pv.ts';

const spec = { capacityKwh: 10, maxChargeW: 5000, maxDischargeW: 5000, chargeEfficiency: 0.97, dischargeEfficiency: 0.97 };
const toDc = (ac: number) => dcForAc(inverterLosses(5000), ac);
const input = { hour: 12, soc: 0.5, exportLimitW: 5000, gridCharge: false, gridChargeW: 0, dcForAc: toDc };

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

  it('time of use charges from the grid in the night window when allowed', () => {
    const tou = { ...input, mode: WorkMode.timeOfUse, gridCharge: true, gridChargeW: 2000, pvDcW: 0, netLoadW: 300 };
    expect(batteryRequest({ ...tou, hour: 3 })).toBe(-2000);
    expect(batteryRequest({ ...tou, hour: 20 })).toBeGreaterThan(0);
  });

  it('has an LFP voltage curve: steep at the ends, flat in the middle', () => {
    expect(lfpCellVoltage(0.5) - lfpCellVoltage(0.3)).toBeLessThan(0.05);
    expect(lfpCellVoltage(1) - lfpCellVoltage(0.9)).toBeGreaterThan(0.1);
    expect(lfpCellVoltage(0.5, 0.5)).toBeLessThan(lfpCellVoltage(0.5));
  });
});
