import { describe, expect, it } from 'vitest';
import { acFromDc, arrayDcPower, cellTemperature, dcForAc, efficiency, inverterLosses, pvArray, pvInverterOutput } from './pv.ts';

describe('PV array and inverter', () => {
  it('derates the array with cell temperature', () => {
    const array = pvArray(10);
    const cool = arrayDcPower(array, 1000, 25);
    const hot = arrayDcPower(array, 1000, cellTemperature(35, 1000, 1));
    expect(cool).toBeCloseTo(9000, 6);
    expect(hot).toBeLessThan(cool * 0.92);
    expect(arrayDcPower(array, 0, 25)).toBe(0);
  });

  it('has a realistic efficiency curve: poor at low load, ~97 % in the middle', () => {
    const inv = inverterLosses(10_000);
    expect(efficiency(inv, 100)).toBeLessThan(0.6);
    expect(efficiency(inv, 3000)).toBeGreaterThan(0.96);
    expect(efficiency(inv, 3000)).toBeGreaterThan(efficiency(inv, 10_000));
    expect(efficiency(inv, 10_000)).toBeGreaterThan(0.94);
  });

  it('inverts its own loss curve in both directions', () => {
    const inv = inverterLosses(5000);
    for (const ac of [-4000, -500, 0, 50, 2500, 5000]) expect(acFromDc(inv, dcForAc(inv, ac))).toBeCloseTo(ac, 3);
  });

  it('clips at rated AC power and backs off the DC it draws', () => {
    const inv = inverterLosses(5000);
    const out = pvInverterOutput(inv, 6500);
    expect(out.acW).toBe(5000);
    expect(out.clipped).toBe(true);
    expect(out.dcW).toBeLessThan(6500);
    expect(pvInverterOutput(inv, 3000).clipped).toBe(false);
    expect(pvInverterOutput(inv, 6500, 2000).acW).toBe(2000);
  });
});
