/**
 * The report of an event the portal's batteries took part in: per resource (an enrolled device)
 * and interval, the power the battery actually delivered, from its inverter's samples (battery
 * power, + discharge) through `energy/`. The payload type is the one the event's first report
 * descriptor asks for when the VEN can give it (USAGE: kWh over the interval; DEMAND: mean kW),
 * else DEMAND. The report goes to the outbox (one per event) and is sent from there.
 */
import type { Db } from '../db/index.ts';
import { samplesIn } from '../energy/samples.ts';
import { absoluteIntervals } from './intervals.ts';
import { enqueue } from './store.ts';
import { formatDuration, type OadrEvent } from './wire.ts';

/** Mean battery power (W, + discharge) of the device's samples in [from, to); null without samples. */
export async function deliveredW(db: Db, deviceId: number, from: number, to: number): Promise<number | null> {
  const rows = await samplesIn(db, 'inverter_samples', deviceId, from, to, ['battery_power_w'], { notNull: 'battery_power_w' });
  if (rows.length === 0) return null;
  return rows.reduce((s, r) => s + Number(r.battery_power_w), 0) / rows.length;
}

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

/** Build the event's report and put it in the outbox; returns it (null when no device took part). */
export async function queueReport(db: Db, eventId: number, venName: string, now = Date.now()): Promise<ReportBody | null> {
  const ev = await db.selectFrom('dr_events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
  const event = JSON.parse(ev.body) as OadrEvent;
  const sent = await db
    .selectFrom('dr_dispatches')
    .select(['device_id', 'device_sn', 'interval_id'])
    .where('event_id', '=', eventId)
    .where('action', '!=', 'restore')
    .where('state', '=', 'succeeded')
    .execute();
  if (sent.length === 0) {
    await db.updateTable('dr_events').set({ reported_at: now }).where('id', '=', eventId).execute();
    return null;
  }
  const wanted = String(event.reportDescriptors?.[0]?.payloadType ?? 'DEMAND').toUpperCase();
  const usage = wanted === 'USAGE';
  const intervals = absoluteIntervals(event, Number(ev.received_at));
  const devices = new Map<number, string>(sent.map((s) => [s.device_id, s.device_sn]));
  const resources: ReportBody['resources'] = [];
  for (const [deviceId, sn] of devices) {
    const mine = new Set(sent.filter((s) => s.device_id === deviceId).map((s) => s.interval_id));
    const list: ReportBody['resources'][number]['intervals'] = [];
    for (const i of intervals) {
      if (!mine.has(i.id)) continue;
      const w = (await deliveredW(db, deviceId, i.start, i.end)) ?? 0;
      const hours = (i.end - i.start) / 3_600_000;
      const value = usage ? (w / 1000) * hours : w / 1000;
      list.push({
        id: i.id,
        intervalPeriod: { start: new Date(i.start).toISOString(), duration: formatDuration(i.end - i.start) },
        payloads: [{ type: usage ? 'USAGE' : 'DEMAND', values: [Math.round(value * 1000) / 1000] }],
      });
    }
    resources.push({ resourceName: sn, intervals: list });
  }
  const report: ReportBody = {
    eventID: event.id,
    clientName: venName,
    reportName: `sunfleet-${event.id}`,
    payloadDescriptors: [
      {
        objectType: 'REPORT_PAYLOAD_DESCRIPTOR',
        payloadType: usage ? 'USAGE' : 'DEMAND',
        readingType: usage ? 'DIRECT_READ' : 'MEAN',
        units: usage ? 'KWH' : 'KW',
      },
    ],
    resources,
  };
  await enqueue(db, 'report', `report:${event.id}`, report, now);
  await db.updateTable('dr_events').set({ reported_at: now }).where('id', '=', eventId).execute();
  return report;
}
