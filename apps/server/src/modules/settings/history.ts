/** A device's setting jobs as .xlsx: one row per requested field of each job, newest first, times in the plant's zone. */
import type { Language } from '@sunfleet/contracts';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../../access/caller.ts';
import { deviceFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { localTimeFormatter } from '../../time/index.ts';
import { type Cell, sendXlsx } from '../events/xlsx.ts';
import { allDeviceJobs, type Job } from './settings.repo.ts';

export const words = {
  en: {
    sheet: 'Setting changes',
    columns: ['Time', 'SN', 'Group', 'Kind', 'State', 'Field', 'Before', 'Requested', 'After', 'Requested by', 'Error'],
    kind: { write: 'Write', revert: 'Revert' },
    state: {
      queued: 'Queued',
      reading: 'Reading',
      writing: 'Writing',
      verifying: 'Verifying',
      succeeded: 'Succeeded',
      failed: 'Failed',
      cancelled: 'Cancelled',
    },
  },
  es: {
    sheet: 'Cambios de ajustes',
    columns: ['Hora', 'SN', 'Grupo', 'Tipo', 'Estado', 'Campo', 'Antes', 'Solicitado', 'Después', 'Solicitado por', 'Error'],
    kind: { write: 'Escritura', revert: 'Reversión' },
    state: {
      queued: 'En cola',
      reading: 'Leyendo',
      writing: 'Escribiendo',
      verifying: 'Verificando',
      succeeded: 'Correcto',
      failed: 'Fallido',
      cancelled: 'Cancelado',
    },
  },
} as const;

const cell = (v: number | string | null | undefined): Cell => (v === undefined ? null : v);

export function jobRows(job: Job, lan: Language, time: (ts: number) => string): Cell[][] {
  const w = words[lan];
  const names = new Map([...job.changes, ...job.mismatches].map((d) => [d.key, d.name[lan]]));
  return Object.keys(job.requested).map((key) => [
    time(Date.parse(job.createdAt)),
    job.sn,
    job.group,
    w.kind[job.kind],
    w.state[job.state],
    names.get(key) ?? key,
    cell(job.before?.[key]),
    cell(job.requested[key]),
    cell(job.after?.[key]),
    job.requestedBy.account,
    job.error,
  ]);
}

export async function downloadHistory(db: Db, caller: Caller, sn: string, lan: Language, reply: FastifyReply) {
  const device = await deviceFor(db, caller, { sn }, { kind: 'inverter' });
  const zone = device.timezone ?? 'UTC';
  const time = localTimeFormatter(zone);
  const w = words[lan];
  async function* rows() {
    for await (const jobs of allDeviceJobs(db, device.id)) yield jobs.flatMap((job) => jobRows(job, lan, time));
  }
  return sendXlsx(reply, {
    filename: `settings-${device.sn}.xlsx`,
    sheet: w.sheet,
    columns: w.columns.map((header, i) => ({ header: i === 0 ? `${header} (${zone})` : header, width: i === 0 ? 20 : 14 })),
    rows: rows(),
  });
}
