// A plausible demo fleet from a count: homes and businesses in Spain, the rest of Europe and
// the Americas, with the usual kinds of system — DC-coupled storage (hybrid + battery +
// meter), AC-coupled storage (string inverter + storage inverter + battery + meter),
// grid-tied string inverters (three- and single-phase) with a meter and weather station, and
// micro-inverter roofs and balconies: every remote-setting family among the first seven plants.
// Deterministic: the same count and seed give the same fleet, device SNs derive from the
// gateway SN, and credentials come from the caller (the server provisions the gateways).
import type { GridSupply } from './devices/device.ts';
import type { GatewaySpec } from './gateway.ts';
import type { DeviceSpec, PlantSpec } from './plant.ts';
import { hash32, Rng } from './random.ts';

export interface Place {
  city: string;
  lat: number;
  lon: number;
  timezone: string;
  /** Share of clear days. */
  sunny: number;
  grid: GridSupply;
  annualMeanC?: number;
  seasonalSwingC?: number;
}

const eu: GridSupply = { hz: 50, voltage: 230 };
const us: GridSupply = { hz: 60, voltage: 120 };
const mx: GridSupply = { hz: 60, voltage: 127 };

/** Interleaved so that small fleets are mostly Spanish yet still span the regions. */
export const places: readonly Place[] = [
  { city: 'Madrid', lat: 40.42, lon: -3.7, timezone: 'Europe/Madrid', sunny: 0.65, grid: eu },
  { city: 'Sevilla', lat: 37.39, lon: -5.98, timezone: 'Europe/Madrid', sunny: 0.75, grid: eu, annualMeanC: 19 },
  { city: 'Lisboa', lat: 38.72, lon: -9.14, timezone: 'Europe/Lisbon', sunny: 0.65, grid: eu, annualMeanC: 17.5 },
  {
    city: 'Ciudad de México',
    lat: 19.43,
    lon: -99.13,
    timezone: 'America/Mexico_City',
    sunny: 0.55,
    grid: mx,
    annualMeanC: 17,
    seasonalSwingC: 2.5,
  },
  { city: 'Valencia', lat: 39.47, lon: -0.38, timezone: 'Europe/Madrid', sunny: 0.65, grid: eu, annualMeanC: 18.5 },
  { city: 'München', lat: 48.14, lon: 11.58, timezone: 'Europe/Berlin', sunny: 0.35, grid: eu, annualMeanC: 9.5 },
  {
    city: 'Santiago',
    lat: -33.45,
    lon: -70.67,
    timezone: 'America/Santiago',
    sunny: 0.7,
    grid: { hz: 50, voltage: 220 },
    annualMeanC: 15,
  },
  { city: 'Barcelona', lat: 41.39, lon: 2.17, timezone: 'Europe/Madrid', sunny: 0.55, grid: eu, annualMeanC: 17 },
  { city: 'Milano', lat: 45.46, lon: 9.19, timezone: 'Europe/Rome', sunny: 0.45, grid: eu, annualMeanC: 13.5 },
  {
    city: 'São Paulo',
    lat: -23.55,
    lon: -46.63,
    timezone: 'America/Sao_Paulo',
    sunny: 0.45,
    grid: mx,
    annualMeanC: 20,
    seasonalSwingC: 3,
  },
  { city: 'Málaga', lat: 36.72, lon: -4.42, timezone: 'Europe/Madrid', sunny: 0.75, grid: eu, annualMeanC: 19 },
  {
    city: 'Phoenix',
    lat: 33.45,
    lon: -112.07,
    timezone: 'America/Phoenix',
    sunny: 0.85,
    grid: us,
    annualMeanC: 24,
    seasonalSwingC: 10,
  },
  { city: 'Bilbao', lat: 43.26, lon: -2.93, timezone: 'Europe/Madrid', sunny: 0.3, grid: eu, annualMeanC: 14.5 },
  { city: 'Marseille', lat: 43.3, lon: 5.37, timezone: 'Europe/Paris', sunny: 0.6, grid: eu, annualMeanC: 15.5 },
  {
    city: 'Buenos Aires',
    lat: -34.6,
    lon: -58.38,
    timezone: 'America/Argentina/Buenos_Aires',
    sunny: 0.55,
    grid: { hz: 50, voltage: 220 },
    annualMeanC: 18,
  },
  { city: 'Zaragoza', lat: 41.65, lon: -0.88, timezone: 'Europe/Madrid', sunny: 0.6, grid: eu },
  { city: 'Athína', lat: 37.98, lon: 23.73, timezone: 'Europe/Athens', sunny: 0.7, grid: eu, annualMeanC: 18.5 },
  {
    city: 'Bogotá',
    lat: 4.71,
    lon: -74.07,
    timezone: 'America/Bogota',
    sunny: 0.3,
    grid: { hz: 60, voltage: 120 },
    annualMeanC: 14,
    seasonalSwingC: 0.5,
  },
  { city: 'Murcia', lat: 37.99, lon: -1.13, timezone: 'Europe/Madrid', sunny: 0.75, grid: eu, annualMeanC: 18.5 },
  { city: 'Berlin', lat: 52.52, lon: 13.4, timezone: 'Europe/Berlin', sunny: 0.3, grid: eu, annualMeanC: 10 },
  {
    city: 'Lima',
    lat: -12.05,
    lon: -77.04,
    timezone: 'America/Lima',
    sunny: 0.35,
    grid: { hz: 60, voltage: 220 },
    annualMeanC: 19.5,
    seasonalSwingC: 3.5,
  },
  { city: 'Porto', lat: 41.15, lon: -8.61, timezone: 'Europe/Lisbon', sunny: 0.5, grid: eu, annualMeanC: 15 },
  { city: 'Roma', lat: 41.9, lon: 12.5, timezone: 'Europe/Rome', sunny: 0.6, grid: eu, annualMeanC: 16 },
  { city: 'Austin', lat: 30.27, lon: -97.74, timezone: 'America/Chicago', sunny: 0.6, grid: us, annualMeanC: 21 },
  {
    city: 'Las Palmas',
    lat: 28.12,
    lon: -15.44,
    timezone: 'Atlantic/Canary',
    sunny: 0.7,
    grid: eu,
    annualMeanC: 21.5,
    seasonalSwingC: 2.5,
  },
  { city: 'Lyon', lat: 45.76, lon: 4.84, timezone: 'Europe/Paris', sunny: 0.45, grid: eu, annualMeanC: 12.5 },
  { city: 'Monterrey', lat: 25.69, lon: -100.32, timezone: 'America/Monterrey', sunny: 0.6, grid: mx, annualMeanC: 22.5 },
  { city: 'Amsterdam', lat: 52.37, lon: 4.9, timezone: 'Europe/Amsterdam', sunny: 0.3, grid: eu, annualMeanC: 10.5 },
  {
    city: 'San Diego',
    lat: 32.72,
    lon: -117.16,
    timezone: 'America/Los_Angeles',
    sunny: 0.7,
    grid: us,
    annualMeanC: 17.5,
    seasonalSwingC: 3,
  },
];

/** What a provisioning step hands the simulator: SN and secret, optionally the whole spec. */
export interface GatewayCredentials {
  sn: string;
  secret: string;
  plant?: PlantSpec;
  devices?: DeviceSpec[];
  comm?: GatewaySpec['comm'];
  /** The server's firmware public key (raw Ed25519, base64) the gateway checks images with. */
  firmwareKey?: string;
}

export interface DemoFleetOptions {
  /** Number of gateways (plants); default: as many as credentials, else 12. */
  count?: number;
  seed?: number;
  /** Gateways the server knows. Without them SNs are SFGW000001… with an empty secret (plain brokers). */
  credentials?: readonly GatewayCredentials[];
}

type Template = (
  sn: string,
  rng: Rng,
) => { kind: string; plant: Omit<PlantSpec, 'lat' | 'lon' | 'timezone' | 'climate' | 'grid'>; devices: DeviceSpec[] };

const vary = (rng: Rng, x: number, spread = 0.2) => x * (1 + (rng.next() - 0.5) * 2 * spread);
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Device SN: a two-letter kind code and ten base-36 digits from the gateway SN (12 characters, fits every map). */
export function deviceSn(gatewaySn: string, code: string, index: number): string {
  const a = hash32(gatewaySn, code, index).toString(36).toUpperCase();
  const b = hash32(index, code, gatewaySn).toString(36).toUpperCase();
  return `${code}${`${a}${b}`.padStart(10, '0').slice(-10)}`;
}

// About 3.5 devices per plant: 12 plants ≈ 42 devices.
const templates: Template[] = [
  (sn, rng) => {
    const kwp = round1(vary(rng, 6.5));
    return {
      kind: 'Solar Home',
      plant: { capacityKw: kwp, type: 'dc' },
      devices: [
        {
          kind: 'hybrid',
          sn: deviceSn(sn, 'HY', 1),
          unit: 1,
          phases: 1,
          ratedW: kwp > 7 ? 6000 : 5000,
          pvKwp: kwp,
          mppts: 2,
          battery: { packs: rng.int(2, 3), highVoltage: false },
        },
        { kind: 'battery', sn: deviceSn(sn, 'BT', 1), unit: 2 },
        { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 3 },
      ],
    };
  },
  (sn, rng) => {
    const kwp = round1(vary(rng, 48, 0.25));
    const each = Math.round(kwp / 1.2 / 2) * 1000;
    return {
      kind: 'Solar Works',
      plant: { capacityKw: kwp, type: 'grid', load: { kind: 'business' } },
      devices: [
        { kind: 'string', sn: deviceSn(sn, 'ST', 1), unit: 1, ratedW: each, pvKwp: round1(kwp / 2), mppts: 3 },
        { kind: 'string', sn: deviceSn(sn, 'ST', 2), unit: 2, ratedW: each, pvKwp: round1(kwp / 2), mppts: 3 },
        { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 3 },
        { kind: 'weather', sn: deviceSn(sn, 'WS', 1), unit: 4 },
      ],
    };
  },
  (sn, rng) => {
    const panelWp = rng.pick([410, 430, 450]);
    const count = 4;
    return {
      kind: 'Roof',
      plant: { capacityKw: round1((count * 4 * panelWp) / 1000), type: 'grid' },
      devices: Array.from({ length: count }, (_, i) => ({
        kind: 'micro' as const,
        sn: deviceSn(sn, 'MI', i + 1),
        unit: i + 1,
        ratedW: 1600,
        panelWp,
      })),
    };
  },
  (sn, rng) => {
    const kwp = round1(vary(rng, 12));
    return {
      kind: 'Solar Farmhouse',
      plant: { capacityKw: kwp, type: 'dc' },
      devices: [
        {
          kind: 'hybrid',
          sn: deviceSn(sn, 'HY', 1),
          unit: 1,
          phases: 3,
          ratedW: 10000,
          pvKwp: kwp,
          mppts: 2,
          battery: { packs: rng.int(3, 5), highVoltage: true },
        },
        { kind: 'battery', sn: deviceSn(sn, 'BT', 1), unit: 2 },
        { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 3 },
        { kind: 'weather', sn: deviceSn(sn, 'WS', 1), unit: 4 },
      ],
    };
  },
  (sn, rng) => {
    const kwp = round1(vary(rng, 9));
    return {
      kind: 'Retrofit Home',
      plant: { capacityKw: kwp, type: 'ac' },
      devices: [
        { kind: 'string', sn: deviceSn(sn, 'ST', 1), unit: 1, ratedW: 8000, pvKwp: kwp, mppts: 2 },
        // The storage inverter (PCS) of the AC-coupled battery.
        {
          kind: 'hybrid',
          sn: deviceSn(sn, 'PC', 1),
          unit: 2,
          phases: 3,
          pcs: true,
          ratedW: 5000,
          pvKwp: 0,
          battery: { packs: 2, highVoltage: false },
        },
        { kind: 'battery', sn: deviceSn(sn, 'BT', 1), unit: 3 },
        { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 4 },
      ],
    };
  },
  (sn, rng) => {
    const kwp = round1(vary(rng, 5.5));
    return {
      kind: 'Solar House',
      plant: { capacityKw: kwp, type: 'grid' },
      devices: [
        { kind: 'string', sn: deviceSn(sn, 'ST', 1), unit: 1, phases: 1, ratedW: 5000, pvKwp: kwp, mppts: 2 },
        { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 2 },
      ],
    };
  },
  (sn, rng) => {
    const panelWp = rng.pick([400, 430]);
    return {
      kind: 'Balcony',
      plant: { capacityKw: round1((2 * 2 * panelWp) / 1000), type: 'grid' },
      devices: [1, 2].map((i) => ({
        kind: 'micro' as const,
        sn: deviceSn(sn, 'MI', i),
        unit: i,
        panels: 2 as const,
        ratedW: 800,
        panelWp,
      })),
    };
  },
];

/** The fleet spec for `count` plants (SNs, plants, devices); secrets from `credentials`. */
export function makeDemoFleet(options: DemoFleetOptions = {}): GatewaySpec[] {
  const credentials = options.credentials ?? [];
  const count = options.count ?? (credentials.length > 0 ? credentials.length : 12);
  const seed = options.seed ?? 1;
  const fleet: GatewaySpec[] = [];
  for (let i = 0; i < count; i++) {
    const given = credentials[i];
    const sn = given?.sn ?? `SFGW${String(i + 1).padStart(6, '0')}`;
    const rng = new Rng(hash32(seed, 'demo', i));
    const place = places[i % places.length]!;
    const template = templates[i % templates.length]!(sn, rng);
    const lap = Math.floor(i / places.length);
    const plant: PlantSpec = {
      name: `${place.city} ${template.kind}${lap > 0 ? ` ${lap + 1}` : ''}`.slice(0, 32),
      lat: round4(place.lat + (rng.next() - 0.5) * 0.3),
      lon: round4(place.lon + (rng.next() - 0.5) * 0.3),
      timezone: place.timezone,
      climate: {
        sunny: place.sunny,
        ...(place.annualMeanC !== undefined ? { annualMeanC: place.annualMeanC } : {}),
        ...(place.seasonalSwingC !== undefined ? { seasonalSwingC: place.seasonalSwingC } : {}),
      },
      grid: place.grid,
      ageDays: rng.int(60, 1500),
      ...template.plant,
    };
    fleet.push({
      sn,
      secret: given?.secret ?? '',
      plant: given?.plant ?? plant,
      devices: given?.devices ?? template.devices,
      comm: given?.comm ?? rng.pick(['4g', 'wifi', 'wifi', 'ethernet'] as const),
      ...(given?.firmwareKey ? { firmwareKey: given.firmwareKey } : {}),
    });
  }
  return fleet;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
