/**
 * Event rows → the API's event shapes; the one place that does it (plant pages, the overview's
 * last hour, lists, downloads and mails import it). The text is in the request's language;
 * instants are ISO 8601 UTC. A gateway's event is one without a device.
 */
import type { eventsApi, Language } from '@sunfleet/contracts';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { EventsTable } from '../../db/schema.ts';
import { iso } from '../../time/index.ts';
import { packOf, suggestedAction } from './catalogue.ts';

export type DeviceEvent = Static<typeof eventsApi.DeviceEvent>;
export type SubjectKind = (typeof eventsApi.eventSubjectKinds)[number];

/** An event row's own columns, as any query over `events` selects them. */
export type EventRowCore = Pick<
  Selectable<EventsTable>,
  'id' | 'sn' | 'code' | 'level' | 'source' | 'text_en' | 'text_es' | 'started_at' | 'ended_at'
>;

export const eventText = (r: Pick<EventRowCore, 'text_en' | 'text_es'>, lan: Language) => (lan === 'es' ? r.text_es : r.text_en);

/** The fields of the event itself, as every event shape of the API starts. */
export function eventFields(r: EventRowCore, lan: Language) {
  return {
    id: r.id,
    sn: r.sn,
    code: r.code,
    level: r.level,
    source: r.source,
    text: eventText(r, lan),
    startedAt: iso(r.started_at)!,
    endedAt: iso(r.ended_at),
  };
}

/** An event of the last hour across plants (the overview): its plant, no source. */
export function toRecentEvent(r: EventRowCore & { plant_id: number | null; plant_name: string }, lan: Language) {
  const { id, source: _source, ...fields } = eventFields(r, lan);
  return { id, plantId: r.plant_id, plantName: r.plant_name, ...fields };
}

/** What an event is about: the device's kind, or 'gateway' for an event without a device. */
export function subjectKind(r: {
  device_kind: SubjectKind | null;
  device_id: number | null;
  gateway_id: number | null;
}): SubjectKind | null {
  if (r.device_kind) return r.device_kind;
  return r.device_id === null && r.gateway_id !== null ? 'gateway' : null;
}

/** A row of the event lists (with plant, subject and acknowledgement) → `DeviceEvent`. */
export interface DeviceEventRow extends EventRowCore {
  plant_id: number | null;
  device_id: number | null;
  gateway_id: number | null;
  acked_at: number | null;
  ack_note: string | null;
  plant_name: string | null;
  device_kind: SubjectKind | null;
  device_alias: string | null;
  gateway_alias: string | null;
  acker_nickname: string | null;
  acker_name: string | null;
}

/** `operable`: the plants whose events the caller may acknowledge. */
export function toDeviceEvent(r: DeviceEventRow, lan: Language, operable: ReadonlySet<number>): DeviceEvent {
  const kind = subjectKind(r);
  const acked = r.acked_at !== null && r.acked_at !== undefined;
  return {
    ...eventFields(r, lan),
    plantId: r.plant_id,
    plantName: r.plant_name,
    kind,
    alias: kind === 'gateway' ? r.gateway_alias : r.device_alias,
    pack: kind === 'battery' ? packOf(r.code) : null,
    action: suggestedAction(r.code, r.level, lan, kind === 'gateway' ? 'gateway' : 'device'),
    acknowledged: acked,
    ackAt: iso(r.acked_at),
    ackBy: acked ? (r.acker_nickname ?? r.acker_name ?? null) : null,
    ackNote: r.ack_note,
    canAck: !acked && r.plant_id !== null && operable.has(r.plant_id),
  };
}
