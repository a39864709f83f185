// Row types of the store for events (device faults and warnings) and their notifications. Times are
// epoch milliseconds; booleans are 0/1 (portable).
import type { Generated } from 'kysely';
import type { EventLevel } from './devices.ts';

export interface EventsTable {
  id: Generated<number>;
  plant_id: number | null;
  gateway_id: number | null;
  device_id: number | null;
  sn: string;
  source: 'device' | 'gateway' | 'rule';
  code: string;
  level: EventLevel;
  text_en: string;
  text_es: string;
  started_at: number;
  ended_at: number | null;
  created_at: number;
  // 007_events: acknowledgement
  acked_at: number | null;
  acked_by: number | null;
  ack_note: string | null;
}

/** 007_events: fault notifications per user (the log is also the de-duplication and rate limit). */
export type EventNotificationState = 'sending' | 'sent' | 'failed' | 'held' | 'digested' | 'digest';
export interface EventNotificationsTable {
  id: Generated<number>;
  user_id: number;
  event_id: number | null;
  plant_id: number | null;
  sn: string;
  code: string;
  state: EventNotificationState;
  attempts: Generated<number>;
  created_at: number;
  mailed_at: number | null;
}
/** 007_events: the notifier's cursor over events.id. */
export interface EventNotifierStateTable {
  name: string;
  last_event_id: number;
  updated_at: number;
}
