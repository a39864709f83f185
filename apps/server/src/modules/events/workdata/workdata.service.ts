/**
 * Operation data of one device: its parameters, a keyset page of samples for the virtual table,
 * chart series downsampled to at most WORKDATA_CHART_POINTS time buckets, and its events with the
 * reading at each event's start.
 */
import { ErrorCode, type Language, type QueryOf, workdataApi } from '@sunfleet/contracts';
import type { Caller } from '../../../access/caller.ts';
import { type DeviceSubject, subjectFor } from '../../../access/resolve.ts';
import type { Db } from '../../../db/index.ts';
import { sampleBuckets } from '../../../energy/samples.ts';
import { fail } from '../../../http/errors.ts';
import { dayRange, iso, type TimeRange } from '../../../time/index.ts';
import { inConvention } from '../../devices/signed-power.ts';
import { eventsPage } from '../events.service.ts';
import { chooseParams, type DeviceParams, deviceParams, type ResolvedParam } from './params.ts';
import { SampleReader, type SampleRow } from './samples.ts';

const head = (d: DeviceSubject) => ({ sn: d.sn, kind: d.kind, alias: d.alias, timezone: d.timezone });
const toRow = (r: SampleRow) => ({ ts: iso(r.ts)!, values: r.values });

/** The device, its parameters and the checked range of a workdata query. */
export async function workdataInput(
  db: Db,
  caller: Caller,
  q: { sn: string; startDate: string; endDate: string; params?: string[] },
  lan: Language,
  opts: { numeric?: boolean; kind?: 'battery' } = {},
): Promise<{ device: DeviceSubject; params: DeviceParams; chosen: ResolvedParam[]; range: TimeRange }> {
  const device = await subjectFor(db, caller, q.sn, { deviceOnly: true });
  if (opts.kind && device.kind !== opts.kind) fail(ErrorCode.validation, `query.sn must be a ${opts.kind}`);
  const asked = dayRange(q, device.timezone) as TimeRange;
  // The device's samples from its binding to its plant on: earlier ones are an earlier owner's.
  const range = { ...asked, from: Math.max(asked.from, device.since) };
  const params = deviceParams(device.kind, device.protocolId, lan);
  const chosen = chooseParams(params, q.params, opts);
  return { device, params, chosen, range };
}

export async function workdataParams(db: Db, caller: Caller, sn: string, lan: Language) {
  const device = await subjectFor(db, caller, sn, { deviceOnly: true });
  const params = deviceParams(device.kind, device.protocolId, lan);
  return { ...head(device), protocol: device.protocolId, params: params.all.map((p) => p.info), defaults: params.defaults };
}

export async function workdataPage(db: Db, caller: Caller, q: QueryOf<typeof workdataApi.workdataDynamic>, lan: Language) {
  const { device, params, chosen, range } = await workdataInput(db, caller, q, lan);
  const size = q.size ?? 200;
  const reader = new SampleReader(params, chosen, device.deviceId);
  const [rows, total] = await Promise.all([
    reader.page(db, range.from, range.to, q.after ?? null, size + 1),
    reader.count(db, range.from, range.to),
  ]);
  const more = rows.length > size;
  const list = more ? rows.slice(0, size) : rows;
  return {
    ...head(device),
    params: chosen.map((p) => p.info),
    total,
    list: list.map(toRow),
    next: more ? list[list.length - 1]!.ts : null,
  };
}

interface Bucket {
  ts: number;
  sum: number[];
  n: number[];
  min: (number | null)[];
  max: (number | null)[];
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** Bucket width: whole minutes, so that the range makes at most `points` buckets. */
export function bucketMs(range: TimeRange, points = workdataApi.WORKDATA_CHART_POINTS): number {
  return Math.ceil((range.to - range.from) / points / 60_000) * 60_000;
}

export async function workdataChart(db: Db, caller: Caller, q: QueryOf<typeof workdataApi.workdataChart>, lan: Language) {
  const { device, params, chosen, range } = await workdataInput(db, caller, q, lan, { numeric: true });
  const reader = new SampleReader(params, chosen, device.deviceId);
  const total = await reader.count(db, range.from, range.to);
  const base = { ...head(device), params: chosen.map((p) => p.info) };
  if (total <= workdataApi.WORKDATA_CHART_POINTS) {
    const rows = await reader.page(db, range.from, range.to, null, workdataApi.WORKDATA_CHART_POINTS);
    const column = (i: number) => rows.map((r) => (typeof r.values[i] === 'number' ? (r.values[i] as number) : null));
    return {
      ...base,
      bucketSeconds: 0,
      ts: rows.map((r) => iso(r.ts)!),
      series: chosen.map((p, i) => ({ key: p.info.key, avg: column(i), min: column(i), max: column(i) })),
    };
  }
  const width = bucketMs(range);
  const buckets = reader.needsRaw
    ? await bucketsInMemory(db, reader, range, width, chosen.length)
    : await bucketsInStore(db, params, device.deviceId, chosen, range, width);
  return {
    ...base,
    bucketSeconds: width / 1000,
    ts: buckets.map((b) => iso(b.ts)!),
    series: chosen.map((p, i) => ({
      key: p.info.key,
      avg: buckets.map((b) => (b.n[i]! > 0 ? round(b.sum[i]! / b.n[i]!) : null)),
      min: buckets.map((b) => b.min[i] ?? null),
      max: buckets.map((b) => b.max[i] ?? null),
    })),
  };
}

/** Stored columns only: the store groups (integer division of the offset by the width). */
async function bucketsInStore(
  db: Db,
  params: DeviceParams,
  deviceId: number,
  chosen: ResolvedParam[],
  range: TimeRange,
  width: number,
): Promise<Bucket[]> {
  const rows = await sampleBuckets(
    db,
    params.table,
    deviceId,
    chosen.map((p) => p.column!),
    range,
    width,
  );
  const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const turned = (v: number | null, sign: 1 | -1) => (v === null ? null : inConvention(v, sign));
  return rows.map((r) => {
    const low = chosen.map((_, i) => num(r[`lo${i}`]));
    const high = chosen.map((_, i) => num(r[`hi${i}`]));
    return {
      ts: Number(r.t),
      sum: chosen.map((p, i) => inConvention((num(r[`a${i}`]) ?? 0) * (num(r[`n${i}`]) ?? 0), p.sign)),
      n: chosen.map((_, i) => num(r[`n${i}`]) ?? 0),
      // The store aggregates register values: a turned parameter's lowest value is the register's highest.
      min: chosen.map((p, i) => turned(p.sign === 1 ? low[i]! : high[i]!, p.sign)),
      max: chosen.map((p, i) => turned(p.sign === 1 ? high[i]! : low[i]!, p.sign)),
    };
  });
}

/** Decoded parameters: every sample is read (keyset pages) and folded into its bucket. */
async function bucketsInMemory(db: Db, reader: SampleReader, range: TimeRange, width: number, count: number) {
  const buckets: Bucket[] = [];
  let current: Bucket | null = null;
  let index = -1;
  let after: number | null = null;
  for (;;) {
    const rows = await reader.page(db, range.from, range.to, after, 5000);
    for (const r of rows) {
      const b = Math.floor((r.ts - range.from) / width);
      if (b !== index || !current) {
        index = b;
        current = {
          ts: r.ts,
          sum: new Array(count).fill(0),
          n: new Array(count).fill(0),
          min: new Array(count).fill(null),
          max: new Array(count).fill(null),
        };
        buckets.push(current);
      }
      for (let i = 0; i < count; i++) {
        const v = r.values[i];
        if (typeof v !== 'number') continue;
        current.sum[i]! += v;
        current.n[i]! += 1;
        if (current.min[i] === null || v < current.min[i]!) current.min[i] = v;
        if (current.max[i] === null || v > current.max[i]!) current.max[i] = v;
      }
    }
    if (rows.length < 5000) return buckets;
    after = rows[rows.length - 1]!.ts;
  }
}

/** A reading counts for an event when at most this long before its start. */
const READING_WINDOW_MS = 3_600_000;

export async function workdataEvents(
  db: Db,
  caller: Caller,
  q: QueryOf<typeof workdataApi.workdataEvents>,
  lan: Language,
  kind?: 'battery',
) {
  const { device, params, chosen, range } = await workdataInput(db, caller, q, lan, { kind });
  const reader = new SampleReader(params, chosen, device.deviceId);
  const page = await eventsPage(
    db,
    caller,
    { since: device.since, sn: device.sn, level: q.level, state: q.state, range },
    q,
    lan,
  );
  const list = [];
  for (const event of page.list) {
    const start = Date.parse(event.startedAt);
    const sample = await reader.at(db, start, Math.max(start - READING_WINDOW_MS, device.since - 1));
    list.push({ event, sample: sample ? toRow(sample) : null });
  }
  return { ...head(device), params: chosen.map((p) => p.info), total: page.total, list };
}
