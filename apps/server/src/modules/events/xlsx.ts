/**
 * An .xlsx download streamed to the reply. exceljs' streaming WorkbookWriter makes the package
 * (workbook, sheet, styles, zip) and writes the header row; the data rows, which come from the
 * caller in chunks (keyset pages of the store), are written as sheet XML straight into the
 * writer's sheet stream: exceljs' own row and cell objects cost five times as much per row
 * (measured: ~60,000 against ~300,000 rows/s of one core) and make most of the garbage. The
 * whole sheet is never in memory: after every chunk the producer waits while the compressor or
 * the client is behind, so a slow client slows the reading instead of filling the memory.
 *
 * No styles, inline strings: times are written as local "YYYY-MM-DD HH:mm:ss" text.
 */
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export type Cell = string | number | null;

export interface XlsxColumn {
  header: string;
  width?: number;
}

export interface XlsxDownload {
  filename: string;
  sheet: string;
  columns: XlsxColumn[];
  /** Chunks of rows; stops early when the client goes away. */
  rows: AsyncIterable<Cell[][]>;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Bytes that may wait for the compressor and the client before the producer waits. */
const HIGH_WATER = 1024 * 1024;

const asciiName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** A, B, … Z, AA, AB, … */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

// Characters XML 1.0 cannot carry are dropped; markup characters are escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters is the point
const UNSAFE = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const NEEDS_WORK = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const escapeText = (s: string) => s.replace(UNSAFE, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : ''));

/** The XML of one sheet row (cells without a value are left out). */
export function rowXml(rowNumber: number, cells: readonly Cell[], columns: readonly string[]): string {
  let xml = `<row r="${rowNumber}">`;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (v === null || v === undefined) continue;
    const ref = `${columns[i]}${rowNumber}`;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) xml += `<c r="${ref}"><v>${v}</v></c>`;
    } else {
      // Spaces at the ends would be dropped without xml:space.
      const text = NEEDS_WORK.test(v) ? escapeText(v) : v;
      const space = text.length > 0 && (text[0] === ' ' || text[text.length - 1] === ' ') ? ' xml:space="preserve"' : '';
      xml += `<c r="${ref}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
    }
  }
  return `${xml}</row>`;
}

interface SheetStream {
  write(data: string): unknown;
  pipes?: Array<{ writableLength?: number }>;
}
const sheetStream = (sheet: ExcelJS.Worksheet) => (sheet as unknown as { stream: SheetStream }).stream;

/**
 * Bytes written but not yet taken downstream: the sheet stream pushes into the zip entry's input
 * without heeding backpressure, so when deflate or the client is slower than the rows come that
 * input grows; the producer watches it (the sheet stream's pipe destinations) and the reply.
 */
function backlog(stream: SheetStream, out: PassThrough): number {
  let bytes = out.readableLength + out.writableLength;
  for (const p of stream.pipes ?? []) bytes += p.writableLength ?? 0;
  return bytes;
}

/** Headers and the stream go out at once; any error after that ends the stream (the file is cut). */
export async function sendXlsx(reply: FastifyReply, d: XlsxDownload): Promise<null> {
  const out = new PassThrough({ highWaterMark: HIGH_WATER });
  reply
    .header('content-type', XLSX_TYPE)
    .header(
      'content-disposition',
      `attachment; filename="${asciiName(d.filename)}"; filename*=UTF-8''${encodeURIComponent(d.filename)}`,
    )
    .header('cache-control', 'no-store');
  let gone = false;
  reply.raw.once('close', () => {
    gone = true;
  });
  void reply.send(out);
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
      // Level 1: a third faster than the default for a file a few percent larger.
      zip: { zlib: { level: 1 } },
    });
    const sheet = workbook.addWorksheet(d.sheet);
    sheet.columns = d.columns.map((c) => ({ header: c.header, width: c.width ?? 14 }));
    // Writes the column widths, opens the sheet data and writes the header row.
    sheet.getRow(1).commit();
    const stream = sheetStream(sheet);
    const names = d.columns.map((_, i) => columnName(i));
    let rowNumber = 1;
    for await (const chunk of d.rows) {
      if (gone) break;
      let xml = '';
      for (const row of chunk) xml += rowXml(++rowNumber, row, names);
      if (xml) stream.write(xml);
      while (!gone && backlog(stream, out) >= HIGH_WATER) await sleep(2);
    }
    sheet.commit();
    await workbook.commit();
  } catch (err) {
    reply.log.error({ err }, 'xlsx download failed');
    out.destroy(err as Error);
  }
  return null;
}
