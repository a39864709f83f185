import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type Cell, columnName, sendXlsx } from './xlsx.ts';

async function roundTrip(columns: string[], chunks: Cell[][][]) {
  const app = Fastify();
  app.get('/x', async (_req, reply) => {
    await sendXlsx(reply, {
      filename: 'données.xlsx',
      sheet: 'Data',
      columns: columns.map((header) => ({ header })),
      rows: (async function* () {
        yield* chunks;
      })(),
    });
    return reply;
  });
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow({ includeEmpty: true }, (r) => rows.push((r.values as unknown[]).slice(1)));
  return { res, rows };
}

describe('streamed xlsx', () => {
  it('names columns like a spreadsheet', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('writes numbers, text with markup characters, gaps and wide rows that a reader gets back', async () => {
    const wide = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const { res, rows } = await roundTrip(wide, [
      [
        ['Relay <K1> & fuse', 1.5, null, ...Array.from({ length: 27 }, (_, i) => i)],
        [' padded ', -0.001, 'ok\u0007bell', ...Array.from({ length: 27 }, () => null)],
      ],
      [],
      [['last', 1e21, Number.NaN]],
    ]);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="donn_es.xlsx"; filename*=UTF-8''donn%C3%A9es.xlsx`);
    expect(rows[0]).toEqual(wide);
    expect(rows[1]).toEqual(['Relay <K1> & fuse', 1.5, undefined, ...Array.from({ length: 27 }, (_, i) => i)]);
    expect(rows[2]!.slice(0, 3)).toEqual([' padded ', -0.001, 'okbell']);
    expect(rows[3]!.slice(0, 2)).toEqual(['last', 1e21]);
    expect(rows).toHaveLength(4);
  });
});
