/**
 * /management/status (system.management): this server process's figures — ingest, MQTT, store,
 * HTTP — the same as its /metrics, polled every few seconds. Counters are totals since the
 * process started; rates are between the last two polls.
 */
import { Card, Flex, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';
import { BrokerPanel, HttpPanel, IngestPanel, StorePanel, SummaryRow } from './StatusPanels.tsx';
import { POLL_MS, useRates, useSystemStatus } from './statusQueries.ts';
import styles from './system.module.css';

export default function SystemStatusPage() {
  const { t, i18n } = useTranslation('system');
  const status = useSystemStatus();
  const rates = useRates(status.data);
  const data = status.data;

  return (
    <Card data-testid="system-status-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={styles.headingRow}>
        <Typography.Title level={4} className={ui.flush} data-testid="page-title">
          {t('menu:systemStatus')}
        </Typography.Title>
        {data && (
          <Space size={8} wrap>
            {status.isError && (
              <Tag color="error" data-testid="status-stale">
                {t('stale')}
              </Tag>
            )}
            <Typography.Text type="secondary" data-testid="status-updated">
              {t('updated', {
                time: formatZoned(data.at, browserZone(), i18n.language, { timeOnly: true, seconds: true }),
                seconds: POLL_MS / 1000,
              })}
            </Typography.Text>
          </Space>
        )}
      </Flex>
      {!data && status.isError ? (
        <PageError error={status.error} onRetry={() => void status.refetch()} />
      ) : !data ? (
        <PageLoading />
      ) : (
        <Flex vertical gap={16}>
          <SummaryRow status={data} rates={rates} />
          <Flex gap={16} wrap align="stretch">
            <IngestPanel ingest={data.ingest} rates={rates} />
            <Flex vertical gap={16} className={styles.column}>
              <BrokerPanel broker={data.broker} />
              <StorePanel store={data.store} />
            </Flex>
          </Flex>
          <HttpPanel http={data.http} rates={rates} />
        </Flex>
      )}
    </Card>
  );
}
