/** Event downloads (.xlsx): the list's filters, read in keyset chunks, newest first. */
import type { eventsApi, Language, QueryOf } from '@sunfleet/contracts';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { localTimeFormatter } from '../../time/index.ts';
import { eventRows, type Keyset, keysetIds } from './events.repo.ts';
import { listFilters } from './events.service.ts';
import { type SubjectKind, toDeviceEvent } from './mapper.ts';
import { type Cell, sendXlsx } from './xlsx.ts';

const CHUNK = 2000;

export const words = {
  en: {
    sheet: 'Events',
    columns: [
      'Plant',
      'SN',
      'Device',
      'Alias',
      'Code',
      'Level',
      'Event',
      'Suggested action',
      'Start',
      'End',
      'State',
      'Acknowledged',
      'Acknowledged by',
      'Note',
    ],
    level: { fault: 'Fault', warning: 'Warning', info: 'Information' },
    kind: { inverter: 'Inverter', battery: 'Battery', meter: 'Meter', weather: 'Weather station', gateway: 'Gateway' },
    open: 'Open',
    closed: 'Closed',
  },
  es: {
    sheet: 'Eventos',
    columns: [
      'Planta',
      'SN',
      'Equipo',
      'Alias',
      'Código',
      'Nivel',
      'Evento',
      'Acción sugerida',
      'Inicio',
      'Fin',
      'Estado',
      'Reconocido',
      'Reconocido por',
      'Nota',
    ],
    level: { fault: 'Fallo', warning: 'Advertencia', info: 'Información' },
    kind: { inverter: 'Inversor', battery: 'Batería', meter: 'Medidor', weather: 'Estación meteorológica', gateway: 'Pasarela' },
    open: 'Abierto',
    closed: 'Cerrado',
  },
} as const;

const widths = [24, 18, 14, 16, 22, 10, 36, 60, 20, 20, 10, 20, 18, 30];

export async function downloadEvents(
  db: Db,
  caller: Caller,
  q: QueryOf<typeof eventsApi.eventsDownload>,
  lan: Language,
  kind: SubjectKind | undefined,
  reply: FastifyReply,
): Promise<null> {
  // Everything that can refuse the request is checked before the first byte goes out.
  const f = await listFilters(db, caller, q, 'last90');
  const filters = kind ? { ...f, kind } : f;
  const w = words[lan];
  const time = localTimeFormatter(f.timezone);
  async function* rows(): AsyncGenerator<Cell[][]> {
    let after: Keyset | null = null;
    for (;;) {
      const ids = await keysetIds(db, caller, filters, after, CHUNK);
      if (ids.length === 0) return;
      const last = ids[ids.length - 1]!;
      after = { startedAt: Number(last.started_at), id: last.id };
      const none = new Set<number>();
      yield (
        await eventRows(
          db,
          ids.map((r) => r.id),
        )
      ).map((r) => {
        const e = toDeviceEvent(r, lan, none);
        return [
          e.plantName,
          e.sn,
          e.kind ? w.kind[e.kind] : null,
          e.alias,
          e.code,
          w.level[e.level],
          e.text,
          e.action,
          time(Number(r.started_at)),
          r.ended_at === null ? null : time(Number(r.ended_at)),
          r.ended_at === null ? w.open : w.closed,
          r.acked_at === null ? null : time(Number(r.acked_at)),
          e.ackBy,
          e.ackNote,
        ];
      });
      if (ids.length < CHUNK) return;
    }
  }
  const range = f.range!;
  return sendXlsx(reply, {
    filename: `events-${kind ?? 'all'}-${range.startDate}-${range.endDate}.xlsx`,
    sheet: w.sheet,
    columns: w.columns.map((header, i) => ({
      header: i === 8 || i === 9 ? `${header} (${f.timezone})` : header,
      width: widths[i],
    })),
    rows: rows(),
  });
}
