/**
 * Reads the first sheet of an .xlsx in a worker thread (see sheet-reader.ts): exceljs parses
 * the whole workbook synchronously, which takes seconds for a year of 5-minute rows and must
 * neither stall the server's event loop nor risk its heap. Plain JavaScript, so the worker
 * runs under any loader.
 *
 * Each message { id, bytes: Uint8Array, maxRows, columns } is answered with { id, ok: true, rows } —
 * [rowNumber, a, b, …] for the first `columns` columns (default 2: A and B) of the non-empty rows
 * (at most maxRows of them) as
 * plain values: formula results, rich text and hyperlinks unwrapped, an error cell undefined —
 * or { id, ok: false } when the file does not load.
 */
import { parentPort } from 'node:worker_threads';
import ExcelJS from 'exceljs';

function plain(v) {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v;
  if ('error' in v) return undefined;
  if ('result' in v) return plain(v.result);
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('text' in v) return plain(v.text);
  return undefined;
}

const blank = (v) => v === null || (typeof v === 'string' && v.trim() === '');

async function read(bytes, maxRows, columns) {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    return null;
  }
  const ws = wb.worksheets[0];
  const rows = [];
  if (ws) {
    const last = ws.rowCount;
    for (let r = 1; r <= last && rows.length < maxRows; r++) {
      const row = ws.findRow(r);
      if (!row) continue;
      const cells = [];
      for (let c = 1; c <= columns; c++) cells.push(plain(row.getCell(c).value));
      if (cells.every(blank)) continue;
      rows.push([r, ...cells]);
    }
  }
  return rows;
}

parentPort.on('message', async ({ id, bytes, maxRows, columns = 2 }) => {
  const rows = await read(bytes, maxRows, columns);
  parentPort.postMessage(rows ? { id, ok: true, rows } : { id, ok: false });
});
