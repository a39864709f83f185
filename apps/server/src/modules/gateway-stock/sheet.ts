/**
 * The stock's workbooks. In: an import file — .xlsx judged by its bytes (a legacy .xls or an
 * encrypted workbook is refused with the reason), at most STOCK_IMPORT_MAX_BYTES and 64 MB
 * unpacked, read in the sheet-reader worker (never on the event loop). Its first sheet: a first
 * row whose column A says "SN" is the header (the template's); then one gateway per row, columns A SN, B customer (id or
 * exact name), C protocol id, D alias; empty rows and the template's example row are skipped; at
 * most STOCK_IMPORT_MAX_ROWS rows. Out: the template (headers in the request language and the
 * example row) and the filtered list (streamed in keyset pages).
 */
import { commTypeName, ErrorCode, gatewayProtocols, gatewayStockApi, type Language, type QueryOf } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { deviceSummary, gatewaySnPage, rowsByIds, toItem } from '../devices/gateways.ts';
import { type Cell, sendXlsx as streamXlsx } from '../events/xlsx.ts';
import { type CellValue, readFirstSheet } from '../reports/sheet-reader.ts';
import { checkZipExpansion, sendXlsx, sniffUpload, ZipError } from '../reports/xlsx.ts';
import type { RawRow } from './rows.ts';
import type { ImportMode } from './stock.service.ts';
import { texts } from './texts.ts';

const { STOCK_IMPORT_MAX_BYTES, STOCK_IMPORT_MAX_ROWS, STOCK_EXAMPLE_SN, stockColumns } = gatewayStockApi;
const MAX_UNPACKED = 64 * 1024 * 1024;

export interface StockUpload {
  bytes: Buffer | null;
  customerId: number | null;
  mode: ImportMode | null;
}

/** The multipart fields `file`, `customerId` and `mode`; a malformed field is code 4 naming it. */
export async function readStockUpload(req: FastifyRequest, lan: Language): Promise<StockUpload> {
  const t = texts(lan);
  const out: StockUpload = { bytes: null, customerId: null, mode: null };
  const parts = req.parts({ limits: { fileSize: STOCK_IMPORT_MAX_BYTES, files: 1, fields: 10 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      try {
        out.bytes = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') fail(ErrorCode.validation, t.fileTooLarge);
        throw err;
      }
    } else if (part.fieldname === 'customerId') {
      const text = String(part.value).trim();
      if (text === '') continue;
      if (!/^[1-9][0-9]{0,9}$/.test(text) || Number(text) > 2_147_483_647) fail(ErrorCode.validation, t.badCustomerId);
      out.customerId = Number(text);
    } else if (part.fieldname === 'mode') {
      const text = String(part.value).trim();
      if (text !== 'valid' && text !== 'all') fail(ErrorCode.validation, t.badMode);
      out.mode = text as ImportMode;
    }
  }
  return out;
}

/** A cell as text: numbers as written (an SN typed as a number), dates as ISO, the rest blank. */
function text(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString();
  return String(v);
}

/** The gateway rows of an import file; code 4 with the reason when it is not one. */
export async function readStockFile(bytes: Buffer | null, lan: Language): Promise<RawRow[]> {
  const t = texts(lan);
  if (!bytes || bytes.length === 0) return fail(ErrorCode.validation, t.fileMissing);
  if (bytes.length > STOCK_IMPORT_MAX_BYTES) fail(ErrorCode.validation, t.fileTooLarge);
  const kind = sniffUpload(bytes);
  if (kind === 'xls') fail(ErrorCode.validation, t.xls);
  if (kind === 'encrypted') fail(ErrorCode.validation, t.encrypted);
  if (kind !== 'xlsx') fail(ErrorCode.validation, t.notXlsx);
  try {
    checkZipExpansion(bytes, MAX_UNPACKED);
  } catch (err) {
    if (err instanceof ZipError) fail(ErrorCode.validation, t.damaged);
    throw err;
  }
  // The header, an example row and one row too many are enough to know the file is past the limit.
  const sheet = await readFirstSheet(bytes, STOCK_IMPORT_MAX_ROWS + 3, stockColumns.length);
  if (!sheet) return fail(ErrorCode.validation, t.damaged);
  const rows: RawRow[] = [];
  const header = sheet.length > 0 && text(sheet[0]![1]).toUpperCase() === 'SN';
  for (const [row, sn, customer, protocol, alias] of header ? sheet.slice(1) : sheet) {
    const r = { row, sn: text(sn), customer: text(customer), protocol: text(protocol), alias: text(alias) };
    if (r.sn === STOCK_EXAMPLE_SN) continue;
    if (rows.length >= STOCK_IMPORT_MAX_ROWS) fail(ErrorCode.validation, t.tooManyRows);
    rows.push(r);
  }
  if (rows.length === 0) fail(ErrorCode.validation, t.noRows);
  return rows;
}

/** The template: the headers in the request language and the example row. */
export async function templateBytes(lan: Language): Promise<Buffer> {
  const t = texts(lan);
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Sunfleet';
  const ws = wb.addWorksheet(t.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = stockColumns.map((c) => ({ header: t.headers[c], key: c, width: c === 'sn' ? 22 : 28 }));
  ws.getRow(1).font = { bold: true };
  // Every column is text: an SN of digits stays as typed (no 2.4E+15).
  for (const c of [1, 2, 3, 4]) ws.getColumn(c).numFmt = '@';
  ws.addRow({ sn: STOCK_EXAMPLE_SN, customer: '', protocol: 'sunfleet-hybrid-1p', alias: t.exampleAlias });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function sendTemplate(reply: FastifyReply, lan: Language) {
  return sendXlsx(reply, await templateBytes(lan), `gateway-import-template-${lan}.xlsx`);
}

type DownloadQuery = QueryOf<typeof gatewayStockApi.downloadGateways>;
const PAGE = 1000;

/**
 * `gateways/downLoad`: every gateway the list's filters match, in SN order, as .xlsx (streamed).
 * Each row is the list's own row (`toItem`): the customer or agent by name as the list names it,
 * the protocol as the list shows it (`gatewayProtocols`), the connection by its name (`commTypeName`).
 */
export function sendGatewayList(db: Db, caller: Caller, reply: FastifyReply, q: DownloadQuery, lan: Language) {
  const t = texts(lan).list;
  const time = (at: string | null) => (at === null ? null : at.replace('T', ' ').slice(0, 19));
  async function* rows(): AsyncIterable<Cell[][]> {
    let after: string | null = null;
    for (;;) {
      const page = await gatewaySnPage(db, caller, q, after, PAGE);
      if (page.length === 0) return;
      const ids = page.map((r) => Number(r.id));
      const [found, summary] = await Promise.all([rowsByIds(db, caller, ids), deviceSummary(db, ids)]);
      const items = new Map(found.map((r) => [Number(r.id), toItem(r, summary.get(Number(r.id)))]));
      yield page.flatMap((r) => {
        const g = items.get(Number(r.id));
        if (!g) return [];
        const protocol = gatewayProtocols(g);
        return [
          [
            g.sn,
            g.alias,
            g.company?.name ?? null,
            protocol === '--' ? null : protocol,
            g.plant?.name ?? null,
            g.status === 'online' ? t.online : t.offline,
            g.swVersion,
            g.hwVersion,
            commTypeName(g.commType, lan),
            g.rssi,
            time(g.lastOnlineAt),
            time(g.createdAt),
          ],
        ];
      });
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.sn;
    }
  }
  const headers = [
    t.sn,
    t.alias,
    t.customer,
    t.protocol,
    t.plant,
    t.status,
    t.swVersion,
    t.hwVersion,
    t.commType,
    t.rssi,
    t.lastOnline,
    t.created,
  ];
  return streamXlsx(reply, {
    filename: `gateways-${new Date().toISOString().slice(0, 10)}.xlsx`,
    sheet: texts(lan).sheet,
    columns: headers.map((header, i) => ({ header, width: i === 0 ? 22 : 16 })),
    rows: rows(),
  });
}
