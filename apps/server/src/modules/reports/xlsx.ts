/**
 * Workbooks in and out. Out: the common look of the reports (a bold title row, a bold frozen
 * header row with a filter, column widths, number formats), written as a stream, and the
 * download response. In:
 * what an uploaded file really is, judged by its bytes, never by its name — an OOXML
 * workbook (a ZIP holding `[Content_Types].xml` and `xl/workbook.xml`), a legacy BIFF .xls or
 * an encrypted workbook (both OLE compound files), or something else — and a guard against
 * ZIP bombs: every entry is inflated once with a hard output cap before exceljs sees the file.
 */
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Two decimals with thousands separators (figures show at most 2 decimals). */
export const NUM = '#,##0.00';
export const DATE_TIME = 'yyyy-mm-dd hh:mm';

export interface Column {
  header: string;
  width: number;
  numFmt?: string;
}

type Cell = ExcelJS.CellValue;

/** Rows are written (committed) as they come; every few hundred the writer lets other work run. */
const YIELD_EVERY = 500;

/** A sheet of an XlsxWriter: title in row 1, column headers in row 2 (bold, frozen, filterable). */
export class XlsxSheet {
  private written = 0;
  constructor(private readonly ws: ExcelJS.Worksheet) {}

  async addRow(values: Cell[], opts: { bold?: boolean } = {}): Promise<void> {
    const row = this.ws.addRow(values);
    if (opts.bold) row.font = { bold: true };
    row.commit();
    if (++this.written % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  commit() {
    this.ws.commit();
  }
}

/**
 * An .xlsx written with exceljs's streaming writer: rows go out as they are added, so a large
 * report costs neither a whole workbook model in memory nor one long stretch of the event
 * loop. Sheets are written one after the other.
 */
export class XlsxWriter {
  private readonly out = new PassThrough();
  private readonly chunks: Buffer[] = [];
  private readonly wb: ExcelJS.stream.xlsx.WorkbookWriter;
  private current: XlsxSheet | null = null;

  constructor(title: string) {
    this.out.on('data', (c: Buffer) => this.chunks.push(c));
    // Shared strings: plant names repeat on every day row, and "s" cells are what every reader expects.
    this.wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: this.out, useStyles: true, useSharedStrings: true });
    this.wb.creator = 'Sunfleet';
    this.wb.lastModifiedBy = 'Sunfleet';
    this.wb.title = title;
  }

  sheet(name: string, title: string, columns: Column[]): XlsxSheet {
    this.current?.commit();
    const ws = this.wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 2, xSplit: 0 }] });
    ws.autoFilter = { from: { row: 2, column: 1 }, to: { row: 2, column: columns.length } };
    ws.columns = columns.map((c) => ({ width: c.width, ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}) }));
    const titleRow = ws.getRow(1);
    titleRow.getCell(1).value = title;
    titleRow.font = { bold: true, size: 13 };
    titleRow.commit();
    const header = ws.getRow(2);
    columns.forEach((c, i) => {
      const cell = header.getCell(i + 1);
      cell.value = c.header;
      cell.font = { bold: true };
      cell.alignment = { vertical: 'middle', wrapText: true };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F5E9' } };
      cell.border = { bottom: { style: 'thin' } };
      // The column's number format is for the values below, not the header text.
      cell.numFmt = 'General';
    });
    header.font = { bold: true };
    header.commit();
    this.current = new XlsxSheet(ws);
    return this.current;
  }

  /** Finish the file: its bytes. */
  async bytes(): Promise<Buffer> {
    this.current?.commit();
    const ended = finished(this.out);
    await this.wb.commit();
    await ended;
    return Buffer.concat(this.chunks);
  }
}

/** Send .xlsx bytes as a download named `filename` (ASCII). */
export function sendXlsx(reply: FastifyReply, bytes: Buffer, filename: string): never {
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  return reply.send(bytes) as never;
}

/** kWh from Wh, null kept. */
export const kwh = (wh: number | null | undefined) => (wh === null || wh === undefined ? null : wh / 1000);

// ——— uploads ———

export type FileKind = 'xlsx' | 'xls' | 'encrypted' | 'zip' | 'other';

const CFB = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** The stream an encrypted OOXML file keeps inside its compound file (MS-OFFCRYPTO), in UTF-16. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

export class ZipError extends Error {}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The central directory of a ZIP file (no ZIP64: uploads are a few MB). Throws ZipError. */
export function zipEntries(buf: Buffer, maxEntries = 2000): ZipEntry[] {
  // End of central directory: 22 bytes plus a comment of at most 65 535 bytes, at the end.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count > maxEntries) throw new ZipError('too many entries');
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new ZipError('bad central directory');
    const nameLen = buf.readUInt16LE(p + 28);
    const entry: ZipEntry = {
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
    };
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff || entry.localOffset === 0xffffffff)
      throw new ZipError('ZIP64 is not supported');
    entries.push(entry);
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return entries;
}

/**
 * Inflate every entry once with a shared output budget: a ZIP bomb stops at the cap instead of
 * filling memory, and an entry that inflates to more than it declares is refused too.
 */
export function checkZipExpansion(buf: Buffer, maxTotalBytes: number): void {
  let budget = maxTotalBytes;
  for (const e of zipEntries(buf)) {
    const p = e.localOffset;
    if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw new ZipError('bad local header');
    const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    if (data.length !== e.compressedSize) throw new ZipError('truncated entry');
    if (e.size > budget) throw new ZipError('too large when unpacked');
    let size: number;
    if (e.method === 0) size = data.length;
    else if (e.method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: Math.max(1, e.size) }).length;
      } catch {
        throw new ZipError('entry does not inflate to its declared size');
      }
    } else throw new ZipError(`compression method ${e.method}`);
    if (size !== e.size) throw new ZipError('entry size mismatch');
    budget -= size;
  }
}

/** What the bytes are. */
export function sniffUpload(buf: Buffer): FileKind {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(CFB)) return buf.includes(ENCRYPTED_PACKAGE) ? 'encrypted' : 'xls';
  if (buf.length >= 4 && buf.subarray(0, 4).equals(ZIP)) {
    try {
      const names = new Set(zipEntries(buf).map((e) => e.name));
      return names.has('[Content_Types].xml') && names.has('xl/workbook.xml') ? 'xlsx' : 'zip';
    } catch {
      return 'other';
    }
  }
  return 'other';
}
