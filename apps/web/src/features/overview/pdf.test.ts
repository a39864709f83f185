import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { jsPDF } from 'jspdf';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../app/i18n.ts';
import en from '../../locales/en/index.ts';
import es from '../../locales/es/index.ts';
import { type OverviewSnapshot, pdfContent, pdfFileName, renderPdf, toPdfText } from './pdf.ts';

const snapshot = (): OverviewSnapshot => ({
  plant: {
    name: 'Casa Marta Rooftop',
    address: 'Calle Mayor 1, Sevilla',
    capacity: '6.6 kWp',
    status: 'Normal',
    typeName: 'Energy storage (DC-coupled)',
    type: 2,
    timezone: 'Europe/Madrid',
  },
  realtime: {
    id: 7,
    name: 'Casa Marta Rooftop',
    status: 'normal',
    capacity: 6.6,
    power: 3249,
    powerRatio: 0.49,
    todayEnergy: 18_400,
    monthEnergy: 412_000,
    yearEnergy: 3_960_000,
    totalEnergy: 12_345_678,
    currency: 'EUR',
    todayIncome: 2.76,
    totalIncome: 1850.4,
    co2TodayKg: 8.74,
    co2TotalKg: 5864.2,
    today: '2026-05-20',
    timezone: 'Europe/Madrid',
    lastUpdate: '2026-05-20T10:00:00.000Z',
  },
  flow: {
    pv: 3249,
    load: 1200,
    grid: -1549,
    battery: -500,
    soc: 71,
    hasPv: true,
    hasBattery: true,
    hasGrid: true,
    hasLoad: true,
    at: '2026-05-20T10:00:00.000Z',
  },
  energy: {
    period: 'day',
    date: '2026-05-20',
    breakdown: {
      period: 'day',
      date: '2026-05-20',
      totals: { pv: 18_400, load: 9_100, gridImport: 1_200, gridExport: 8_000, charge: 3_000, discharge: 1_500 },
      points: [],
    },
    use: {
      period: 'day',
      date: '2026-05-20',
      generation: 18_400,
      selfUse: 10_400,
      export: 8_000,
      consumption: 9_100,
      fromPv: 6_400,
      fromGrid: 1_200,
      fromBattery: 1_500,
      selfUseRate: 10_400 / 18_400,
      selfSufficiency: (9_100 - 1_200) / 9_100,
    },
  },
  date: '2026-05-20',
  now: new Date('2026-05-20T10:00:30Z'),
});

const tr = (lng: 'en' | 'es') => {
  const i18n = createI18n(lng, lng === 'en' ? en : es);
  return (key: string, vars?: Record<string, unknown>) => i18n.t(key, { ns: 'overview', ...vars });
};

describe('PDF content', () => {
  it('names the plant and the date, and lists the realtime figures, the flow and the energy totals', () => {
    const c = pdfContent(snapshot(), tr('en'));
    expect(c.fileName).toBe('Casa Marta Rooftop-2026-05-20.pdf');
    expect(c.title).toBe('Casa Marta Rooftop');
    // 10:00:30Z is 12:00 in Madrid (UTC+2 in May).
    expect(c.lines[0]).toBe('Plant overview, 2026-05-20 12:00 (Europe/Madrid)');
    expect(c.lines[1]).toBe('Capacity 6.6 kWp · Energy storage (DC-coupled) · Status: Normal');
    const rows = Object.fromEntries(c.sections.flatMap((s) => s.rows.map((r) => [r.label, r.value])));
    expect(rows['Current power']).toBe('3.2 kW');
    expect(rows['Energy today']).toBe('18.4 kWh');
    expect(rows['Energy this year']).toBe('4.0 MWh');
    expect(rows['Total energy']).toBe('12.3 MWh');
    expect(rows['Total income']).toBe('1,850.40 EUR');
    expect(rows['CO₂ avoided in total']).toBe('5.86 t');
    expect(rows.Grid).toBe('1.5 kW (Exporting)');
    expect(rows.Battery).toBe('0.5 kW (Charging)');
    expect(rows['Battery SOC']).toBe('71 %');
    expect(rows['Grid import']).toBe('1.2 kWh');
    expect(rows['Self-sufficiency']).toBe('86.8 %'); // 7900 / 9100
    expect(c.sections.map((s) => s.title)).toEqual(['Realtime', 'Energy flow now', 'Energy balance (2026-05-20)']);
  });

  it('in Spanish (decimal comma), and without figures it still has the header', () => {
    const s = { ...snapshot(), realtime: undefined, flow: undefined };
    s.energy = { ...s.energy, breakdown: undefined, use: undefined };
    const c = pdfContent(s, tr('es'));
    expect(c.lines[0]).toBe('Resumen de la planta, 2026-05-20 12:00 (Europe/Madrid)');
    expect(c.sections).toEqual([]);
    const full = pdfContent(snapshot(), tr('es'));
    expect(full.sections[0]?.rows[0]).toEqual({ label: 'Potencia actual', value: '3,2 kW' });
  });

  it('file names and PDF text drop what the standard fonts or file systems cannot take', () => {
    expect(pdfFileName('North/South: "A"', '2026-01-02')).toBe('North_South_ _A_-2026-01-02.pdf');
    expect(toPdfText('CO₂ − 5 … Energía')).toBe('CO2 - 5 ... Energía');
    expect(toPdfText('屋顶')).toBe('??');
  });
});

// A 2×1 PNG (red, blue).
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC';

describe('PDF drawing', () => {
  it('A4 in points (592.28 × 841.89), real text, images 560 pt wide', () => {
    const content = pdfContent(snapshot(), tr('en'));
    const doc = renderPdf(jsPDF, content, [{ title: 'Power curve of 2026-05-20', url: PNG, width: 1120, height: 480 }]);
    expect(doc.internal.pageSize.getWidth()).toBeCloseTo(592.28, 2);
    expect(doc.internal.pageSize.getHeight()).toBeCloseTo(841.89, 2);
    const raw = doc.output();
    const box = raw.match(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/);
    expect(Number(box?.[1])).toBeCloseTo(592.28, 4);
    expect(Number(box?.[2])).toBeCloseTo(841.89, 4);
    expect(raw).toContain('(Casa Marta Rooftop) Tj');
    expect(raw).toContain('(3.2 kW) Tj');
    expect(raw).toContain('(18.4 kWh) Tj');
    expect(raw).toContain('(CO2 avoided today) Tj');
    expect(raw).toMatch(/\/Subtype \/Image/);
    // The image is drawn 560 wide and 240 high (1120 × 480 scaled), from the 16.14 pt margin.
    const cm = raw.match(/([\d.]+) 0 0 ([\d.]+) ([\d.]+) ([\d.]+) cm\s+\/I0 Do/);
    expect(Number(cm?.[1])).toBe(560);
    expect(Number(cm?.[2])).toBe(240);
    expect(Number(cm?.[3])).toBeCloseTo((592.28 - 560) / 2, 4);
  });
});

/** An RGB PNG of `w` × `h` pixels, `paint(x, y, rgb)` writing each pixel's colour, as a data URL. */
function pngUrl(w: number, h: number, paint: (x: number, y: number, rgb: Uint8Array) => void): string {
  const stride = w * 3 + 1;
  const raw = Buffer.alloc(stride * h);
  const rgb = new Uint8Array(3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      paint(x, y, rgb);
      raw.set(rgb, y * stride + 1 + x * 3);
    }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A chart as renderChartImage draws it (1120 × 480 at pixel ratio 2): grid, a shaded curve, bars. */
const chartImage = (seed: number) => {
  const curve = Float64Array.from({ length: 2240 }, (_, x) => 480 + 320 * Math.sin(x / 260 + seed));
  return pngUrl(2240, 960, (x, y, rgb) => {
    const c = curve[x]!;
    if (Math.abs(y - c) < 3) rgb.set([24, 144, 255]);
    else if (y > c)
      rgb.set([220 - Math.round((y - c) / 20), 236, 255]); // the area under the curve
    else if (x % 93 < 60 && y > 900 - ((x * 7 + seed * 13) % 300)) rgb.set([250, 173, 20]);
    else if (y % 160 === 0) rgb.set([230, 230, 230]);
    else rgb.fill(255);
  });
};

describe('PDF size', () => {
  it('a two-page report with both charts stays under 1 MB, its text readable by pdftotext', () => {
    const content = pdfContent(snapshot(), tr('en'));
    const images = [
      { title: 'Power curve of 2026-05-20', url: chartImage(1), width: 1120, height: 480 },
      { title: 'Generation of 2026-05', url: chartImage(2), width: 1120, height: 480 },
    ];
    const doc = renderPdf(jsPDF, content, images);
    expect(doc.getNumberOfPages()).toBe(2);
    const bytes = Buffer.from(doc.output('arraybuffer'));
    expect(bytes.length).toBeLessThanOrEqual(1024 * 1024);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-')), content.fileName);
    try {
      fs.writeFileSync(file, bytes);
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      for (const expected of [
        'Casa Marta Rooftop',
        'Current power',
        '3.2 kW',
        '18.4 kWh',
        'Power curve of 2026-05-20',
        'Generation of 2026-05',
      ])
        expect(text).toContain(expected);
      expect(text).toMatch(/1 ?\/ ?2/);
      expect(text).toMatch(/2 ?\/ ?2/);
      // The charts are still there, at full resolution.
      const info = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
      expect(info.match(/\b2240\s+960\b/g)).toHaveLength(2);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }, 30_000);
});
