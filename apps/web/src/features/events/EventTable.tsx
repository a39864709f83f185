/**
 * The event list: one server page at a time in a list table filling the window's height (as
 * the plant table), newest first. An event shows its text in the interface language (the server's,
 * with the suggested action in its tooltip) over its code; times are read in `timezone`, which
 * the column header names. A row (or its details button) opens the detail drawer.
 */
import { CheckCircleFilled } from '@ant-design/icons';
import { Flex, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { EventText } from '../../components/EventText.tsx';
import { ListTable, listPagination, openColumn } from '../../components/ListTable.tsx';
import ui from '../../components/ui.module.css';
import { levelStyle } from '../../lib/statusColours.ts';
import { describeZone, formatZoned, withZone } from '../../lib/zonedTime.ts';
import { formatDuration, pageSizes } from './criteria.ts';
import type { EventRow } from './eventQueries.ts';

export function EventTable({
  rows,
  total,
  loading,
  page,
  size,
  onPage,
  onOpen,
  timezone,
}: {
  rows: EventRow[];
  /** The zone the times are read in (named in the header). */
  timezone: string;
  total: number;
  loading: boolean;
  page: number;
  size: number;
  onPage: (page: number, size: number) => void;
  onOpen: (row: EventRow) => void;
}) {
  const { t, i18n } = useTranslation('events');
  const time = (iso: string | null) => formatZoned(iso, timezone, i18n.language, { label: false });

  const columns: TableColumnsType<EventRow> = [
    {
      key: 'level',
      title: t('columns.level'),
      width: 84,
      fixed: 'left',
      render: (_, e) => (
        <Tag color={levelStyle[e.level].tag} data-testid={`event-level-${e.id}`}>
          {t(`level.${e.level}`)}
        </Tag>
      ),
    },
    {
      key: 'text',
      title: t('columns.text'),
      width: 290,
      render: (_, e) => (
        <EventText text={e.text} code={e.code} action={e.action} actionLabel={t('drawer.action')} testId={`event-text-${e.id}`} />
      ),
    },
    {
      key: 'device',
      title: t('columns.device'),
      width: 150,
      render: (_, e) => (
        <Flex vertical className={ui.shrink}>
          <Typography.Text ellipsis={{ tooltip: e.sn }} className={ui.mono}>
            {e.sn}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis={{ tooltip: true }} className={ui.note}>
            {[e.kind ? t(`kinds.${e.kind}`) : null, e.alias].filter(Boolean).join(' · ') || '--'}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'plant',
      dataIndex: 'plantName',
      title: t('columns.plant'),
      width: 130,
      ellipsis: true,
      render: (v: string | null) => v ?? '--',
    },
    {
      key: 'time',
      title: (
        <Tooltip title={t('zoneHint', { zone: describeZone(timezone, i18n.language) })}>
          <span>{withZone(t('columns.time'), timezone)}</span>
        </Tooltip>
      ),
      // On the header cell, not in the title: the table repeats titles in its hidden measure row.
      onHeaderCell: () => ({ 'data-testid': 'event-time-header' }) as HTMLAttributes<HTMLElement>,
      width: 210,
      render: (_, e) => (
        <Flex vertical className={ui.shrink}>
          <span className={ui.figures}>{time(e.startedAt)}</span>
          <Typography.Text type="secondary" className={ui.note}>
            {e.endedAt ? (
              <span className={ui.figures}>→ {time(e.endedAt)}</span>
            ) : (
              <Tag color="orange" className={ui.tagTight}>
                {t('ongoing')}
              </Tag>
            )}{' '}
            · {formatDuration(e.startedAt, e.endedAt)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'ack',
      title: t('columns.ack'),
      width: 120,
      render: (_, e) =>
        e.acknowledged ? (
          <Tooltip title={formatZoned(e.ackAt, timezone, i18n.language, { seconds: true })}>
            <Flex gap={6} align="center" className={ui.shrink} data-testid={`event-acked-${e.id}`}>
              <CheckCircleFilled className={ui.good} />
              <Typography.Text ellipsis>{e.ackBy ?? '--'}</Typography.Text>
            </Flex>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">{t('ackPending')}</Typography.Text>
        ),
    },
    openColumn({ title: t('columns.actions'), label: t('details'), onOpen, testId: (e) => `event-detail-${e.id}` }),
  ];

  return (
    <ListTable<EventRow>
      fill
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      locale={{ emptyText: t('empty') }}
      onRow={(row) => ({ onClick: () => onOpen(row), style: { cursor: 'pointer' } })}
      data-testid="event-table"
      pagination={listPagination({ page, size, total, sizes: pageSizes, onPage, totalText: (n) => t('total', { count: n }) })}
    />
  );
}
