/**
 * The overview as a PDF (A4 portrait, 592.28 × 841.89 pt, images 560 wide). The content
 * is assembled first as plain text (so it can be tested and extracted from the file: the plant's
 * name, the date, the realtime figures, the energy totals), then drawn with jsPDF together with
 * the chart images (PNG, twice the drawn size for sharp print, stored compressed: a two-page
 * report stays well under 1 MB). The standard PDF fonts cover Latin-1 only, so other characters
 * are replaced by their closest plain form.
 */
import { limits } from '@sunfleet/contracts';
import type { jsPDF } from 'jspdf';
import type { ChartPeriod } from '../../lib/dateNav.ts';
import { periodKey, zonedDateTime } from '../../lib/dateNav.ts';
import { type EnergyFlow, flowLinks, isStoragePlant } from '../../lib/energyFlow.ts';
import { formatCo2, formatEnergy, formatMeasure, formatMoney, formatRate, formatWatts } from '../../lib/format.ts';
import type { EnergyBreakdown, GenerationUse } from './EnergyCard.tsx';
import type { Realtime } from './RealtimeCard.tsx';

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

export interface PdfRow {
  label: string;
  value: string;
}
export interface PdfSection {
  title: string;
  rows: PdfRow[];
}
export interface PdfImage {
  title: string;
  /** PNG data URL. */
  url: string;
  width: number;
  height: number;
}
export interface PdfContent {
  fileName: string;
  title: string;
  lines: string[];
  sections: PdfSection[];
  footer: string;
}

export interface OverviewSnapshot {
  plant: {
    name: string;
    address: string | null;
    capacity: string;
    status: string;
    typeName: string;
    type: number;
    timezone: string;
  };
  realtime: Realtime | undefined;
  flow: EnergyFlow | undefined;
  energy: { period: ChartPeriod; date: string; breakdown: EnergyBreakdown | undefined; use: GenerationUse | undefined };
  /** The plant-local day the file is named after. */
  date: string;
  now: Date;
}

const replacements: Record<string, string> = {
  '\u2212': '-', // minus
  '\u2013': '-',
  '\u2014': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2026': '...',
  '\u2082': '2', // subscript two (CO₂)
  '\u00a0': ' ',
  '\u202f': ' ',
};

/** Text the standard PDF fonts can show: Latin-1, with typographic characters made plain. */
export function toPdfText(text: string): string {
  return [...text]
    .map((c) => replacements[c] ?? c)
    .join('')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
}

/** A plant name as part of a file name: no characters a file system refuses, no runs of blanks. */
export function fileSafe(name: string): string {
  return (
    name
      .replace(/[\\/:*?"<>|]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim() || 'plant'
  );
}

/** "<plant>-<date>.pdf". */
export const pdfFileName = (plant: string, date: string) => `${fileSafe(plant)}-${date}.pdf`;

/** What the PDF says, as text: title, header lines and sections of label/value rows. */
export function pdfContent(s: OverviewSnapshot, t: Translate): PdfContent {
  const tz = s.plant.timezone;
  const lines = [
    t('pdf.generated', { time: zonedDateTime(s.now, tz), timezone: tz }),
    [t('pdf.capacity', { value: s.plant.capacity }), s.plant.typeName, t('pdf.status', { value: s.plant.status })].join(' · '),
  ];
  if (s.plant.address) lines.push(s.plant.address);

  const sections: PdfSection[] = [];
  const r = s.realtime;
  if (r)
    sections.push({
      title: t('realtime.title'),
      rows: [
        { label: t('realtime.power'), value: formatWatts(r.power) },
        { label: t('realtime.today'), value: formatEnergy(r.todayEnergy) },
        { label: t('realtime.month'), value: formatEnergy(r.monthEnergy) },
        { label: t('realtime.year'), value: formatEnergy(r.yearEnergy) },
        { label: t('realtime.total'), value: formatEnergy(r.totalEnergy) },
        { label: t('realtime.incomeToday'), value: formatMoney(r.todayIncome, r.currency) },
        { label: t('realtime.incomeTotal'), value: formatMoney(r.totalIncome, r.currency) },
        { label: t('realtime.co2Today'), value: formatCo2(r.co2TodayKg) },
        { label: t('realtime.co2Total'), value: formatCo2(r.co2TotalKg) },
      ],
    });

  if (s.flow) {
    const links = flowLinks(s.flow, s.plant.type);
    const rows = links.map((l) => ({
      label: t(`flow.${l.node}`),
      value: `${l.watts === null ? '--' : formatWatts(l.watts)} (${t(`flow.states.${l.state}`)})`,
    }));
    if (links.some((l) => l.node === 'battery') && s.flow.soc !== null)
      rows.push({ label: t('pdf.soc'), value: formatMeasure(s.flow.soc, '%', 0) });
    if (rows.length > 0) sections.push({ title: t('pdf.flow'), rows });
  }

  const { breakdown, use, period, date } = s.energy;
  if (breakdown || use) {
    const rows: PdfRow[] = [];
    if (breakdown) {
      const x = breakdown.totals;
      rows.push(
        { label: t('energy.generation'), value: formatEnergy(x.pv) },
        { label: t('energy.consumption'), value: formatEnergy(x.load) },
        { label: t('energy.gridImport'), value: formatEnergy(x.gridImport) },
        { label: t('energy.gridExport'), value: formatEnergy(x.gridExport) },
      );
      if (isStoragePlant(s.plant.type))
        rows.push(
          { label: t('energy.charge'), value: formatEnergy(x.charge) },
          { label: t('energy.discharge'), value: formatEnergy(x.discharge) },
        );
    }
    if (use)
      rows.push(
        { label: t('energy.selfUseRate'), value: formatRate(use.selfUseRate) },
        { label: t('energy.selfSufficiency'), value: formatRate(use.selfSufficiency) },
      );
    const when = period === 'total' ? t('chart.tabs.total') : periodKey(date, period);
    sections.push({ title: t('pdf.energy', { period: when }), rows });
  }

  return {
    fileName: pdfFileName(s.plant.name, s.date),
    title: s.plant.name,
    lines,
    sections,
    footer: t('pdf.footer', { name: s.plant.name }),
  };
}

const PAGE = { width: limits.pdf.widthPt, height: limits.pdf.heightPt };
const IMAGE_WIDTH = limits.pdf.imageWidth;
/** The images are centred; the text starts where they do. */
const MARGIN = (PAGE.width - IMAGE_WIDTH) / 2;
const TOP = 44;
const BOTTOM = PAGE.height - 40;

/** Height of an image drawn 560 pt wide (its aspect kept). */
export const imageHeight = (img: Pick<PdfImage, 'width' | 'height'>) => (IMAGE_WIDTH * img.height) / img.width;

/** Draw the content and the images on A4 pages (pt); returns the document. */
export function renderPdf(JsPdf: typeof jsPDF, content: PdfContent, images: readonly PdfImage[]): jsPDF {
  const doc = new JsPdf({ orientation: 'portrait', unit: 'pt', format: [PAGE.width, PAGE.height] });
  doc.setProperties({ title: toPdfText(content.title), creator: 'Sunfleet' });
  let y = TOP;
  const room = (h: number) => {
    if (y + h > BOTTOM) {
      doc.addPage([PAGE.width, PAGE.height], 'portrait');
      y = TOP;
    }
  };

  doc.setFont('helvetica', 'bold');
  doc.setFontSize(20);
  doc.setTextColor(20, 20, 20);
  doc.text(toPdfText(content.title), MARGIN, y);
  y += 20;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(10);
  doc.setTextColor(90, 90, 90);
  for (const line of content.lines) {
    for (const part of doc.splitTextToSize(toPdfText(line), IMAGE_WIDTH) as string[]) {
      doc.text(part, MARGIN, y);
      y += 14;
    }
  }
  y += 6;

  const column = IMAGE_WIDTH / 2;
  for (const section of content.sections) {
    room(36 + 16 * Math.ceil(section.rows.length / 2));
    doc.setDrawColor(220, 220, 220);
    doc.line(MARGIN, y, MARGIN + IMAGE_WIDTH, y);
    y += 16;
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    doc.setTextColor(20, 20, 20);
    doc.text(toPdfText(section.title), MARGIN, y);
    y += 16;
    doc.setFontSize(10);
    // Two columns filled top to bottom: the first half of the rows on the left.
    const perColumn = Math.ceil(section.rows.length / 2);
    section.rows.forEach((row, i) => {
      const x = MARGIN + Math.floor(i / perColumn) * column;
      const rowY = y + (i % perColumn) * 16;
      doc.setFont('helvetica', 'normal');
      doc.setTextColor(90, 90, 90);
      doc.text(toPdfText(row.label), x, rowY);
      doc.setFont('helvetica', 'bold');
      doc.setTextColor(20, 20, 20);
      doc.text(toPdfText(row.value), x + column - 12, rowY, { align: 'right' });
    });
    y += perColumn * 16 + 4;
  }

  for (const img of images) {
    const h = imageHeight(img);
    room(h + 24);
    y += 8;
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(12);
    doc.setTextColor(20, 20, 20);
    doc.text(toPdfText(img.title), MARGIN, y);
    y += 8;
    // Compressed (the PNG's own deflate stream): drawn uncompressed, each 2240 × 960 chart was
    // 6.4 MB of raw pixels in the file.
    doc.addImage(img.url, 'PNG', MARGIN, y, IMAGE_WIDTH, h, undefined, 'FAST');
    y += h + 8;
  }

  const pages = doc.getNumberOfPages();
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    doc.setTextColor(140, 140, 140);
    doc.text(toPdfText(content.footer), MARGIN, PAGE.height - 20);
    doc.text(`${p} / ${pages}`, MARGIN + IMAGE_WIDTH, PAGE.height - 20, { align: 'right' });
  }
  return doc;
}
