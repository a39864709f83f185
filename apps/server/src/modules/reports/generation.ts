/**
 * The overview's generation chart as .xlsx (`plant/generation/download`), from the same data
 * the overview shows (modules/plant-energy/series.ts):
 * - period day: the 5-minute power curve of the plant-local day — time (plant-local), PV, load,
 *   grid (+ import / − export), battery (+ discharge / − charge) in W, SOC in %, and the
 *   uploaded forecast in W at its own times (a time with only a forecast has blank measurements);
 * - month, year, total: one row per day, month or year — energy in kWh, income in the plant's
 *   currency, the highest day peak in kW — and a total row.
 */
import { ErrorCode, type Language } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { wallClock } from '../../time/index.ts';
import { generationSeries, powerDay } from '../plant-energy/series.ts';
import { MAX_ID } from './aggregate.ts';
import { plantForDownload } from './reports.repo.ts';
import { texts } from './texts.ts';
import { DATE_TIME, kwh, NUM, XlsxWriter } from './xlsx.ts';

export type Period = 'day' | 'month' | 'year' | 'total';

export async function generationReport(
  db: Db,
  caller: Caller,
  q: { plantId: number; period: Period; date?: string },
  lan: Language,
): Promise<{ bytes: Buffer; filename: string }> {
  if (q.plantId > MAX_ID) fail(ErrorCode.plantMissing);
  await plantFor(db, caller, q.plantId, 'view');
  const plant = await plantForDownload(db, q.plantId);
  const t = texts(lan);

  if (q.period === 'day') {
    const day = await powerDay(db, plant.id, q.date);
    const title = t.generationTitle(plant.name, 'day', day.date, day.timezone);
    const xlsx = new XlsxWriter(title);
    const ws = xlsx.sheet(t.generationSheet, title, [
      { header: t.time, width: 18, numFmt: DATE_TIME },
      { header: t.pv, width: 14, numFmt: NUM },
      { header: t.load, width: 14, numFmt: NUM },
      { header: t.grid, width: 22, numFmt: NUM },
      { header: t.battery, width: 22, numFmt: NUM },
      { header: t.soc, width: 10, numFmt: NUM },
      { header: t.forecast, width: 14, numFmt: NUM },
    ]);
    type Line = {
      pv: number | null;
      load: number | null;
      grid: number | null;
      battery: number | null;
      soc: number | null;
      forecast: number | null;
    };
    const lines = new Map<number, Line>();
    const line = (time: string) => {
      const at = Date.parse(time);
      let l = lines.get(at);
      if (!l) {
        l = { pv: null, load: null, grid: null, battery: null, soc: null, forecast: null };
        lines.set(at, l);
      }
      return l;
    };
    for (const p of day.points)
      Object.assign(line(p.time), { pv: p.pv, load: p.load, grid: p.grid, battery: p.battery, soc: p.soc });
    for (const f of day.forecast) line(f.time).forecast = f.power;
    for (const at of [...lines.keys()].sort((a, b) => a - b)) {
      const l = lines.get(at)!;
      // Excel dates carry no zone: the cell shows the plant-local wall clock.
      await ws.addRow([new Date(wallClock(day.timezone, at)), l.pv, l.load, l.grid, l.battery, l.soc, l.forecast]);
    }
    return { bytes: await xlsx.bytes(), filename: `generation-${plant.id}-day-${day.date}.xlsx` };
  }

  const series = await generationSeries(db, plant.id, q.period, q.date);
  const title = t.generationTitle(plant.name, q.period, series.date, plant.timezone);
  const xlsx = new XlsxWriter(title);
  const ws = xlsx.sheet(t.generationSheet, title, [
    { header: t.label[q.period]!, width: 14 },
    { header: t.energy, width: 16, numFmt: NUM },
    { header: t.incomeIn(plant.currency), width: 16, numFmt: NUM },
    { header: t.peakPower, width: 16, numFmt: NUM },
  ]);
  for (const bar of series.bars) await ws.addRow([bar.label, kwh(bar.energy), bar.income, kwh(bar.peakPower)]);
  await ws.addRow([t.total, kwh(series.energy), series.income, null], { bold: true });
  const label = q.period === 'month' ? series.date.slice(0, 7) : q.period === 'year' ? series.date.slice(0, 4) : 'total';
  return { bytes: await xlsx.bytes(), filename: `generation-${plant.id}-${q.period}-${label}.xlsx` };
}
