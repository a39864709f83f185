/**
 * plants/overview/{id}/{type}: the plant's dashboard. Header with actions
 * (edit, PDF, generation data), realtime card and energy flow (every 10 s), the power curve or
 * generation bars with date navigation, energy balance, devices, weather and events.
 *
 * `{type}` is whatever the link carried (the plant list passes 1); the layout follows the
 * plant's own type from plant/{id} (battery only on storage plants), so a stale or edited
 * link cannot show the wrong diagram. The chart's period and date live in the query string
 * (`?period=month&date=2026-03-01`), so a reload or a shared link keeps them.
 */
import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { ErrorCode, plantEnergyApi } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Flex, Row, Skeleton } from 'antd';
import { lazy, useCallback, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { EnergyFlowCard } from '../../components/EnergyFlow.tsx';
import { PageError, PageLoading, StateMessage } from '../../components/PageState.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import { usePrintPalette } from '../../components/palette.ts';
import { RenderLater } from '../../components/RenderLater.tsx';
import { WhenNear } from '../../components/WhenNear.tsx';
import { type ChartPeriod, chartPeriods, clampToToday, isDay, todayIn } from '../../lib/dateNav.ts';
import { formatCapacity } from '../../lib/format.ts';
import { browserZone } from '../../lib/zonedTime.ts';
import { DevicesCard } from './DevicesCard.tsx';
import { EnergyCard } from './EnergyCard.tsx';
import { downloadGeneration, exportOverviewPdf } from './exportOverview.ts';
import { ForecastUpload } from './ForecastUpload.tsx';
import { OverviewHeader } from './OverviewHeader.tsx';
import styles from './overview.module.css';
import { useFlow, usePlant, useRealtime } from './overviewQueries.ts';
import { PowerChartCard, usePowerLabels } from './PowerChart.tsx';
import { RealtimeCard } from './RealtimeCard.tsx';
import { WeatherCard } from './WeatherCard.tsx';

/** Below the fold: its table and range picker load when the page is scrolled towards it. */
const EventsCard = lazy(() => import('./EventsCard.tsx').then((m) => ({ default: m.EventsCard })));

export default function OverviewPage() {
  const { t, i18n } = useTranslation('overview');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const client = useQueryClient();
  const printPalette = usePrintPalette();
  const may = useMayCall();
  const labels = usePowerLabels();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const plant = usePlant(valid ? id : 0);
  // A plant that does not exist (or that the caller cannot see) has no live values to poll.
  const missing = plant.error instanceof ApiError && plant.error.code === ErrorCode.plantMissing;
  const realtime = useRealtime(valid && !missing ? id : 0);
  const flow = useFlow(valid && !missing ? id : 0);
  const [search, setSearch] = useSearchParams();
  const [pdfBusy, setPdfBusy] = useState(false);
  const [dataBusy, setDataBusy] = useState(false);

  // Query results arrive as urgent (synchronous) updates: the page renders them as deferred
  // values, in a background render React slices and yields from, so the cards' first full render
  // is not one long task. Until a deferred value catches up, its card keeps its skeleton.
  const plantData = useDeferredValue(plant.data);
  const realtimeData = useDeferredValue(realtime.data);
  const flowData = useDeferredValue(flow.data);
  const timezone = realtimeData?.timezone ?? plantData?.timezone ?? browserZone();
  const today = realtimeData?.today ?? todayIn(timezone);
  const askedPeriod = search.get('period') as ChartPeriod | null;
  const period: ChartPeriod = askedPeriod && chartPeriods.includes(askedPeriod) ? askedPeriod : 'day';
  const askedDate = search.get('date');
  const date = isDay(askedDate) ? clampToToday(askedDate, today) : today;
  const setChart = (next: { period?: ChartPeriod; date?: string }) => {
    const p = next.period ?? period;
    const d = next.date ?? date;
    const query: Record<string, string> = {};
    if (p !== 'day') query.period = p;
    if (d !== today) query.date = d;
    setSearch(query, { replace: true });
  };
  // Stable while the chart's period and date stay, so the (memoised) chart card skips the page's
  // re-renders when the realtime values or the flow arrive.
  // biome-ignore lint/correctness/useExhaustiveDependencies: setChart reads exactly these
  const onPeriod = useCallback((next: ChartPeriod) => setChart({ period: next }), [period, date, today, setSearch]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: setChart reads exactly these
  const onDate = useCallback((next: string) => setChart({ date: next }), [period, date, today, setSearch]);

  if (!valid || missing) {
    return (
      <Card>
        <StateMessage
          kind="warning"
          title={t('missing')}
          extra={
            <Button type="primary" onClick={() => navigate('/plants')}>
              {t('header.back')}
            </Button>
          }
          testId="overview-missing"
        />
      </Card>
    );
  }
  if (plant.isError) return <PageError error={plant.error} onRetry={() => void plant.refetch()} />;
  if (!plantData) return <PageLoading fullPage />;
  const p = plantData;

  const exportPdf = async () => {
    setPdfBusy(true);
    try {
      await exportOverviewPdf({
        client,
        plantId: p.id,
        period,
        date,
        t: (key, vars) => t(key, vars ?? {}),
        labels,
        currency: realtimeData?.currency ?? p.currency,
        language: i18n.language,
        series: printPalette,
        snapshot: {
          plant: {
            name: p.name,
            address: p.address,
            capacity: formatCapacity(p.capacity),
            status: t(`plants:status.${realtimeData?.status ?? p.status}`),
            typeName: t(`plants:types.${p.type}`),
            type: p.type,
            timezone,
          },
          realtime: realtimeData,
          flow: flowData,
          date: today,
          now: new Date(),
        },
      });
    } catch {
      message.error(t('header.pdfFailed'));
    } finally {
      setPdfBusy(false);
    }
  };
  const downloadData = async () => {
    setDataBusy(true);
    try {
      await downloadGeneration(p.id, p.name, period, date);
    } catch {
      message.error(t('header.downloadFailed'));
    } finally {
      setDataBusy(false);
    }
  };

  return (
    <Flex vertical gap={16} data-testid="overview-page">
      <OverviewHeader
        plant={p}
        status={realtimeData?.status ?? p.status}
        timezone={timezone}
        actions={
          <>
            {may(plantEnergyApi.importForecast, p.canEdit) && <ForecastUpload plantId={p.id} />}
            <Button
              icon={<DownloadOutlined />}
              loading={dataBusy}
              onClick={() => void downloadData()}
              data-testid="overview-download"
            >
              {t('header.download')}
            </Button>
            <Button
              type="primary"
              icon={<FilePdfOutlined />}
              loading={pdfBusy}
              onClick={() => void exportPdf()}
              data-testid="overview-pdf"
            >
              {t('header.pdf')}
            </Button>
          </>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={11}>
          <RealtimeCard
            data={realtimeData}
            error={realtime.error}
            pending={realtimeData === undefined && !realtime.error}
            onRetry={() => void realtime.refetch()}
            timezone={timezone}
          />
        </Col>
        <Col xs={24} xl={13}>
          <EnergyFlowCard
            data={flowData}
            plantType={p.type}
            error={flow.error}
            pending={flowData === undefined && !flow.error}
            onRetry={() => void flow.refetch()}
            timezone={timezone}
          />
        </Col>
      </Row>
      <PowerChartCard
        plantId={p.id}
        period={period}
        date={date}
        today={today}
        timezone={timezone}
        currency={realtimeData?.currency ?? p.currency}
        onPeriod={onPeriod}
        onDate={onDate}
      />
      {/* Below the fold: rendered in a transition after the cards above have committed. */}
      <RenderLater placeholder={<div className={styles.lowerCards} />}>
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={8}>
            <EnergyCard plantId={p.id} period={period} date={date} plantType={p.type} />
          </Col>
          <Col xs={24} lg={8}>
            <DevicesCard plantId={p.id} />
          </Col>
          <Col xs={24} lg={8}>
            <WeatherCard plantId={p.id} timezone={timezone} canEdit={may(plantEnergyApi.saveWeatherAuth, p.canEdit)} />
          </Col>
        </Row>
      </RenderLater>
      <WhenNear
        placeholder={
          <Card title={t('events.title')}>
            <Skeleton active />
          </Card>
        }
      >
        <EventsCard plantId={p.id} timezone={timezone} today={today} />
      </WhenNear>
    </Flex>
  );
}
