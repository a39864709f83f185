/** What hangs off one plant: inverter counts and list, attached devices, events. */
import { ErrorCode, type Language, limits, type plantsApi, type QueryOf } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import { stateCounts } from '../../energy/device-state.ts';
import { fail } from '../../http/errors.ts';
import { iso, localDay } from '../../time/index.ts';
import { eventFields } from '../events/mapper.ts';
import * as repo from './devices.repo.ts';
import { levelCounts } from './list.ts';

type InverterStatus = (typeof plantsApi.plantStatuses)[number];

/** The plant's inverters per state, as their badges show (off while powered off). */
export async function inverterCount(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId);
  const rows = await repo.inverterStateRows(db, plantId);
  return stateCounts(rows);
}

export async function plantInverters(db: Db, caller: Caller, plantId: number, query: QueryOf<typeof plantsApi.plantInverters>) {
  await plantFor(db, caller, plantId);
  const page = query.page ?? 1;
  const size = query.size ?? limits.page.defaultSize;
  const today = localDay(await repo.plantTimezone(db, plantId));
  const [rows, count] = await repo.inverterPage(db, plantId, today, page, size);
  return {
    total: Number(count.n),
    list: rows.map((r) => {
      const power = parseJson<Record<string, unknown>>(r.values, {}).activePower;
      return {
        id: r.id,
        sn: r.sn,
        alias: r.alias,
        gatewaySn: r.gateway_sn,
        status: r.status as InverterStatus,
        state: r.state,
        deviceType: r.device_type,
        ratedPower: r.rated_power_w === null ? null : Number(r.rated_power_w),
        // An offline inverter produces nothing, whatever its last reading said.
        power: r.status === 'offline' ? (r.values ? 0 : null) : typeof power === 'number' ? power : null,
        todayEnergy: Number(r.pv_wh ?? 0),
        lastUpdate: iso(r.ts),
      };
    }),
  };
}

export async function checkDevices(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId);
  const [gateways, kinds] = await repo.deviceCounts(db, plantId);
  const of = (kind: string) => Number(kinds.find((k) => k.kind === kind)?.n ?? 0);
  const result = {
    gateways: Number(gateways.n),
    inverters: of('inverter'),
    batteries: of('battery'),
    meters: of('meter'),
    weather: of('weather'),
  };
  return { hasDevices: Object.values(result).some((n) => n > 0), ...result };
}

export async function plantEventCount(db: Db, caller: Caller, plantId: number) {
  await plantFor(db, caller, plantId);
  const rows = await repo.openEventLevels(db, plantId);
  return levelCounts(rows);
}

const DAY_MS = 86_400_000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Dates are plant-local days, read as UTC days here (an hour or so of difference at the edges). */
export async function plantEvents(
  db: Db,
  caller: Caller,
  plantId: number,
  query: QueryOf<typeof plantsApi.plantEvents>,
  lan: Language,
) {
  await plantFor(db, caller, plantId);
  const page = query.page ?? 1;
  const size = query.size ?? limits.page.defaultSize;
  const from = query.startDate ? dayStart(query.startDate) : null;
  const to = query.endDate ? dayStart(query.endDate) + DAY_MS : null;
  if ((query.startDate && Number.isNaN(from)) || (query.endDate && Number.isNaN(to)))
    fail(ErrorCode.validation, 'query.startDate and query.endDate must be dates');
  if (from !== null && to !== null) {
    if (to <= from) fail(ErrorCode.validation, 'query.endDate must not be before query.startDate');
    if (to - from > limits.dateRangeDays * DAY_MS)
      fail(ErrorCode.validation, `query: the date range spans at most ${limits.dateRangeDays} days`);
  }
  const [rows, count] = await repo.plantEventPage(db, plantId, { level: query.level, state: query.state, from, to }, page, size);
  return {
    total: Number(count.n),
    list: rows.map((r) => eventFields(r, lan)),
  };
}
