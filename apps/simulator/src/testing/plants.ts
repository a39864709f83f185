// Test support: small plants of each kind and a helper that runs one for a day, decoding
// every reading back from its registers with the protocol definition (as the server does).
import { type FieldValue, protocolPlan } from '@sunfleet/protocols';
import { type DeviceSpec, Plant, type PlantSpec } from '../plant.ts';

export const madrid = { lat: 40.42, lon: -3.7, timezone: 'Europe/Madrid' } as const;

export const dcPlant = (overrides: Partial<PlantSpec> = {}): [PlantSpec, DeviceSpec[]] => [
  { ...madrid, capacityKw: 6.5, type: 'dc', climate: { sunny: 0.3 }, ...overrides },
  [
    {
      kind: 'hybrid',
      sn: 'HY00000001',
      unit: 1,
      phases: 1,
      ratedW: 5000,
      pvKwp: 6.5,
      mppts: 2,
      battery: { packs: 2, highVoltage: false },
    },
    { kind: 'battery', sn: 'BT00000001', unit: 2 },
    { kind: 'meter', sn: 'MT00000001', unit: 3 },
    { kind: 'weather', sn: 'WS00000001', unit: 4 },
  ],
];

export const stringPlant = (overrides: Partial<PlantSpec> = {}): [PlantSpec, DeviceSpec[]] => [
  { ...madrid, capacityKw: 30, type: 'grid', climate: { sunny: 0.3 }, ...overrides },
  [
    // DC/AC ratio 1.5: clips on clear middays.
    { kind: 'string', sn: 'ST00000001', unit: 1, ratedW: 20_000, pvKwp: 30, mppts: 3 },
    { kind: 'meter', sn: 'MT00000002', unit: 2 },
  ],
];

export const microPlant = (): [PlantSpec, DeviceSpec[]] => [
  { ...madrid, capacityKw: 3.4, type: 'grid', climate: { sunny: 0.3 } },
  [
    { kind: 'micro', sn: 'MI00000001', unit: 1, ratedW: 1600, panelWp: 430 },
    { kind: 'micro', sn: 'MI00000002', unit: 2, ratedW: 1600, panelWp: 430 },
  ],
];

export interface Reading {
  t: number;
  sunAltitude: number;
  clearSkyIndex: number;
  /** Decoded values per device SN. */
  values: Record<string, Record<string, FieldValue>>;
  faults: Record<string, string[]>;
  missing: Record<string, string[]>;
}

/** Run a plant from `start` for `hours` at `stepS`, taking and decoding a reading at every step. */
export function runPlant(plant: Plant, start: number, hours: number, stepS = 300): Reading[] {
  const readings: Reading[] = [];
  for (let t = start; t <= start + hours * 3_600_000; t += stepS * 1000) {
    const env = plant.advance(t);
    const reading: Reading = {
      t,
      sunAltitude: env.sun.altitude,
      clearSkyIndex: env.weather.clearSkyIndex,
      values: {},
      faults: {},
      missing: {},
    };
    for (const device of plant.devices) {
      const decoded = protocolPlan(device.protocol)!.decode(device.read(env));
      reading.values[device.sn] = decoded.values;
      reading.faults[device.sn] = decoded.faults;
      reading.missing[device.sn] = decoded.missing;
    }
    readings.push(reading);
  }
  return readings;
}

/** Trapezoid integral of a decoded power field over the readings, kWh. */
export function integral(readings: readonly Reading[], power: (r: Reading) => number): number {
  let kwh = 0;
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1]!;
    const b = readings[i]!;
    kwh += ((power(a) + power(b)) / 2) * ((b.t - a.t) / 3_600_000_000);
  }
  return kwh;
}

export const num = (v: FieldValue | undefined) => (typeof v === 'number' ? v : Number.NaN);

export const newPlant = ([spec, devices]: [PlantSpec, DeviceSpec[]], seed: number) => new Plant(spec, devices, { seed });
