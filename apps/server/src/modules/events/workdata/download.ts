/**
 * The operation-data download: one device's samples as .xlsx, read in keyset pages of CHUNK rows
 * and written as they come (see ../xlsx.ts), so memory stays flat whatever the range. Values are
 * number cells (the spreadsheet writes them in its reader's language); temperatures are in the
 * caller's unit, which their column header names; signed power is in the one convention, which its
 * column header names.
 */
import { CELSIUS, fromCelsius, inTemperatureUnit, type Language, type QueryOf, type workdataApi } from '@sunfleet/contracts';
import type { FastifyReply } from 'fastify';
import type { Caller } from '../../../access/caller.ts';
import type { Db } from '../../../db/index.ts';
import { localTimeFormatter } from '../../../time/index.ts';
import { flowNote } from '../../devices/signed-power.ts';
import { temperatureUnitOf } from '../../users/profile.ts';
import { type Cell, sendXlsx } from '../xlsx.ts';
import { SampleReader } from './samples.ts';
import { workdataInput } from './workdata.service.ts';

export const CHUNK = 2000;

const words = {
  en: { sheet: 'Operation data', time: 'Time' },
  es: { sheet: 'Datos de operación', time: 'Hora' },
} as const;

export async function downloadWorkdata(
  db: Db,
  caller: Caller,
  q: QueryOf<typeof workdataApi.workdataDownload>,
  lan: Language,
  reply: FastifyReply,
): Promise<null> {
  const { device, params, chosen, range } = await workdataInput(db, caller, q, lan);
  const reader = new SampleReader(params, chosen, device.deviceId);
  const time = localTimeFormatter(device.timezone);
  // Enum values are written as their labels.
  const labels = chosen.map((p) => p.info.options);
  const temperature = temperatureUnitOf(caller.user);
  const convert = chosen.map((p) => p.info.unit === CELSIUS && temperature !== 'C');
  // Six decimals, as the stored values: 23.1 °C is 73.58 °F, not 73.58000000000001.
  const inUnit = (celsius: number) => Math.round(fromCelsius(celsius, temperature) * 1e6) / 1e6;
  async function* rows(): AsyncGenerator<Cell[][]> {
    let after: number | null = null;
    for (;;) {
      const page = await reader.page(db, range.from, range.to, after, CHUNK);
      if (page.length === 0) return;
      yield page.map((r) => {
        const cells: Cell[] = [time(r.ts)];
        for (let i = 0; i < r.values.length; i++) {
          const v = r.values[i]!;
          const options = labels[i];
          if (typeof v === 'number' && convert[i]) cells.push(inUnit(v));
          else cells.push(options && typeof v === 'number' ? (options[String(v)] ?? v) : v);
        }
        return cells;
      });
      if (page.length < CHUNK) return;
      after = page[page.length - 1]!.ts;
    }
  }
  const w = words[lan];
  return sendXlsx(reply, {
    filename: `workdata-${device.sn}-${range.startDate}-${range.endDate}.xlsx`,
    sheet: w.sheet,
    columns: [
      { header: `${w.time} (${device.timezone})`, width: 20 },
      ...chosen.map((p) => {
        const unit = inTemperatureUnit(null, p.info.unit, temperature).unit;
        // Signed power names its convention: "Grid power (W, + import / − export)".
        const notes = [unit, p.info.flow && flowNote[p.info.flow][lan]].filter(Boolean);
        return { header: notes.length > 0 ? `${p.info.name} (${notes.join(', ')})` : p.info.name, width: 16 };
      }),
    ],
    rows: rows(),
  });
}
