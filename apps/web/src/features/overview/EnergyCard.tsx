/**
 * Energy balance of the chart's period: generated, consumed, imported, exported, charged and
 * discharged (energy breakdown), and where generation went / consumption came from, with the
 * self-use rate and self-sufficiency (generation/use).
 */
import type { DataOf, plantEnergyApi } from '@sunfleet/contracts';
import { Card, Col, Flex, Progress, Row, Skeleton, Tooltip, Typography, theme } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { CardError } from '../../components/CardState.tsx';
import { usePalette } from '../../components/palette.ts';
import ui from '../../components/ui.module.css';
import { type ChartPeriod, periodKey } from '../../lib/dateNav.ts';
import { isStoragePlant } from '../../lib/energyFlow.ts';
import { formatEnergy, formatRate } from '../../lib/format.ts';
import styles from './overview.module.css';
import { useBreakdown, useGenerationUse } from './overviewQueries.ts';

export type GenerationUse = DataOf<typeof plantEnergyApi.plantGenerationUse>;
export type EnergyBreakdown = DataOf<typeof plantEnergyApi.plantEnergyDay>;

/** A horizontal bar split into coloured parts with a legend line under it. */
function SplitBar({
  parts,
  testId,
}: {
  parts: Array<{ key: string; label: string; value: number; color: string }>;
  testId: string;
}) {
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  return (
    <Flex vertical gap={4} data-testid={testId}>
      <div className={styles.bar} aria-hidden>
        {total > 0 &&
          parts.map((p) => (
            <div key={p.key} style={{ width: `${(Math.max(0, p.value) / total) * 100}%`, background: p.color }} />
          ))}
      </div>
      <Flex gap={12} wrap>
        {parts.map((p) => (
          <Typography.Text key={p.key} type="secondary" className={ui.note}>
            <span className={styles.swatch} style={{ background: p.color }} />
            {p.label} {formatEnergy(p.value)}
          </Typography.Text>
        ))}
      </Flex>
    </Flex>
  );
}

function Gauge({ label, ratio, testId }: { label: string; ratio: number | null; testId: string }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={4} data-testid={testId}>
      <Progress
        type="circle"
        size={76}
        percent={ratio === null ? 0 : Math.round(Math.min(1, Math.max(0, ratio)) * 1000) / 10}
        format={() => formatRate(ratio)}
        strokeColor={token.colorPrimary}
        aria-label={label}
      />
      <Typography.Text type="secondary" className={styles.centredNote}>
        {label}
      </Typography.Text>
    </Flex>
  );
}

export const EnergyCard = memo(function EnergyCard({
  plantId,
  period,
  date,
  plantType,
}: {
  plantId: number;
  period: ChartPeriod;
  date: string;
  plantType: number | null | undefined;
}) {
  const { t } = useTranslation('overview');
  const { power, flow } = usePalette();
  const breakdown = useBreakdown(plantId, period, date);
  const use = useGenerationUse(plantId, period, date);
  const storage = isStoragePlant(plantType);
  const key = periodKey(date, period);
  const pending = breakdown.isPending || use.isPending;
  const failed = (breakdown.isError && !breakdown.data) || (use.isError && !use.data);

  const totals = breakdown.data?.totals;
  const figures: Array<{ key: string; value: number | undefined }> = [
    { key: 'generation', value: totals?.pv },
    { key: 'consumption', value: totals?.load },
    { key: 'gridImport', value: totals?.gridImport },
    { key: 'gridExport', value: totals?.gridExport },
    ...(storage
      ? [
          { key: 'charge', value: totals?.charge },
          { key: 'discharge', value: totals?.discharge },
        ]
      : []),
  ];

  return (
    <Card
      size="small"
      title={t('energy.title')}
      extra={
        <Typography.Text type="secondary" className={ui.note}>
          {period === 'total' ? t('chart.tabs.total') : key}
        </Typography.Text>
      }
      className={ui.fill}
      data-testid="energy-card"
    >
      {pending ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : failed ? (
        <CardError
          error={breakdown.error ?? use.error}
          onRetry={() => {
            void breakdown.refetch();
            void use.refetch();
          }}
          testId="energy-error"
        />
      ) : (
        <Flex vertical gap={14}>
          <Row gutter={[12, 10]}>
            {figures.map((f) => (
              <Col span={storage ? 8 : 12} key={f.key}>
                <Flex vertical>
                  <Typography.Text type="secondary" className={styles.caption}>
                    {t(`energy.${f.key}`)}
                  </Typography.Text>
                  <Typography.Text strong data-testid={`energy-${f.key}`}>
                    {formatEnergy(f.value)}
                  </Typography.Text>
                </Flex>
              </Col>
            ))}
          </Row>
          {use.data && (
            <>
              <Flex justify="space-around" gap={8}>
                <Tooltip title={t('energy.selfUseRateHint')}>
                  <div>
                    <Gauge label={t('energy.selfUseRate')} ratio={use.data.selfUseRate} testId="energy-self-use-rate" />
                  </div>
                </Tooltip>
                <Tooltip title={t('energy.selfSufficiencyHint')}>
                  <div>
                    <Gauge
                      label={t('energy.selfSufficiency')}
                      ratio={use.data.selfSufficiency}
                      testId="energy-self-sufficiency"
                    />
                  </div>
                </Tooltip>
              </Flex>
              <Flex vertical gap={4}>
                <Typography.Text className={ui.note}>{t('energy.generationSplit')}</Typography.Text>
                <SplitBar
                  testId="energy-generation-split"
                  parts={[
                    { key: 'selfUse', label: t('energy.selfUse'), value: use.data.selfUse, color: power.pv },
                    { key: 'export', label: t('energy.export'), value: use.data.export, color: flow.gridExport },
                  ]}
                />
              </Flex>
              <Flex vertical gap={4}>
                <Typography.Text className={ui.note}>{t('energy.consumptionSplit')}</Typography.Text>
                <SplitBar
                  testId="energy-consumption-split"
                  parts={[
                    { key: 'fromPv', label: t('energy.fromPv'), value: use.data.fromPv, color: power.pv },
                    { key: 'fromGrid', label: t('energy.fromGrid'), value: use.data.fromGrid, color: flow.gridImport },
                    ...(storage
                      ? [
                          {
                            key: 'fromBattery',
                            label: t('energy.fromBattery'),
                            value: use.data.fromBattery,
                            color: flow.discharge,
                          },
                        ]
                      : []),
                  ]}
                />
              </Flex>
            </>
          )}
        </Flex>
      )}
    </Card>
  );
});
