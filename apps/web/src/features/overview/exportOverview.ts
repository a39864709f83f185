/**
 * The overview's downloads: the PDF (text figures and chart images, see pdf.ts) and the
 * generation data (.xlsx from `plant/generation/download`). Data the page already holds comes
 * from the query cache; what is missing is fetched once. jsPDF is loaded only when asked for,
 * ECharts with the page's chart or then.
 */
import { type DataOf, type Endpoint, plantEnergyApi } from '@sunfleet/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { type CallInput, call } from '../../api/client.ts';
import { endpointKey } from '../../api/hooks.ts';
import { saveFile } from '../../components/download.ts';
import { preloadEChart } from '../../components/LazyEChart.tsx';
import { printColors } from '../../lib/chart.ts';
import { type ChartPeriod, periodKey } from '../../lib/dateNav.ts';
import type { PowerLabels, SeriesPalette } from '../../lib/palette.ts';
import { generationOption, powerDayOption } from './chartOptions.ts';
import { generationEndpoint } from './overviewQueries.ts';
import { fileSafe, type OverviewSnapshot, type PdfImage, pdfContent, renderPdf, type Translate } from './pdf.ts';

/** A GET through the cache the page's hooks fill (same key), fetched when absent or older than 30 s. */
function cached<E extends Endpoint>(client: QueryClient, ep: E, input: CallInput<E>): Promise<DataOf<E>> {
  return client.fetchQuery({
    queryKey: endpointKey(ep, input),
    queryFn: () => (call as (e: E, i: CallInput<E>) => Promise<DataOf<E>>)(ep, input),
    staleTime: 30_000,
  });
}

export interface ExportInput {
  client: QueryClient;
  plantId: number;
  snapshot: Omit<OverviewSnapshot, 'energy'>;
  period: ChartPeriod;
  date: string;
  t: Translate;
  labels: PowerLabels;
  currency: string | null;
  language: string;
  /** The series colours derived for white paper. */
  series: SeriesPalette;
}

/** Assemble and save the PDF; resolves with the file name. */
export async function exportOverviewPdf(input: ExportInput): Promise<string> {
  const { client, plantId: id, period, date, t } = input;
  const quiet = true;
  const breakdownEp = {
    day: plantEnergyApi.plantEnergyDay,
    month: plantEnergyApi.plantEnergyMonth,
    year: plantEnergyApi.plantEnergyYear,
    total: plantEnergyApi.plantEnergyTotal,
  }[period];
  const barsPeriod = period === 'day' ? 'month' : period;
  const settle = <T>(p: Promise<T>) => p.catch(() => undefined);
  const [{ jsPDF }, { renderChartImage }, day, bars, breakdown, use] = await Promise.all([
    import('jspdf'),
    // ECharts is the page's lazy chunk: the PDF waits for it, the first paint never does.
    preloadEChart(),
    settle(cached(client, plantEnergyApi.plantPowerDay, { params: { id }, query: { date }, quiet })),
    settle(cached(client, generationEndpoint[barsPeriod], { params: { id }, query: { date }, quiet })),
    settle(cached(client, breakdownEp, { params: { id }, query: { date }, quiet })),
    settle(cached(client, plantEnergyApi.plantGenerationUse, { params: { id }, query: { period, date }, quiet })),
  ]);

  const print = printColors(input.series);
  const content = pdfContent({ ...input.snapshot, energy: { period, date, breakdown, use } }, t);
  const images: PdfImage[] = [];
  if (day && (day.points.length > 0 || day.forecast.length > 0))
    images.push({
      title: t('chart.dayTitle', { date }),
      ...renderChartImage(powerDayOption(day, input.labels, print, { animation: false }), print),
    });
  if (bars && bars.bars.length > 0)
    images.push({
      title: t(`chart.barsTitle.${barsPeriod}`, { date: periodKey(date, barsPeriod) }),
      ...renderChartImage(
        generationOption(
          bars,
          barsPeriod,
          { energy: t('chart.series.energy'), income: t('chart.series.income') },
          input.currency,
          input.language,
          print,
          { animation: false },
        ),
        print,
      ),
    });
  const doc = renderPdf(jsPDF, content, images);
  saveFile(doc.output('blob'), content.fileName);
  return content.fileName;
}

/** The generation data of the chart's period as .xlsx. */
export async function downloadGeneration(plantId: number, plantName: string, period: ChartPeriod, date: string): Promise<void> {
  const file = (await call(plantEnergyApi.generationDownload, {
    query: { plantId, period, date },
    quiet: true,
  })) as unknown as Blob;
  const when = periodKey(date, period) || 'total';
  saveFile(file, `${fileSafe(plantName)}-generation-${when}.xlsx`);
}
