/**
 * Events: a condition (a device fault bit, a gateway-reported event, a server rule) opens an event
 * with level, code, en/es text and start time; it closes when the condition clears. The partial
 * unique index on (sn, code) where ended_at is null is the guard against duplicate open events:
 * opening inserts with "on conflict do nothing", closing ends whatever is open.
 */
import type { Kysely } from 'kysely';
import type { Database, EventLevel, EventsTable } from '../../db/schema.ts';

export type EventSource = EventsTable['source'];

export interface EventOpen {
  plantId: number | null;
  gatewayId: number | null;
  deviceId: number | null;
  sn: string;
  source: EventSource;
  code: string;
  level: EventLevel;
  en: string;
  es: string;
  at: number;
}

export type EventChange = ({ open: true } & EventOpen) | { open: false; sn: string; code: string; at: number };

/** The server's own rules. */
export const ruleEvents = {
  offline: {
    level: 'warning',
    en: 'Device offline: no data received',
    es: 'Equipo sin conexión: no se reciben datos',
  },
  gatewayOffline: {
    level: 'warning',
    en: 'Gateway offline: no data received',
    es: 'Pasarela sin conexión: no se reciben datos',
  },
  zeroOutput: {
    level: 'warning',
    en: 'No PV output in daylight while other inverters of the plant produce',
    es: 'Sin producción FV con luz diurna mientras otros inversores de la planta producen',
  },
  batteryOverTemperature: {
    level: 'warning',
    en: 'Battery over temperature',
    es: 'Sobretemperatura de batería',
  },
  counterImplausible: {
    level: 'warning',
    en: 'Energy counter readings left out of the energy totals: the counter went backwards or grew faster than the device can produce',
    es: 'Lecturas del contador de energía excluidas de los totales: el contador retrocedió o creció más rápido de lo que el equipo puede producir',
  },
} as const satisfies Record<string, { level: EventLevel; en: string; es: string }>;

/** Thresholds of the rules. */
export const ruleLimits = {
  /** Battery over temperature opens at or above this, °C. */
  batteryHotC: 55,
  /** ... and clears below this, °C. */
  batteryCoolC: 50,
  /** Sun elevation above which it is daylight, degrees. */
  daylightElevation: 10,
  /** Another inverter "produces" above this share of its rated power (or the fallback watts). */
  producingShare: 0.05,
  producingFallbackW: 100,
  /** An inverter's output "is zero" at or below this, W. */
  zeroW: 10,
  /** Other inverters' readings count when within this of the inverter's reading, ms. */
  peerWindowMs: 15 * 60_000,
  /** An implausible-counter event closes once the device's counters have been plausible this long (data time), ms. */
  counterQuietMs: 24 * 3600_000,
} as const;

/** Battery over-temperature with hysteresis: true = condition on, false = off, null = unchanged. */
export function batteryOverTemperature(temperatureC: number | null, on: boolean): boolean | null {
  if (temperatureC === null) return null;
  if (!on && temperatureC >= ruleLimits.batteryHotC) return true;
  if (on && temperatureC < ruleLimits.batteryCoolC) return false;
  return null;
}

const clip = (text: string) => (text.length > 255 ? `${text.slice(0, 254)}…` : text);

/** Apply event changes in order (they are few: only on transitions). */
export async function applyEventChanges(db: Kysely<Database>, changes: readonly EventChange[], now: number): Promise<void> {
  for (const c of changes) {
    if (c.open) {
      await db
        .insertInto('events')
        .values({
          plant_id: c.plantId,
          gateway_id: c.gatewayId,
          device_id: c.deviceId,
          sn: c.sn,
          source: c.source,
          code: c.code,
          level: c.level,
          text_en: clip(c.en),
          text_es: clip(c.es),
          started_at: c.at,
          ended_at: null,
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    } else {
      await db
        .updateTable('events')
        .set({ ended_at: c.at })
        .where('sn', '=', c.sn)
        .where('code', '=', c.code)
        .where('ended_at', 'is', null)
        .execute();
    }
  }
}

/** Close the open event of a condition for many subjects at once; returns the SNs that had one. */
export async function closeOpenEvents(db: Kysely<Database>, code: string, sns: readonly string[], at: number): Promise<string[]> {
  const closed: string[] = [];
  for (let i = 0; i < sns.length; i += 500) {
    const rows = await db
      .updateTable('events')
      .set({ ended_at: at })
      .where('code', '=', code)
      .where('ended_at', 'is', null)
      .where('sn', 'in', sns.slice(i, i + 500))
      .returning('sn')
      .execute();
    for (const r of rows) closed.push(r.sn);
  }
  return closed;
}
