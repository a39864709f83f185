/**
 * The weather at a plant, from its weather station's latest values and samples; no outside
 * weather service is called (offline-first): a plant without a station answers source 'none'.
 *
 * A plant's station is its weather-kind device (behind one of its gateways) that reported last;
 * `saveAuthInfo` attaches a station by SN: it must be a weather device behind one of the plant's
 * gateways (else 404), and is moved into the plant if it is not in it yet. Humidity is read when
 * the station's protocol has it (sunfleet-weather does), else null. Irradiation today is the
 * station's own daily counter (kWh/m² → Wh/m²) when its latest reading is of the plant's today.
 */
import { type DataOf, ErrorCode, type Language, plantEnergyApi } from '@sunfleet/contracts';
import { getProtocol, listProtocols } from '@sunfleet/protocols';
import type { Caller } from '../../access/caller.ts';
import { type PlantDevice, plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { deviceLatest, type LatestDevice, num, plantLatest } from '../../energy/latest.ts';
import { samplesIn } from '../../energy/samples.ts';
import { fail } from '../../http/errors.ts';
import { dayBounds, iso, localDay, requestDay } from '../../time/index.ts';
import { bindDeviceToPlant, plantTimezone, weatherStationOfPlant } from './plant.repo.ts';

export type WeatherNow = DataOf<typeof plantEnergyApi.weather>;
export type WeatherStationInfo = DataOf<typeof plantEnergyApi.saveWeatherAuth>;
export type WeatherDay = DataOf<typeof plantEnergyApi.weatherStationDay>;

const STEP_MS = plantEnergyApi.POWER_CURVE_STEP_MINUTES * 60_000;

const none: WeatherNow = {
  source: 'none',
  stationSn: null,
  irradiance: null,
  ambientTemperature: null,
  moduleTemperature: null,
  windSpeed: null,
  humidity: null,
  dailyIrradiation: null,
  at: null,
};

const hasField = (protocolId: string, key: string) => getProtocol(protocolId)?.fields.some((f) => f.key === key) ?? false;

export function weatherNow(station: LatestDevice | null, timezone: string, now = Date.now()): WeatherNow {
  if (!station) return none;
  const v = station.values;
  const daily = num(v.dailyIrradiation);
  const ofToday = station.ts !== null && localDay(timezone, station.ts) === localDay(timezone, now);
  return {
    source: 'station',
    stationSn: station.sn,
    irradiance: num(v.irradiance),
    ambientTemperature: num(v.ambientTemperature),
    moduleTemperature: num(v.moduleTemperature),
    windSpeed: num(v.windSpeed),
    humidity: hasField(station.protocolId, 'humidity') ? num(v.humidity) : null,
    dailyIrradiation: daily !== null && ofToday ? Math.round(daily * 1_000_000) / 1000 : null,
    at: iso(station.ts),
  };
}

/** The plant's station: its weather device that reported last (then the first attached). */
export function stationOf(devices: readonly LatestDevice[]): LatestDevice | null {
  let best: LatestDevice | null = null;
  for (const d of devices) {
    if (d.kind !== 'weather') continue;
    if (!best || (d.ts ?? -1) > (best.ts ?? -1)) best = d;
  }
  return best;
}

export async function plantWeather(db: Db, caller: Caller, plantId: number): Promise<WeatherNow> {
  await plantFor(db, caller, plantId);
  const timezone = await plantTimezone(db, plantId);
  return weatherNow(stationOf(await plantLatest(db, plantId, ['weather'])), timezone);
}

/** A weather station's reading now (`device`: a weather station on a plant the caller sees). */
export async function stationWeather(db: Db, device: PlantDevice): Promise<WeatherNow> {
  return weatherNow(await deviceLatest(db, device.id), device.timezone);
}

const info = (d: LatestDevice): WeatherStationInfo => ({
  sn: d.sn,
  alias: d.alias,
  protocol: d.protocolId,
  status: d.status as WeatherStationInfo['status'],
  gatewaySn: d.gatewaySn,
  lastUpdate: iso(d.ts),
});

export async function stationInfo(db: Db, caller: Caller, plantId: number): Promise<WeatherStationInfo[]> {
  await plantFor(db, caller, plantId);
  return (await plantLatest(db, plantId, ['weather'])).map(info);
}

/** The weather products the portal reads: protocols of the weather kind and their telemetry fields. */
export function weatherProducts(lan: Language) {
  return listProtocols()
    .filter((p) => p.kind === 'weather')
    .map((p) => ({
      protocol: p.id,
      name: p.name[lan],
      fields: (getProtocol(p.id)?.fields ?? []).filter((f) => f.group === 'realtime').map((f) => f.key),
    }));
}

/** Attach a weather station by SN: a weather device behind one of the plant's gateways. */
export async function attachStation(db: Db, caller: Caller, plantId: number, sn: string): Promise<WeatherStationInfo> {
  await plantFor(db, caller, plantId, 'operate');
  const device = await weatherStationOfPlant(db, plantId, sn);
  if (!device) return fail(ErrorCode.notFound);
  if (device.plant_id !== plantId) {
    // It joins the plant now: its data from before is not the plant's.
    const t = Date.now();
    await bindDeviceToPlant(db, device.id, plantId, t);
  }
  const latest = await deviceLatest(db, device.id);
  return info(latest!);
}

/** A station's day in 5-minute buckets (averages of its samples), plant-local. */
export async function stationDay(db: Db, device: PlantDevice, date: string | undefined): Promise<WeatherDay> {
  const day = requestDay(device.timezone, date);
  const { start, end } = dayBounds(device.timezone, day);
  const rows = await samplesIn(
    db,
    'weather_samples',
    device.id,
    Math.max(start, device.boundAt),
    end,
    ['irradiance_wm2', 'ambient_c', 'module_c', 'wind_ms'],
    { ordered: true },
  );
  const buckets = new Map<number, { sums: number[]; counts: number[] }>();
  for (const r of rows) {
    const i = Math.floor((Number(r.ts) - start) / STEP_MS);
    let b = buckets.get(i);
    if (!b) {
      b = { sums: [0, 0, 0, 0], counts: [0, 0, 0, 0] };
      buckets.set(i, b);
    }
    [r.irradiance_wm2, r.ambient_c, r.module_c, r.wind_ms].forEach((v, k) => {
      if (v === null) return;
      b.sums[k]! += Number(v);
      b.counts[k]!++;
    });
  }
  const avg = (b: { sums: number[]; counts: number[] }, k: number) =>
    b.counts[k] ? Math.round((b.sums[k]! / b.counts[k]!) * 100) / 100 : null;
  return {
    date: day,
    points: [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, b]) => ({
        time: iso(start + i * STEP_MS)!,
        irradiance: avg(b, 0),
        ambientTemperature: avg(b, 1),
        moduleTemperature: avg(b, 2),
        windSpeed: avg(b, 3),
      })),
  };
}
