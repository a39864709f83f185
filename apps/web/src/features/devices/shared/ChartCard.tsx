import { Card, Flex, Segmented, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../api/client.ts';
import { CardError } from '../../../components/CardState.tsx';
import { ChartEmpty } from '../../../components/ChartEmpty.tsx';
import { ChartSkeleton } from '../../../components/ChartSkeleton.tsx';
import { useChartColors } from '../../../components/chartColors.ts';
import { DateNav } from '../../../components/DateNav.tsx';
import { EChart } from '../../../components/EChart.tsx';
import ui from '../../../components/ui.module.css';
import { type ChartPeriod, periodKey } from '../../../lib/dateNav.ts';
import { dayCurveOption, energyBarsOption } from './charts.ts';
import { formatValue } from './format.ts';
import type { DayChart, EnergyBars, EnergyKey } from './types.ts';

export interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: ApiError | null;
  refetch: () => unknown;
}

/** The period and date of a chart card (and the device's today); the date never passes today. */
export function useChartState(today: string, initial: ChartPeriod = 'day') {
  const [period, setPeriod] = useState<ChartPeriod>(initial);
  const [picked, setPicked] = useState<string | null>(null);
  const date = picked && picked <= today ? picked : today;
  return { period, date, today, setPeriod, setDate: (d: string) => setPicked(d > today ? today : d) };
}
export type ChartState = ReturnType<typeof useChartState>;

/** Translated names of the energy flows. */
export function useEnergyLabels(): Record<EnergyKey, string> {
  const { t } = useTranslation('devices');
  return useMemo(
    () => ({
      pv: t('energy.pv'),
      load: t('energy.load'),
      gridImport: t('energy.gridImport'),
      gridExport: t('energy.gridExport'),
      charge: t('energy.charge'),
      discharge: t('energy.discharge'),
    }),
    [t],
  );
}

export function ChartCard({
  title,
  periods = ['day', 'month', 'year', 'total'],
  chart,
  timezone,
  day,
  bars,
  barKeys,
  dayBars = false,
  hidden,
  toolbar,
  summary,
  footer,
  testId = 'chart-card',
}: {
  title?: ReactNode;
  periods?: readonly ChartPeriod[];
  /** Its period and date (`useChartState`); a card of one period never changes it. */
  chart: ChartState;
  timezone: string;
  day: QueryLike<Pick<DayChart, 'times' | 'series' | 'timezone'>> | null;
  bars?: QueryLike<EnergyBars> | null;
  barKeys?: readonly EnergyKey[];
  /** The day shows `bars` too (its hours) instead of curves; `day` is then unused. */
  dayBars?: boolean;
  /** Day series keys off in the legend at first. */
  hidden?: readonly string[];
  /** Extra controls of the day view (the parameter picker). */
  toolbar?: ReactNode;
  /** A line above the chart (the period's energy). */
  summary?: ReactNode;
  /** Below the chart (a table of the day's figures). */
  footer?: ReactNode;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('devices');
  const colors = useChartColors();
  const labels = useEnergyLabels();
  const { period, date, today, setPeriod: onPeriod, setDate: onDate } = chart;
  const isDay = period === 'day';
  const isCurve = isDay && !dayBars;
  const query = isCurve ? day : bars;

  const option = useMemo(() => {
    if (isCurve) return day?.data ? dayCurveOption(day.data, colors, { directions: labels, hidden }) : null;
    if (!bars?.data || !barKeys) return null;
    return energyBarsOption(bars.data, barKeys, labels, i18n.language, colors);
  }, [isCurve, day?.data, bars?.data, barKeys, hidden, labels, colors, i18n.language]);

  const heading = isCurve ? t('chart.dayTitle', { date }) : t(`chart.barsTitle.${period}`, { date: periodKey(date, period) });
  const totals =
    !isCurve && bars?.data && barKeys
      ? barKeys
          .filter((k) => (bars.data?.totals[k] ?? 0) !== 0)
          .map((k) => `${labels[k]} ${formatValue(bars.data?.totals[k] ?? 0, 'Wh')}`)
          .join(' · ')
      : null;

  return (
    <Card
      size="small"
      data-testid={testId}
      title={
        <Flex align="center" gap={12} wrap>
          {title}
          {periods.length > 1 && (
            <Segmented
              value={period}
              onChange={(v) => onPeriod(v as ChartPeriod)}
              options={periods.map((p) => ({ value: p, label: t(`chart.tabs.${p}`) }))}
              data-testid={`${testId}-tabs`}
            />
          )}
        </Flex>
      }
      extra={
        <Flex gap={8} wrap align="center">
          {isCurve && toolbar}
          <DateNav period={period} date={date} today={today} onDate={onDate} />
        </Flex>
      }
      styles={{ header: { flexWrap: 'wrap', gap: 8, paddingBlock: 8 } }}
    >
      <Flex justify="space-between" wrap gap={8} className={ui.chartHeading}>
        <Typography.Text strong>{heading}</Typography.Text>
        <Typography.Text type="secondary" data-testid={`${testId}-summary`}>
          {isCurve ? summary : totals}
        </Typography.Text>
      </Flex>
      {!query || query.isPending ? (
        <ChartSkeleton height={320} />
      ) : query.isError && !query.data ? (
        <CardError error={query.error} onRetry={() => void query.refetch()} testId={`${testId}-error`} />
      ) : option ? (
        <EChart option={option} height={320} testId={`${testId}-${period}`} emptyTestId={`${testId}-empty`} ariaLabel={heading} />
      ) : (
        <ChartEmpty height={320} testId={`${testId}-empty`} />
      )}
      {footer}
      {isDay && (
        <Typography.Text type="secondary" className={ui.note}>
          {t('chart.tzNote', { timezone })}
        </Typography.Text>
      )}
    </Card>
  );
}
