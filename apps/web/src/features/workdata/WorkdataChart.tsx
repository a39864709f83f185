/**
 * The chart of 1–6 numeric parameters: every sample, or the
 * server's time buckets (average with a min–max band) when the period holds more than
 * WORKDATA_CHART_POINTS samples. ECharts comes from the overview's tree-shaken set, plus zoom.
 */
import { limits } from '@sunfleet/contracts';
import { Card, Flex, Select, Spin, Tag, Typography, theme } from 'antd';
import { DataZoomComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../components/EChart.tsx';
import { PageEmpty, PageError } from '../../components/PageState.tsx';
import { usePalette } from '../../components/palette.ts';
import ui from '../../components/ui.module.css';
import type { DateRange } from '../../lib/dateRange.ts';
import { workdataChartOption } from './chartOption.ts';
import { useFlowLabels } from './flowLabels.ts';
import { bucketWidth, paramTitle, type WorkdataParam } from './format.ts';
import styles from './workdata.module.css';
import { useChart } from './workdataQueries.ts';

use([DataZoomComponent]);

export function WorkdataChart({
  sn,
  range,
  numeric,
  chosen,
  onChosen,
}: {
  sn: string;
  range: DateRange;
  /** The device's numeric parameters (the choices). */
  numeric: WorkdataParam[];
  chosen: string[];
  onChosen: (keys: string[]) => void;
}) {
  const { t, i18n } = useTranslation('workdata');
  const flowLabels = useFlowLabels();
  const { token } = theme.useToken();
  const palette = usePalette();
  const chart = useChart({ sn, range, params: chosen });
  const data = chart.data;
  const hasPoints = Boolean(data && data.ts.length > 0);
  const option = useMemo(
    () =>
      data
        ? workdataChartOption(
            data,
            { min: t('chart.min'), max: t('chart.max'), locale: i18n.language, ...flowLabels },
            { text: token.colorTextSecondary, grid: token.colorBorderSecondary, series: palette },
          )
        : null,
    [data, t, i18n.language, flowLabels, token.colorTextSecondary, token.colorBorderSecondary, palette],
  );

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center" wrap>
          <span>{t('chart.title')}</span>
          {data && hasPoints && (
            <Tag data-testid="chart-mode">
              {data.bucketSeconds > 0 ? t('chart.bucketed', { width: bucketWidth(data.bucketSeconds) }) : t('chart.raw')}
            </Tag>
          )}
        </Flex>
      }
      extra={
        <Select<string[]>
          mode="multiple"
          size="small"
          value={chosen}
          onChange={onChosen}
          maxCount={limits.parametersOrProfiles}
          maxTagCount="responsive"
          options={numeric.map((p) => ({ value: p.key, label: paramTitle(p, flowLabels.signs) }))}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('chart.params')}
          aria-label={t('chart.params')}
          title={t('chart.paramsHelp', { max: limits.parametersOrProfiles })}
          className={styles.chartParams}
          data-testid="chart-params"
        />
      }
      styles={{ header: { flexWrap: 'wrap', gap: 8, paddingBlock: 8 } }}
      data-testid="chart-card"
    >
      {chosen.length === 0 ? (
        <PageEmpty description={t('empty.noNumeric')} />
      ) : chart.isError && !data ? (
        <PageError error={chart.error} onRetry={() => void chart.refetch()} />
      ) : (
        <Spin spinning={chart.isFetching}>
          {data && !hasPoints ? (
            <div className={`${styles.chartPlace} ${ui.centred}`}>
              <PageEmpty description={t('empty.noSamples')} />
            </div>
          ) : option ? (
            <EChart option={option} height={340} testId="workdata-chart" ariaLabel={t('chart.title')} />
          ) : (
            <div className={styles.chartPlace} />
          )}
          {data && hasPoints && (
            <Typography.Text type="secondary" className={ui.note}>
              {t('device.timezone', { timezone: data.timezone })}
            </Typography.Text>
          )}
        </Spin>
      )}
    </Card>
  );
}
