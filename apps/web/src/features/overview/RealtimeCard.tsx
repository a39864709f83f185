/**
 * The realtime card: power now (and its share of the capacity), energy today, this month, this
 * year and in total, income today and in total from the plant's valuation method, CO₂ avoided.
 */
import { ThunderboltFilled } from '@ant-design/icons';
import type { DataOf, plantEnergyApi } from '@sunfleet/contracts';
import { Col, Flex, Progress, Row, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../api/client.ts';
import { LiveCard } from '../../components/CardState.tsx';
import { Figure } from '../../components/Figure.tsx';
import ui from '../../components/ui.module.css';
import { formatCo2, formatEnergy, formatMoney, formatRate, formatWatts } from '../../lib/format.ts';
import { formatZoned } from '../../lib/zonedTime.ts';
import styles from './overview.module.css';

export type Realtime = DataOf<typeof plantEnergyApi.plantRealtime>;

export function RealtimeCard({
  data,
  error,
  pending,
  onRetry,
  timezone,
}: {
  data: Realtime | undefined;
  error: ApiError | null;
  pending: boolean;
  onRetry: () => void;
  timezone: string;
}) {
  const { t, i18n } = useTranslation('overview');
  const { token } = theme.useToken();
  const noPrice = data ? data.todayIncome === null && data.totalIncome === null : false;
  const ratio = data?.powerRatio ?? null;

  return (
    <LiveCard
      title={t('realtime.title')}
      testId="realtime-card"
      updated={
        data?.lastUpdate
          ? t('realtime.updated', { time: formatZoned(data.lastUpdate, data.timezone ?? timezone, i18n.language) })
          : null
      }
      updatedTestId="realtime-updated"
      pending={pending}
      error={error}
      hasData={Boolean(data)}
      onRetry={onRetry}
      rows={5}
      errorTestId="realtime-error"
    >
      {() =>
        data ? (
          <Flex vertical gap={14}>
            <Flex align="center" gap={16} wrap>
              <Flex align="center" justify="center" className={styles.powerIcon}>
                <ThunderboltFilled />
              </Flex>
              <Flex vertical className={styles.powerColumn}>
                <Typography.Text type="secondary" className={ui.note}>
                  {t('realtime.power')}
                </Typography.Text>
                <Typography.Text strong className={styles.powerNow} data-testid="realtime-power">
                  {formatWatts(data.power)}
                </Typography.Text>
                {ratio !== null && (
                  <Tooltip title={t('realtime.ofCapacity', { rate: formatRate(ratio) })}>
                    <Progress
                      percent={Math.min(100, Math.max(0, ratio * 100))}
                      showInfo={false}
                      size="small"
                      strokeColor={token.colorPrimary}
                      aria-label={t('realtime.ofCapacity', { rate: formatRate(ratio) })}
                      data-testid="realtime-ratio"
                    />
                  </Tooltip>
                )}
              </Flex>
            </Flex>
            {data.lastUpdate === null && (
              <Typography.Text type="secondary" data-testid="realtime-no-data">
                {t('realtime.noData')}
              </Typography.Text>
            )}
            <Flex vertical gap={4}>
              <Typography.Text strong className={styles.section}>
                {t('realtime.energy')}
              </Typography.Text>
              <Row gutter={[16, 8]}>
                <Col xs={12} sm={6}>
                  <Figure label={t('realtime.short.today')} value={formatEnergy(data.todayEnergy)} testId="realtime-today" />
                </Col>
                <Col xs={12} sm={6}>
                  <Figure label={t('realtime.short.month')} value={formatEnergy(data.monthEnergy)} testId="realtime-month" />
                </Col>
                <Col xs={12} sm={6}>
                  <Figure label={t('realtime.short.year')} value={formatEnergy(data.yearEnergy)} testId="realtime-year" />
                </Col>
                <Col xs={12} sm={6}>
                  <Figure label={t('realtime.short.total')} value={formatEnergy(data.totalEnergy)} testId="realtime-total" />
                </Col>
              </Row>
            </Flex>
            <Row gutter={[16, 8]}>
              <Col xs={24} sm={12}>
                <Flex vertical gap={4}>
                  <Typography.Text strong className={styles.section}>
                    {t('realtime.income')}
                  </Typography.Text>
                  <Row gutter={16}>
                    <Col span={12}>
                      <Figure
                        label={t('realtime.short.today')}
                        value={formatMoney(data.todayIncome, data.currency)}
                        hint={noPrice ? t('realtime.noPrice') : undefined}
                        testId="income-today"
                      />
                    </Col>
                    <Col span={12}>
                      <Figure
                        label={t('realtime.short.total')}
                        value={formatMoney(data.totalIncome, data.currency)}
                        hint={noPrice ? t('realtime.noPrice') : undefined}
                        testId="income-total"
                      />
                    </Col>
                  </Row>
                </Flex>
              </Col>
              <Col xs={24} sm={12}>
                <Flex vertical gap={4}>
                  <Typography.Text strong className={styles.section}>
                    {t('realtime.co2')}
                  </Typography.Text>
                  <Row gutter={16}>
                    <Col span={12}>
                      <Figure label={t('realtime.short.today')} value={formatCo2(data.co2TodayKg)} testId="co2-today" />
                    </Col>
                    <Col span={12}>
                      <Figure label={t('realtime.short.total')} value={formatCo2(data.co2TotalKg)} testId="co2-total" />
                    </Col>
                  </Row>
                </Flex>
              </Col>
            </Row>
          </Flex>
        ) : null
      }
    </LiveCard>
  );
}
