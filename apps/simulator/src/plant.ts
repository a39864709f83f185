// One plant's physics: the sky over it, the building's load, and its devices wired together.
// Each step: light on the array → PV inverters' output; the hybrid inverter balances PV,
// battery and the rest of the load by its work mode; the grid takes or gives what is left
// (grid = load − PV inverters − hybrid output), and the meter at the connection sees that.
// Counters integrate every step; readings are taken at upload times.
import { BatteryPack, type BatterySpec } from './devices/battery-pack.ts';
import type { DeviceContext, Environment, GridSupply, VirtualDevice } from './devices/device.ts';
import { GridMeter, type MeterSpec } from './devices/grid-meter.ts';
import { HybridInverter, type HybridSpec } from './devices/hybrid-inverter.ts';
import { MicroInverter, type MicroSpec } from './devices/micro-inverter.ts';
import { StringInverter, type StringSpec } from './devices/string-inverter.ts';
import { type WeatherSpec, WeatherStation } from './devices/weather-station.ts';
import { type LoadKind, LoadModel, typicalDailyKwh } from './physics/load.ts';
import { LocalTime } from './physics/local-time.ts';
import { cellTemperature } from './physics/pv.ts';
import { clearSkyGhi, defaultPlane, irradiance, type Plane, sunPosition } from './physics/sun.ts';
import { type Climate, WeatherModel } from './physics/weather.ts';
import { hash32, smoothNoise } from './random.ts';

/** grid: grid-tied PV; ac: storage AC-coupled (PV inverters + a battery inverter); dc: storage DC-coupled (hybrid). */
export type PlantType = 'grid' | 'ac' | 'dc';

export interface PlantSpec {
  /** For the portal's plant record (5..32 characters); the physics ignores it. */
  name?: string;
  lat: number;
  lon: number;
  /** IANA time zone, e.g. Europe/Madrid. */
  timezone: string;
  /** Installed PV, kWp. */
  capacityKw: number;
  type: PlantType;
  climate?: Climate;
  load?: { kind: LoadKind; dailyKwh?: number };
  grid?: GridSupply;
  plane?: Plane;
  /** Days since commissioning (lifetime counters start from a plausible total). */
  ageDays?: number;
}

export type DeviceSpec = HybridSpec | StringSpec | MicroSpec | BatterySpec | MeterSpec | WeatherSpec;

export interface PlantOptions {
  seed: number;
  /** Faults per device per day (default 0). */
  faultRate?: number;
  /** Periods off the bus per device per day (default 0). */
  offlineRate?: number;
  /** Longest physics step, s: counters integrate at this resolution (default 60). */
  physicsStepS?: number;
}

type PvInverter = StringInverter | MicroInverter;

export interface BusChange {
  t: number;
  device: VirtualDevice;
  offBus: boolean;
}

export class Plant {
  readonly devices: VirtualDevice[] = [];
  readonly pvInverters: PvInverter[] = [];
  readonly hybrids: HybridInverter[] = [];
  readonly batteries: BatteryPack[] = [];
  readonly meters: GridMeter[] = [];
  readonly stations: WeatherStation[] = [];
  readonly time: LocalTime;
  readonly plane: Plane;
  readonly weather: WeatherModel;
  readonly load: LoadModel;
  /** Latest state. */
  loadW = 0;
  gridW = 0;
  private lastT: number | undefined;
  private busChanges: BusChange[] = [];
  private lastEnv: Environment | undefined;
  private readonly seed: number;
  private readonly grid: GridSupply;
  private readonly stepMs: number;

  constructor(
    readonly spec: PlantSpec,
    deviceSpecs: readonly DeviceSpec[],
    options: PlantOptions,
  ) {
    this.seed = options.seed >>> 0;
    this.grid = spec.grid ?? { hz: 50, voltage: 230 };
    this.stepMs = Math.max(1, options.physicsStepS ?? 60) * 1000;
    this.time = new LocalTime(spec.timezone);
    this.plane = spec.plane ?? defaultPlane(spec.lat);
    this.weather = new WeatherModel(hash32(this.seed, 'weather'), spec.lat, spec.lon, spec.climate ?? { sunny: 0.5 });
    const loadKind = spec.load?.kind ?? (spec.capacityKw > 30 ? 'business' : 'household');
    const dailyKwh = spec.load?.dailyKwh ?? typicalDailyKwh(loadKind, spec.capacityKw);
    this.load = new LoadModel(hash32(this.seed, 'load'), { kind: loadKind, dailyKwh }, this.time, spec.lat);
    const context: DeviceContext = {
      seed: this.seed,
      faultRate: options.faultRate ?? 0,
      offlineRate: options.offlineRate ?? 0,
      ageDays: spec.ageDays ?? 100 + (hash32(this.seed, 'age') % 1400),
      grid: this.grid,
    };
    const add = <D extends VirtualDevice>(device: D, list: D[]) => {
      list.push(device);
      this.devices.push(device);
    };
    for (const d of deviceSpecs) {
      if (d.kind === 'hybrid') add(new HybridInverter(d, context), this.hybrids);
      else if (d.kind === 'string') add(new StringInverter(d, context), this.pvInverters);
      else if (d.kind === 'micro') add(new MicroInverter(d, context), this.pvInverters);
      else if (d.kind === 'meter') add(new GridMeter(d, context, dailyKwh), this.meters);
      else if (d.kind === 'weather') add(new WeatherStation(d, context), this.stations);
    }
    for (const d of deviceSpecs) {
      if (d.kind !== 'battery') continue;
      const inverter = this.hybrids.find((h) => (d.inverter ? h.sn === d.inverter : h.battery !== null));
      if (!inverter) throw new Error(`battery ${d.sn}: no hybrid inverter with a battery on this gateway`);
      add(new BatteryPack(d, inverter, context), this.batteries);
    }
    // Devices answer on the bus in the order they were specified.
    const order = new Map(deviceSpecs.map((d, i) => [d.sn, i]));
    this.devices.sort((a, b) => order.get(a.sn)! - order.get(b.sn)!);
  }

  device(sn: string): VirtualDevice | undefined {
    return this.devices.find((d) => d.sn === sn);
  }

  /** Sun, sky, temperatures and grid at instant `t`. */
  environment(t: number): Environment {
    const { lat, lon } = this.spec;
    const sun = sunPosition(t, lat, lon);
    const weather = this.weather.at(t);
    const ghi = clearSkyGhi(sun) * weather.clearSkyIndex;
    const light = irradiance(sun, ghi, weather.diffuseFraction, this.plane);
    const wander = smoothNoise(this.seed, t / 60_000, 7, 21) - 0.5;
    return {
      t,
      localDay: this.time.day(t),
      hour: this.time.hour(t),
      utcOffsetMs: this.time.offsetMs(t),
      sun,
      weather,
      irradiance: light,
      cellC: cellTemperature(weather.ambientC, light.poa, weather.windMs),
      grid: this.grid,
      voltage: this.grid.voltage * (1 + 0.02 * wander),
      frequency: this.grid.hz + 0.06 * (smoothNoise(this.seed, t / 1000, 40, 22) - 0.5),
    };
  }

  /**
   * Move the fault and off-bus episodes on, then run the physics forward to `t` in steps no
   * longer than the physics step; the state at `t`.
   */
  advance(t: number): Environment {
    if (this.lastT === undefined) {
      this.lastT = t;
      this.lastEnv = this.step(t, 0);
      return this.lastEnv;
    }
    if (t <= this.lastT) return this.lastEnv!;
    const from = this.lastT;
    // Episodes first, so a reading's fault bits and its power agree.
    for (const device of this.devices) {
      if (device.stepEpisodes(t, t - from).busChanged) this.busChanges.push({ t, device, offBus: device.offBus.active });
    }
    const steps = Math.ceil((t - from) / this.stepMs);
    const dt = (t - from) / steps;
    let env = this.lastEnv!;
    for (let k = 1; k <= steps; k++) env = this.step(k === steps ? t : from + k * dt, dt);
    this.lastT = t;
    this.lastEnv = env;
    return env;
  }

  /** Devices that stopped or started answering on the bus since the last call. */
  takeBusChanges(): BusChange[] {
    const changes = this.busChanges;
    this.busChanges = [];
    return changes;
  }

  private step(t: number, dtMs: number): Environment {
    const env = this.environment(t);
    const load = this.load.at(t);
    for (const b of this.batteries) b.syncAvailability();
    let pvAc = 0;
    for (const inverter of this.pvInverters) pvAc += inverter.generate(env);
    let hybridAc = 0;
    const share = this.hybrids.length > 0 ? 1 / this.hybrids.length : 0;
    for (const h of this.hybrids) hybridAc += h.dispatch(env, (load - pvAc) * share, load * share, dtMs);
    this.loadW = load;
    this.gridW = load - pvAc - hybridAc;
    for (const m of this.meters) m.measure(this.gridW, load);
    for (const inverter of this.pvInverters) inverter.record(env);
    for (const h of this.hybrids) h.record(env);
    for (const m of this.meters) m.record(env);
    for (const s of this.stations) s.record(env);
    return env;
  }
}
