/**
 * Forecast upload (`predicted/import`): a workbook of plant-local times and power that replaces
 * the plant's forecast on the days it covers.
 *
 * The file: .xlsx by content (a legacy BIFF .xls is refused, see docs/decisions.md "Forecast
 * import"), at most FORECAST_MAX_BYTES, and at most 64 MB unpacked. Its first sheet: column A
 * the time — an Excel date cell or text "YYYY-MM-DD HH:mm" (":ss" and a "T" separator are
 * accepted too) — in the plant's time zone; column B the power, in W, or in kW when the first
 * row is a header whose column-B text says kW ("Power (kW)"). The first non-empty row is a
 * header when its column A is text (or empty) that is not a time and its column B no number.
 * Empty rows are skipped; other columns are ignored.
 *
 * A local time that occurs twice (the hour a clock is set back) is the earlier instant, or the
 * later one when an earlier row already took the earlier; a skipped local time is read as the
 * clock after the jump. Two rows at the same instant are refused.
 *
 * Every row is checked before anything is written; the first bad row is named (code 4) and
 * nothing changes. Then, in one transaction, the forecast of every plant-local day the file
 * covers is deleted and the rows are inserted.
 */
import { ErrorCode, type Language } from '@sunfleet/contracts';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import { type Db, now } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { addDays, dayStart, instantOf, instantsOf, wallText } from '../../time/index.ts';
import { MAX_ID } from './aggregate.ts';
import { deleteForecastRanges, insertForecast, plantZone } from './reports.repo.ts';
import { type CellValue, readFirstSheet, type SheetRow } from './sheet-reader.ts';
import { FORECAST_MAX_BYTES, FORECAST_MAX_ROWS, type Texts, texts } from './texts.ts';
import { checkZipExpansion, sniffUpload, ZipError } from './xlsx.ts';

/** The most a forecast workbook may hold unpacked (a full year of 5-minute rows is ~20 MB). */
export const FORECAST_MAX_UNPACKED = 64 * 1024 * 1024;
const INSERT_CHUNK = 500;
const DELETE_RANGES_CHUNK = 100;

export interface ForecastUpload {
  plantId: number | null;
  bytes: Buffer | null;
}

/** The multipart fields `plantId` and `file` (the file at most FORECAST_MAX_BYTES). */
export async function readForecastUpload(req: FastifyRequest, lan: Language): Promise<ForecastUpload> {
  const out: ForecastUpload = { plantId: null, bytes: null };
  const parts = req.parts({ limits: { fileSize: FORECAST_MAX_BYTES, files: 1, fields: 10 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      try {
        out.bytes = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail(ErrorCode.validation, texts(lan).fileTooLarge);
        throw err;
      }
    } else if (part.fieldname === 'plantId') {
      const text = String(part.value).trim();
      out.plantId = /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : null;
    }
  }
  return out;
}

export interface ForecastRow {
  /** The sheet row (1-based, as Excel shows it). */
  row: number;
  /** Plant-local wall-clock time as UTC-field milliseconds. */
  wall: number;
  /** W */
  power: number;
}

const TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** A time cell as wall-clock ms, or null. */
export function parseTime(v: CellValue): number | null {
  if (v instanceof Date) {
    const ms = v.getTime();
    // Excel keeps times as fractions of a day: round the float error away (to the second).
    return Number.isFinite(ms) ? Math.round(ms / 1000) * 1000 : null;
  }
  if (typeof v !== 'string') return null;
  const m = TIME_RE.exec(v.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as number[];
  if (h! > 23 || mi! > 59 || s! > 59) return null;
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  const back = new Date(wall);
  // Date.UTC rolls 2025-02-30 over into March: a real date reads back the same.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d) return null;
  return wall;
}

/** A power cell in W (`factor` 1000 for kW), or null. */
export function parsePower(v: CellValue, factor: number): number | null {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)) n = Number(v);
  else return null;
  n *= factor;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Forecast rows from the sheet's non-empty rows; the first bad row fails with code 4. */
export function forecastRows(sheet: readonly SheetRow[], t: Texts): ForecastRow[] {
  const rows: ForecastRow[] = [];
  let factor = 1;
  for (const [i, [number, a, b]] of sheet.entries()) {
    if (i === 0 && (a === null || typeof a === 'string') && parseTime(a) === null && parsePower(b, 1) === null) {
      // The header row: its column B says the unit.
      if (typeof b === 'string' && /\bkw\b/i.test(b)) factor = 1000;
      continue;
    }
    if (rows.length >= FORECAST_MAX_ROWS) return fail(ErrorCode.validation, t.tooManyRows(number));
    const wall = parseTime(a);
    if (wall === null) return fail(ErrorCode.validation, t.badTime(number));
    const power = parsePower(b, factor);
    if (power === null) return fail(ErrorCode.validation, t.badPower(number));
    rows.push({ row: number, wall, power });
  }
  if (rows.length === 0) fail(ErrorCode.validation, t.noRows);
  return rows;
}

/** The first sheet's rows of an uploaded workbook, judged by its bytes; code 4 with the reason otherwise. */
export async function readWorkbook(bytes: Buffer, t: Texts): Promise<SheetRow[]> {
  if (bytes.length > FORECAST_MAX_BYTES) fail(ErrorCode.validation, t.fileTooLarge);
  const kind = sniffUpload(bytes);
  if (kind === 'xls') fail(ErrorCode.validation, t.xls);
  if (kind === 'encrypted') fail(ErrorCode.validation, t.encrypted);
  if (kind !== 'xlsx') fail(ErrorCode.validation, t.notXlsx);
  try {
    checkZipExpansion(bytes, FORECAST_MAX_UNPACKED);
  } catch (err) {
    if (err instanceof ZipError) fail(ErrorCode.validation, t.damaged);
    throw err;
  }
  // A header row and one row too many are enough to name the row past the limit.
  const rows = await readFirstSheet(bytes, FORECAST_MAX_ROWS + 2);
  return rows ?? fail(ErrorCode.validation, t.damaged);
}

/** Instants for the rows in the plant's zone; a second row at the same instant fails. */
export function toInstants(rows: readonly ForecastRow[], timeZone: string, t: Texts): Array<{ ts: number; power: number }> {
  /** The row that took each instant, and whether its local time was a skipped one. */
  const taken = new Map<number, { row: ForecastRow; skipped: boolean }>();
  const out: Array<{ ts: number; power: number }> = [];
  for (const r of rows) {
    const candidates = instantsOf(timeZone, r.wall);
    const skipped = candidates.length === 0;
    if (skipped) candidates.push(instantOf(timeZone, r.wall));
    const ts = candidates.find((c) => !taken.has(c));
    if (ts === undefined) {
      const first = taken.get(candidates[0]!)!;
      // Name the culprit: a skipped local time moved onto this one, or this one is skipped, or a repeat.
      if (first.skipped) return fail(ErrorCode.validation, t.skipped(first.row.row, wallText(first.row.wall), timeZone, r.row));
      return fail(
        ErrorCode.validation,
        skipped ? t.skipped(r.row, wallText(r.wall), timeZone, first.row.row) : t.repeated(r.row, first.row.row),
      );
    }
    taken.set(ts, { row: r, skipped });
    out.push({ ts, power: r.power });
  }
  return out;
}

/** Runs of consecutive days, as [first, last]. */
function dayRuns(days: readonly string[]): Array<[string, string]> {
  const runs: Array<[string, string]> = [];
  for (const d of days) {
    const last = runs[runs.length - 1];
    if (last && addDays(last[1], 1) === d) last[1] = d;
    else runs.push([d, d]);
  }
  return runs;
}

export async function importForecast(
  db: Db,
  caller: Caller,
  upload: ForecastUpload,
  lan: Language,
): Promise<{ rows: number; days: string[] }> {
  const t = texts(lan);
  if (upload.plantId === null) return fail(ErrorCode.validation, t.plantIdMissing);
  if (upload.plantId > MAX_ID) return fail(ErrorCode.plantMissing);
  await plantFor(db, caller, upload.plantId, 'operate');
  if (!upload.bytes || upload.bytes.length === 0) return fail(ErrorCode.validation, t.fileMissing);
  const plant = await plantZone(db, upload.plantId);

  const rows = forecastRows(await readWorkbook(upload.bytes, t), t);
  const points = toInstants(rows, plant.timezone, t);
  const days = [...new Set(rows.map((r) => new Date(r.wall).toISOString().slice(0, 10)))].sort();
  const ranges = dayRuns(days).map(([from, to]) => ({
    from: dayStart(plant.timezone, from),
    to: dayStart(plant.timezone, addDays(to, 1)),
  }));

  const importedAt = now();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < ranges.length; i += DELETE_RANGES_CHUNK) {
      const chunk = ranges.slice(i, i + DELETE_RANGES_CHUNK);
      await deleteForecastRanges(trx, plant.id, chunk);
    }
    for (let i = 0; i < points.length; i += INSERT_CHUNK) {
      await insertForecast(trx, plant.id, points.slice(i, i + INSERT_CHUNK), importedAt);
    }
  });
  return { rows: points.length, days };
}
