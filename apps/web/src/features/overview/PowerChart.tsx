import { Card, Flex, Segmented, Typography } from 'antd';
import dayjs from 'dayjs';
import { memo, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CardError } from '../../components/CardState.tsx';
import { ChartEmpty } from '../../components/ChartEmpty.tsx';
import { ChartSkeleton } from '../../components/ChartSkeleton.tsx';
import { useChartColors } from '../../components/chartColors.ts';
import { DateNav } from '../../components/DateNav.tsx';
import { LazyEChart, preloadEChart } from '../../components/LazyEChart.tsx';
import ui from '../../components/ui.module.css';
import { type ChartPeriod, chartPeriods, periodKey, shiftDate } from '../../lib/dateNav.ts';
import { formatEnergy, formatWatts } from '../../lib/format.ts';
import { generationOption, powerDayOption } from './chartOptions.ts';
import styles from './overview.module.css';
import { useGeneration, usePowerDay } from './overviewQueries.ts';

/** Translated series names of the power curve. */
export function usePowerLabels() {
  const { t } = useTranslation('overview');
  return useMemo(
    () => ({
      pv: t('chart.series.pv'),
      load: t('chart.series.load'),
      gridImport: t('chart.series.gridImport'),
      gridExport: t('chart.series.gridExport'),
      discharge: t('chart.series.discharge'),
      charge: t('chart.series.charge'),
      soc: t('chart.series.soc'),
      forecast: t('chart.series.forecast'),
    }),
    [t],
  );
}

export const PowerChartCard = memo(function PowerChartCard({
  plantId,
  period,
  date,
  today,
  timezone,
  currency,
  onPeriod,
  onDate,
}: {
  plantId: number;
  period: ChartPeriod;
  date: string;
  today: string;
  timezone: string;
  currency: string | null;
  onPeriod: (period: ChartPeriod) => void;
  onDate: (date: string) => void;
}) {
  const { t, i18n } = useTranslation('overview');
  const colors = useChartColors();
  const labels = usePowerLabels();
  const isDay = period === 'day';
  const day = usePowerDay(plantId, date, date === today, isDay);
  const bars = useGeneration(plantId, period === 'day' ? 'month' : period, date, !isDay);
  const query = isDay ? day : bars;
  // The chart code loads after the first paint, beside the chart's data.
  useEffect(() => void preloadEChart(), []);

  const option = useMemo(() => {
    if (isDay) return day.data ? powerDayOption(day.data, labels, colors) : null;
    if (!bars.data) return null;
    return generationOption(
      bars.data,
      period as 'month' | 'year' | 'total',
      { energy: t('chart.series.energy'), income: t('chart.series.income') },
      currency,
      i18n.language,
      colors,
    );
  }, [isDay, day.data, bars.data, period, labels, colors, currency, i18n.language, t]);

  const summary = isDay
    ? day.data && (
        <>
          <span data-testid="chart-day-energy">{t('chart.dayEnergy', { value: formatEnergy(day.data.energy) })}</span>
          {' · '}
          <span>{t('chart.peak', { value: formatWatts(day.data.peakPower) })}</span>
        </>
      )
    : bars.data && (
        <span data-testid="chart-period-energy">{t('chart.periodEnergy', { value: formatEnergy(bars.data.energy) })}</span>
      );

  return (
    <Card
      size="small"
      className={styles.chartCard}
      data-testid="chart-card"
      title={
        <Segmented
          value={period}
          onChange={(v) => onPeriod(v as ChartPeriod)}
          options={chartPeriods.map((p) => ({ value: p, label: t(`chart.tabs.${p}`) }))}
          data-testid="chart-tabs"
        />
      }
      extra={
        <DateNav
          period={period}
          date={date}
          today={today}
          onDate={onDate}
          presets={
            period === 'day'
              ? [
                  { label: t('plants:ranges.today'), value: dayjs(today) },
                  { label: t('plants:ranges.yesterday'), value: dayjs(shiftDate(today, 'day', -1)) },
                ]
              : undefined
          }
        />
      }
      styles={{ header: { flexWrap: 'wrap', gap: 8, paddingBlock: 8 } }}
    >
      <Flex justify="space-between" wrap gap={8} className={ui.chartHeading}>
        <Typography.Text strong>
          {isDay ? t('chart.dayTitle', { date }) : t(`chart.barsTitle.${period}`, { date: periodKey(date, period) })}
        </Typography.Text>
        <Typography.Text type="secondary">{summary}</Typography.Text>
      </Flex>
      {query.isPending ? (
        <ChartSkeleton height={320} />
      ) : query.isError && !query.data ? (
        <CardError error={query.error} onRetry={() => void query.refetch()} testId="chart-error" />
      ) : option ? (
        <LazyEChart
          option={option}
          height={320}
          testId={isDay ? 'chart-day' : `chart-${period}`}
          emptyTestId="chart-empty"
          ariaLabel={isDay ? t('chart.dayTitle', { date }) : t(`chart.barsTitle.${period}`, { date: periodKey(date, period) })}
        />
      ) : (
        <ChartEmpty height={320} testId="chart-empty" />
      )}
      <Typography.Text type="secondary" className={ui.note}>
        {isDay ? t('chart.tzNote', { timezone }) : null}
      </Typography.Text>
    </Card>
  );
});
