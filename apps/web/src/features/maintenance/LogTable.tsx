import type { DataOf, loggersApi } from '@sunfleet/contracts';
import { Flex, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListTable, listPagination, openColumn } from '../../components/ListTable.tsx';
import ui from '../../components/ui.module.css';
import { formatZoned, withZone } from '../../lib/zonedTime.ts';
import { pageSizes } from './criteria.ts';
import { resultColour } from './kinds.ts';

export type LogEntry = DataOf<typeof loggersApi.logPage>['list'][number];

export function LogTable({
  rows,
  total,
  loading,
  page,
  size,
  timezone,
  onPage,
  onOpen,
}: {
  rows: LogEntry[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  timezone: string;
  onPage: (page: number, size: number) => void;
  onOpen: (row: LogEntry) => void;
}) {
  const { t, i18n } = useTranslation('maintenance');
  const columns: TableColumnsType<LogEntry> = [
    {
      key: 'time',
      title: withZone(t('columns.time'), timezone),
      width: 190,
      render: (_, e) => <span className={ui.figures}>{formatZoned(e.createdAt, timezone, i18n.language, { label: false })}</span>,
    },
    { key: 'kind', title: t('columns.kind'), width: 110, render: (_, e) => t(`kinds.${e.kind}`) },
    {
      key: 'device',
      title: t('columns.device'),
      width: 190,
      render: (_, e) => (
        <Flex vertical className={ui.shrink}>
          <Typography.Text ellipsis={{ tooltip: e.sn }} className={ui.mono}>
            {e.sn}
          </Typography.Text>
          {e.gatewaySn && e.gatewaySn !== e.sn && (
            <Typography.Text type="secondary" className={ui.note} ellipsis={{ tooltip: e.gatewaySn }}>
              {t('via', { gateway: e.gatewaySn })}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    { key: 'plant', dataIndex: 'plantName', title: t('columns.plant'), width: 160, render: (v: string | null) => v ?? '--' },
    { key: 'user', dataIndex: 'user', title: t('columns.user'), width: 160, render: (v: string) => v || '--' },
    {
      key: 'result',
      title: t('columns.result'),
      width: 120,
      render: (_, e) => (
        <Tag color={resultColour[e.result]} data-testid={`log-result-${e.id}`}>
          {t(`results.${e.result}`)}
        </Tag>
      ),
    },
    openColumn({ title: t('columns.actions'), label: t('details'), onOpen, testId: (e) => `log-detail-${e.id}` }),
  ];

  return (
    <ListTable<LogEntry>
      fill
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      locale={{ emptyText: t('empty') }}
      onRow={(row) => ({ onClick: () => onOpen(row), style: { cursor: 'pointer' } })}
      aria-label={t('tableLabel')}
      data-testid="log-table"
      pagination={listPagination({ page, size, total, sizes: pageSizes, onPage, totalText: (n) => t('total', { count: n }) })}
    />
  );
}
