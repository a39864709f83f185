/**
 * The report of an event the portal's batteries took part in, made once the event's window has
 * closed (its end, or the moment it was cancelled or the VTN no longer had it): per resource (an
 * enrolled device) and interval it took part in, what its inverter measured (battery power from
 * the samples, through `energy/`) over the part of the interval that really ran.
 *
 * Payload types and signs as OpenADR 3.1 defines them (`docs/decisions.md`):
 * - USAGE: energy used over the interval (kWh; Wh when asked): consumption positive, so a battery
 *   that discharged reports a negative value;
 * - DEMAND: mean real power over the interval (kW; W when asked), consumption positive;
 * - STORAGE_CHARGE_LEVEL: the state of charge at the interval's end, PERCENT as a fraction
 *   (0.0 empty … 1.0 full);
 * - STORAGE_USABLE_CAPACITY (kWh), STORAGE_MAX_DISCHARGE_POWER, STORAGE_MAX_CHARGE_POWER (kW,
 *   magnitudes): what the device was enrolled with.
 * Each report descriptor of the event the VEN can answer is answered; none asked: DEMAND.
 * A report is bound to the VTN object it answers (its id and creation time, kept in the outbox
 * row) and goes to the outbox once per event row.
 */
import type { Db } from '../db/index.ts';
import { samplesIn } from '../energy/samples.ts';
import { absoluteIntervals } from './intervals.ts';
import { enqueue } from './store.ts';
import { formatDuration, type OadrEvent } from './wire.ts';

/** Mean battery power (W, + discharge) of the device's samples in [from, to); null without samples. */
export async function deliveredW(db: Db, deviceId: number, from: number, to: number): Promise<number | null> {
  return (await measured(db, deviceId, from, to)).meanW;
}

/** What the device's samples in [from, to) say: mean battery power (W, + discharge) and the last state of charge (%). */
export async function measured(
  db: Db,
  deviceId: number,
  from: number,
  to: number,
): Promise<{ meanW: number | null; lastSoc: number | null }> {
  if (to <= from) return { meanW: null, lastSoc: null };
  const rows = await samplesIn(db, 'inverter_samples', deviceId, from, to, ['battery_power_w', 'soc'], { ordered: true });
  const powers = rows.filter((r) => r.battery_power_w !== null).map((r) => Number(r.battery_power_w));
  const socs = rows.filter((r) => r.soc !== null).map((r) => Number(r.soc));
  return {
    meanW: powers.length === 0 ? null : powers.reduce((a, b) => a + b, 0) / powers.length,
    lastSoc: socs.length === 0 ? null : socs.at(-1)!,
  };
}

interface PayloadRule {
  readingType: string;
  units: (asked: string | null) => string;
  value: (m: {
    meanW: number | null;
    lastSoc: number | null;
    hours: number;
    units: string;
    device: DeviceFacts;
  }) => number | null;
}
interface DeviceFacts {
  chargeW: number;
  dischargeW: number;
  storageWh: number;
}

const kiloOr = (asked: string | null, base: 'W' | 'WH') => (asked?.toUpperCase() === base ? base : `K${base}`);
const scale = (units: string) => (units.startsWith('K') ? 1000 : 1);

/** The payload types the VEN answers, with their reading type, units and value (signs as 3.1 defines them). */
const PAYLOADS: Record<string, PayloadRule> = {
  USAGE: {
    readingType: 'DIRECT_READ',
    units: (asked) => kiloOr(asked, 'WH'),
    value: ({ meanW, hours, units }) => (meanW === null ? 0 : (-meanW * hours) / scale(units)),
  },
  DEMAND: {
    readingType: 'MEAN',
    units: (asked) => kiloOr(asked, 'W'),
    value: ({ meanW, units }) => (meanW === null ? 0 : -meanW / scale(units)),
  },
  STORAGE_CHARGE_LEVEL: {
    readingType: 'DIRECT_READ',
    units: () => 'PERCENT',
    value: ({ lastSoc }) => (lastSoc === null ? null : lastSoc / 100),
  },
  STORAGE_USABLE_CAPACITY: {
    readingType: 'DIRECT_READ',
    units: (asked) => kiloOr(asked, 'WH'),
    value: ({ device, units }) => device.storageWh / scale(units),
  },
  STORAGE_MAX_DISCHARGE_POWER: {
    readingType: 'DIRECT_READ',
    units: (asked) => kiloOr(asked, 'W'),
    value: ({ device, units }) => device.dischargeW / scale(units),
  },
  STORAGE_MAX_CHARGE_POWER: {
    readingType: 'DIRECT_READ',
    units: (asked) => kiloOr(asked, 'W'),
    value: ({ device, units }) => device.chargeW / scale(units),
  },
};

export interface ReportBody {
  eventID: string;
  clientName: string;
  reportName: string;
  payloadDescriptors: { objectType: 'REPORT_PAYLOAD_DESCRIPTOR'; payloadType: string; readingType: string; units: string }[];
  resources: {
    resourceName: string;
    intervals: {
      id: number;
      intervalPeriod: { start: string; duration: string };
      payloads: { type: string; values: number[] }[];
    }[];
  }[];
}

/** The payload descriptors of the report: each one the event asks for that the VEN can answer; none: DEMAND. */
export function reportPayloads(event: Pick<OadrEvent, 'reportDescriptors'>): ReportBody['payloadDescriptors'] {
  const asked = (event.reportDescriptors ?? [])
    .map((d) => ({ type: String(d.payloadType ?? '').toUpperCase(), units: d.units ?? null }))
    .filter((d) => Object.hasOwn(PAYLOADS, d.type));
  const wanted = asked.length > 0 ? asked : [{ type: 'DEMAND', units: null }];
  const seen = new Set<string>();
  return wanted
    .filter((d) => !seen.has(d.type) && seen.add(d.type))
    .map((d) => ({
      objectType: 'REPORT_PAYLOAD_DESCRIPTOR' as const,
      payloadType: d.type,
      readingType: PAYLOADS[d.type]!.readingType,
      units: PAYLOADS[d.type]!.units(d.units),
    }));
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Build the event row's report over the window that really ran and put it in the outbox; returns
 * it (null when no device took part). `closedAt`: when the window closed (its end, or when it was
 * cancelled); a device restored earlier (opt-out, left the programme) is reported up to then.
 */
export async function queueReport(db: Db, eventId: number, venName: string, now = Date.now()): Promise<ReportBody | null> {
  const ev = await db.selectFrom('dr_events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  const event = JSON.parse(ev.body) as OadrEvent;
  const rows = await db
    .selectFrom('dr_dispatches as x')
    .innerJoin('dr_enrollment_devices as d', 'd.id', 'x.enrollment_device_id')
    .select([
      'x.device_id',
      'x.device_sn',
      'x.interval_id',
      'x.action',
      'x.state',
      'x.start_ms',
      'd.charge_w',
      'd.discharge_w',
      'd.storage_wh',
    ])
    .where('x.event_id', '=', eventId)
    .execute();
  const sent = rows.filter((r) => r.action !== 'restore' && r.state === 'succeeded');
  const markReported = () => db.updateTable('dr_events').set({ reported_at: now }).where('id', '=', eventId).execute();
  if (sent.length === 0 || ev.ignored_reason !== null) {
    await markReported();
    return null;
  }
  const closedAt = Math.min(
    ev.cancelled_at === null ? Number.POSITIVE_INFINITY : Number(ev.cancelled_at),
    ev.end_ms === null ? Number.POSITIVE_INFINITY : Number(ev.end_ms),
  );
  const payloads = reportPayloads(event);
  const intervals = absoluteIntervals(event, Number(ev.received_at));
  const resources: ReportBody['resources'] = [];
  for (const deviceId of new Set(sent.map((s) => s.device_id))) {
    const mine = sent.filter((s) => s.device_id === deviceId);
    const restore = rows.find((r) => r.device_id === deviceId && r.action === 'restore' && r.state === 'succeeded');
    const until = Math.min(closedAt, restore ? Number(restore.start_ms) : Number.POSITIVE_INFINITY);
    const device: DeviceFacts = {
      chargeW: Number(mine[0]!.charge_w),
      dischargeW: Number(mine[0]!.discharge_w),
      storageWh: Number(mine[0]!.storage_wh),
    };
    const list: ReportBody['resources'][number]['intervals'] = [];
    for (const i of intervals) {
      if (!mine.some((s) => s.interval_id === i.id)) continue;
      const end = Math.min(i.end, until);
      if (end <= i.start) continue;
      const m = await measured(db, deviceId, i.start, end);
      const hours = (end - i.start) / 3_600_000;
      list.push({
        id: i.id,
        intervalPeriod: { start: new Date(i.start).toISOString(), duration: formatDuration(end - i.start) },
        payloads: payloads.flatMap((p) => {
          const value = PAYLOADS[p.payloadType]!.value({ ...m, hours, units: p.units, device });
          return value === null ? [] : [{ type: p.payloadType, values: [round(value)] }];
        }),
      });
    }
    if (list.length > 0) resources.push({ resourceName: mine[0]!.device_sn, intervals: list });
  }
  if (resources.length === 0) {
    await markReported();
    return null;
  }
  const report: ReportBody = {
    eventID: event.id,
    clientName: venName,
    reportName: `sunfleet-${event.id}`,
    payloadDescriptors: payloads,
    resources,
  };
  await enqueue(db, 'report', `report:${ev.id}`, report, { vtnId: ev.vtn_id, created: ev.vtn_created }, now);
  await markReported();
  return report;
}
