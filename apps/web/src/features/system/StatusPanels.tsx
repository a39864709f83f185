/** The panels of the system status page: summary figures, ingest, MQTT, store and HTTP. */

import { Card, Descriptions, Flex, Statistic, Table, Tag, Typography, theme } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PageEmpty } from '../../components/PageState.tsx';
import { formatNumber } from '../../lib/format.ts';
import type { Rates, SystemStatus } from './statusQueries.ts';
import styles from './system.module.css';

function duration(totalSec: number, t: TFunction<'system'>): string {
  const d = Math.floor(totalSec / 86400);
  const h = Math.floor((totalSec % 86400) / 3600);
  const m = Math.floor((totalSec % 3600) / 60);
  if (d > 0) return t('uptimeDays', { d, h });
  if (h > 0) return t('uptimeHours', { h, m });
  return t('uptimeMinutes', { m, s: totalSec % 60 });
}

function bytes(n: number): string {
  if (n >= 1024 ** 3) return `${formatNumber(n / 1024 ** 3, 1)} GiB`;
  if (n >= 1024 ** 2) return `${formatNumber(n / 1024 ** 2, 1)} MiB`;
  if (n >= 1024) return `${formatNumber(n / 1024, 1)} KiB`;
  return `${formatNumber(n)} B`;
}

const perSecond = (n: number | undefined) => (n === undefined ? undefined : `${formatNumber(n, n < 10 ? 1 : 0)}/s`);

export function SummaryRow({ status, rates }: { status: SystemStatus; rates: Rates | null }) {
  const { t } = useTranslation('system');
  const { token } = theme.useToken();
  const refused = status.ingest?.refusedTotal ?? 0;
  const items = [
    { key: 'uptime', value: duration(status.uptimeSec, t) },
    { key: 'connections', value: status.broker ? formatNumber(status.broker.connections) : '–' },
    {
      key: 'stored',
      value: status.ingest ? formatNumber(status.ingest.stored) : '–',
      rate: perSecond(rates?.stored),
    },
    {
      key: 'refused',
      value: status.ingest ? formatNumber(refused) : '–',
      rate: perSecond(rates?.refused),
      color: refused > 0 ? token.colorError : undefined,
    },
    { key: 'queue', value: status.ingest ? formatNumber(status.ingest.queueLength) : '–' },
    {
      key: 'commit',
      value: status.ingest ? `${formatNumber(status.ingest.averageCommitMs, 1)} ms` : '–',
    },
  ];
  return (
    <Flex gap={12} wrap data-testid="status-summary">
      {items.map((i) => (
        <Card key={i.key} size="small" className={styles.summaryCard}>
          <Statistic
            title={t(`summary.${i.key}`)}
            value={i.value}
            valueStyle={{ fontSize: 22, color: i.color }}
            suffix={i.rate ? <Typography.Text type="secondary">{i.rate}</Typography.Text> : undefined}
            data-testid={`summary-${i.key}`}
          />
        </Card>
      ))}
    </Flex>
  );
}

export function IngestPanel({ ingest, rates }: { ingest: SystemStatus['ingest']; rates: Rates | null }) {
  const { t } = useTranslation('system');
  if (!ingest)
    return (
      <Card title={t('ingest.title')} size="small" className={styles.column} data-testid="ingest-panel">
        <PageEmpty description={t('ingest.elsewhere')} />
      </Card>
    );
  const rows: Array<[string, number | undefined, string?]> = [
    ['received', ingest.received, perSecond(rates?.received)],
    ['deviceFrames', ingest.deviceFrames],
    ['stored', ingest.stored, perSecond(rates?.stored)],
    ['duplicates', ingest.duplicates],
    ['acknowledged', ingest.acknowledged],
    ['batches', ingest.batches],
    ['failedBatches', ingest.failedBatches],
    ['heldSpells', ingest.heldSpells],
  ];
  const refused = [...ingest.refused].sort((a, b) => b.count - a.count);
  return (
    <Card title={t('ingest.title')} size="small" className={styles.column} data-testid="ingest-panel">
      <Descriptions size="small" column={1} bordered>
        {rows
          .filter(([, v]) => v !== undefined)
          .map(([key, value, rate]) => (
            <Descriptions.Item key={key} label={t(`ingest.${key}`)}>
              <span data-testid={`ingest-${key}`}>{formatNumber(value)}</span>
              {rate && <Typography.Text type="secondary">{`  ${rate}`}</Typography.Text>}
            </Descriptions.Item>
          ))}
        <Descriptions.Item label={t('ingest.lastCommit')}>{`${formatNumber(ingest.lastCommitMs, 1)} ms`}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} className={styles.refusedTitle}>
        {t('ingest.refusedTitle', { total: formatNumber(ingest.refusedTotal) })}
      </Typography.Title>
      <Flex gap={8} wrap data-testid="refused-reasons">
        {refused.map((r) => (
          <Tag key={r.reason} color={r.count > 0 ? 'error' : undefined} data-testid={`refused-${r.reason}`}>
            {t(`reasons.${r.reason}`, { defaultValue: r.reason })}: {formatNumber(r.count)}
          </Tag>
        ))}
      </Flex>
    </Card>
  );
}

export function BrokerPanel({ broker }: { broker: SystemStatus['broker'] }) {
  const { t } = useTranslation('system');
  return (
    <Card title={t('broker.title')} size="small" data-testid="broker-panel">
      {!broker ? (
        <PageEmpty description={t('ingest.elsewhere')} />
      ) : (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label={t('broker.kind')}>{t(`broker.${broker.kind}`)}</Descriptions.Item>
          {(['connections', 'delivered', 'acknowledged', 'retransmitted', 'droppedOversize', 'rateLimited', 'held'] as const).map(
            (k) => (
              <Descriptions.Item key={k} label={t(`broker.${k}`)}>
                <span data-testid={`broker-${k}`}>{formatNumber(broker[k])}</span>
              </Descriptions.Item>
            ),
          )}
        </Descriptions>
      )}
    </Card>
  );
}

export function StorePanel({ store }: { store: SystemStatus['store'] }) {
  const { t } = useTranslation('system');
  return (
    <Card title={t('store.title')} size="small" data-testid="store-panel">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('store.dialect')}>{t(`store.${store.dialect}`)}</Descriptions.Item>
        {store.pool && (
          <>
            <Descriptions.Item label={t('store.poolInUse')}>
              <span data-testid="pool-in-use">
                {t('store.ofMax', { n: store.pool.total - store.pool.idle, max: store.pool.max })}
              </span>
            </Descriptions.Item>
            <Descriptions.Item label={t('store.poolIdle')}>{formatNumber(store.pool.idle)}</Descriptions.Item>
            <Descriptions.Item label={t('store.poolWaiting')}>
              <span data-testid="pool-waiting">{formatNumber(store.pool.waiting)}</span>
            </Descriptions.Item>
          </>
        )}
        {store.sqlite && (
          <>
            <Descriptions.Item label={t('store.fileSize')}>
              <span data-testid="sqlite-file">{bytes(store.sqlite.fileBytes)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('store.walSize')}>{bytes(store.sqlite.walBytes)}</Descriptions.Item>
          </>
        )}
      </Descriptions>
    </Card>
  );
}

export function HttpPanel({ http, rates }: { http: SystemStatus['http']; rates: Rates | null }) {
  const { t } = useTranslation('system');
  return (
    <Card
      title={t('http.title', { total: formatNumber(http.requests) })}
      extra={rates && <Typography.Text type="secondary">{perSecond(rates.requests)}</Typography.Text>}
      size="small"
      data-testid="http-panel"
    >
      <Table
        size="small"
        rowKey={(r) => `${r.method} ${r.route}`}
        dataSource={http.routes}
        pagination={false}
        locale={{ emptyText: <PageEmpty description={t('http.none')} /> }}
        columns={[
          { key: 'method', title: t('http.method'), dataIndex: 'method', width: 90 },
          {
            key: 'route',
            title: t('http.route'),
            dataIndex: 'route',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          { key: 'count', title: t('http.count'), dataIndex: 'count', align: 'right', render: (v: number) => formatNumber(v) },
          {
            key: 'avg',
            title: t('http.average'),
            dataIndex: 'averageMs',
            align: 'right',
            render: (v: number) => `${formatNumber(v, 1)} ms`,
          },
          {
            key: 'errors',
            title: t('http.serverErrors'),
            dataIndex: 'serverErrors',
            align: 'right',
            render: (v: number) => (v > 0 ? <Typography.Text type="danger">{formatNumber(v)}</Typography.Text> : '0'),
          },
        ]}
      />
    </Card>
  );
}
