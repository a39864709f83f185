import { describe, expect, it } from 'vitest';
import { dcPlant, integral, microPlant, newPlant, num, type Reading, runPlant, stringPlant } from './testing/plants.ts';

// Local midnight in Madrid, spring: long days, changeable skies.
const midnight = Date.parse('2025-04-14T00:00:00+02:00');
const day = (readings: Reading[], sn: string, key: string) =>
  num(readings.at(-1)!.values[sn]![key]) - num(readings[0]!.values[sn]![key]);
// An input the device does not have (pv3, pv4 of a two-MPPT inverter) is encoded "not available": null.
const sum = (r: Reading, sn: string, keys: string[]) =>
  keys.reduce((s, k) => (r.values[sn]![k] === null ? s : s + num(r.values[sn]![k])), 0);
const pvKeys = ['pv1Power', 'pv2Power', 'pv3Power', 'pv4Power'];

describe('a simulated plant over a simulated day', () => {
  for (const seed of [1, 2, 3]) {
    it(`has day energy equal to the integral of its power curve within 1 % (seed ${seed}, clouds on)`, () => {
      const hybrid = runPlant(newPlant(dcPlant(), seed), midnight, 24);
      const strings = runPlant(newPlant(stringPlant(), seed), midnight, 24);
      const micros = runPlant(newPlant(microPlant(), seed), midnight, 24);
      // Clouds were really on: the clear-sky index moved during daylight.
      const daylight = hybrid.filter((r) => r.sunAltitude > 10).map((r) => r.clearSkyIndex);
      expect(Math.max(...daylight) - Math.min(...daylight)).toBeGreaterThan(0.05);

      // PV energy against PV power: within 1 %. The load and the grid exchange carry appliance
      // switching within the 5-minute samples, which sampling cannot see: within 5 %.
      const cases = [
        // Hybrid: PV generation counter against the sum of the MPPT input powers.
        {
          tolerance: 0.01,
          energy: day(hybrid, 'HY00000001', 'pvEnergyTotal'),
          curve: integral(hybrid, (r) => sum(r, 'HY00000001', pvKeys)),
        },
        {
          tolerance: 0.01,
          energy: day(strings, 'ST00000001', 'energyTotal'),
          curve: integral(strings, (r) => num(r.values.ST00000001!.activePower)),
        },
        // Micro-inverter: its "today" counter (0.01 kWh) at the end of the day.
        {
          tolerance: 0.01,
          energy: num(micros.at(-2)!.values.MI00000001!.energyToday),
          curve: integral(micros.slice(0, -1), (r) => num(r.values.MI00000001!.activePower)),
        },
        {
          tolerance: 0.05,
          energy: day(hybrid, 'HY00000001', 'loadEnergyTotal'),
          curve: integral(hybrid, (r) => num(r.values.HY00000001!.loadPower)),
        },
        {
          tolerance: 0.05,
          energy: day(strings, 'MT00000002', 'exportEnergy'),
          curve: integral(strings, (r) => Math.max(0, -num(r.values.MT00000002!.activePower))),
        },
      ];
      for (const { energy, curve, tolerance } of cases) {
        expect(curve).toBeGreaterThan(1);
        expect(Math.abs(energy - curve) / curve).toBeLessThan(tolerance);
      }
    });
  }

  it('produces no PV at night and never more than the rated power', () => {
    const strings = runPlant(newPlant(stringPlant({ climate: { sunny: 0.9 } }), 4), Date.parse('2025-06-20T00:00:00+02:00'), 48);
    const hybrid = runPlant(newPlant(dcPlant(), 4), Date.parse('2025-06-20T00:00:00+02:00'), 48);
    let clipped = 0;
    for (const r of strings) {
      const p = num(r.values.ST00000001!.activePower);
      if (r.sunAltitude < -1) expect(p).toBe(0);
      expect(p).toBeLessThanOrEqual(20_000);
      if (p === 20_000) clipped++;
    }
    for (const r of hybrid) {
      if (r.sunAltitude < -1) expect(sum(r, 'HY00000001', pvKeys)).toBe(0);
      expect(num(r.values.HY00000001!.activePower)).toBeLessThanOrEqual(5000);
      expect(sum(r, 'HY00000001', pvKeys)).toBeLessThanOrEqual(6500);
    }
    // 30 kWp on 20 kW in June: clear middays clip.
    expect(clipped).toBeGreaterThan(0);
  });

  it('keeps the battery within bounds and following self-consumption', () => {
    const readings = runPlant(newPlant(dcPlant({ climate: { sunny: 0.8 } }), 5), midnight, 72);
    let charging = 0;
    let discharging = 0;
    for (const r of readings) {
      const v = r.values.HY00000001!;
      const soc = num(v.batterySoc);
      const battery = num(v.batteryPower);
      const grid = num(v.gridActivePower);
      expect(soc).toBeGreaterThanOrEqual(10 - 1);
      expect(soc).toBeLessThanOrEqual(100);
      const surplus = sum(r, 'HY00000001', pvKeys) - num(v.loadPower);
      if (surplus > 800 && soc < 95) {
        expect(battery).toBeLessThan(0);
        charging++;
      }
      if (r.sunAltitude < -5 && soc > 12) {
        expect(battery).toBeGreaterThan(0);
        discharging++;
        // Self-consumption: the battery covers the house, the grid stays near zero.
        expect(Math.abs(grid)).toBeLessThan(5);
      }
      // The BMS reports the same state of charge and power as the inverter.
      expect(num(r.values.BT00000001!.soc)).toBe(soc);
      expect(num(r.values.BT00000001!.power)).toBe(battery);
    }
    expect(charging).toBeGreaterThan(10);
    expect(discharging).toBeGreaterThan(10);
  });

  it('exports nothing in a zero-export work mode', () => {
    const plant = newPlant(dcPlant({ climate: { sunny: 0.9 } }), 6);
    const hybrid = plant.hybrids[0]!;
    const write = hybrid.plan.encodeWrites({ workMode: 1 });
    for (const w of write) expect(hybrid.bank.write(w.address, w.registers)).toBeNull();
    hybrid.settingsWritten();
    expect(hybrid.workMode).toEqual({ mode: 1, exportLimitW: 0 });
    const readings = runPlant(plant, Date.parse('2025-06-20T00:00:00+02:00'), 48);
    for (const r of readings) expect(num(r.values.HY00000001!.gridActivePower)).toBeLessThanOrEqual(1);
    // With a full battery the PV is curtailed instead.
    expect(readings.some((r) => num(r.values.HY00000001!.batterySoc) === 100)).toBe(true);
  });

  it('balances energy: PV + import + discharge = load + export + charge + conversion losses', () => {
    const readings = runPlant(newPlant(dcPlant(), 7), midnight, 24);
    const e = (key: string) => day(readings, 'HY00000001', `${key}Total`);
    const supplied = e('pvEnergy') + e('gridImportEnergy') + e('batteryDischargeEnergy');
    const used = e('loadEnergy') + e('gridExportEnergy') + e('batteryChargeEnergy');
    const losses = supplied - used;
    expect(losses).toBeGreaterThan(0);
    expect(losses / supplied).toBeLessThan(0.08);
    // The meter at the connection point agrees with the inverter's grid counters.
    const meterImport = day(readings, 'MT00000001', 'importEnergy');
    expect(Math.abs(meterImport - e('gridImportEnergy'))).toBeLessThan(0.15);
  });

  it('has counters that never decrease and a "today" that restarts at local midnight', () => {
    const readings = runPlant(newPlant(dcPlant(), 8), midnight - 6 * 3_600_000, 36);
    const totals = [
      'pvEnergyTotal',
      'gridImportEnergyTotal',
      'gridExportEnergyTotal',
      'batteryChargeEnergyTotal',
      'loadEnergyTotal',
    ];
    for (let i = 1; i < readings.length; i++) {
      for (const key of totals) {
        expect(num(readings[i]!.values.HY00000001![key])).toBeGreaterThanOrEqual(num(readings[i - 1]!.values.HY00000001![key]));
      }
      for (const key of ['importEnergy', 'exportEnergy']) {
        expect(num(readings[i]!.values.MT00000001![key])).toBeGreaterThanOrEqual(num(readings[i - 1]!.values.MT00000001![key]));
      }
    }
    const atMidnight = readings.find((r) => r.t === midnight)!;
    expect(num(atMidnight.values.HY00000001!.loadEnergyToday)).toBeLessThan(0.1);
    expect(num(readings.find((r) => r.t === midnight - 300_000)!.values.HY00000001!.loadEnergyToday)).toBeGreaterThan(1);
  });

  it('is deterministic: the same seed gives the same registers, another seed does not', () => {
    const a = runPlant(newPlant(dcPlant(), 42), midnight, 12);
    const b = runPlant(newPlant(dcPlant(), 42), midnight, 12);
    const c = runPlant(newPlant(dcPlant(), 43), midnight, 12);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('decodes every reading with its protocol, nothing required missing', () => {
    for (const make of [dcPlant, stringPlant, microPlant]) {
      for (const r of runPlant(newPlant(make(), 9), midnight + 12 * 3_600_000, 1)) {
        for (const missing of Object.values(r.missing)) expect(missing).toEqual([]);
      }
    }
  });
});
