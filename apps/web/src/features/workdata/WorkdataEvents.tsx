/**
 * The "events with readings" tab of the operation-data page: the chosen device's events that
 * started in the period, newest first, each with the device's reading at its start (the chosen
 * parameters, or its usual set), server-paged. Times are in the plant's zone.
 */
import type { DataOf, workdataApi } from '@sunfleet/contracts';
import { Card, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable, listPagination } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import type { DateRange } from '../../lib/dateRange.ts';
import { levelStyle } from '../../lib/statusColours.ts';
import { formatZoned, withZone } from '../../lib/zonedTime.ts';
import { useFlowLabels } from './flowLabels.ts';
import { formatValue, type WorkdataParam } from './format.ts';
import { paramColumn } from './SampleTable.tsx';
import { type DeviceKind, useWorkdataEvents } from './workdataQueries.ts';

type EventWithSample = DataOf<typeof workdataApi.workdataEvents>['list'][number];
const PAGE_SIZES = [10, 20, 50, 100] as const;

export function WorkdataEvents({
  sn,
  kind,
  range,
  params,
}: {
  sn: string;
  kind: DeviceKind;
  range: DateRange;
  params: string[];
}) {
  const { t, i18n } = useTranslation('workdata');
  const { signs } = useFlowLabels();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(PAGE_SIZES[0]);
  const events = useWorkdataEvents({ sn, kind, range, params, page, size });
  const data = events.data;
  const timezone = data?.timezone ?? 'UTC';
  const readings: WorkdataParam[] = data?.params ?? [];

  const columns: TableColumnsType<EventWithSample> = [
    {
      key: 'level',
      title: t('events.level'),
      width: 96,
      fixed: 'left',
      render: (_, r) => (
        <Tag color={levelStyle[r.event.level].tag} data-testid={`workdata-event-level-${r.event.id}`}>
          {t(`events.levels.${r.event.level}`)}
        </Tag>
      ),
    },
    { key: 'code', title: t('events.code'), width: 150, ellipsis: true, render: (_, r) => r.event.code },
    {
      key: 'text',
      title: t('events.text'),
      width: 220,
      ellipsis: { showTitle: false },
      render: (_, r) => (
        <Tooltip title={r.event.pack === null ? r.event.text : `${r.event.text} ${t('events.pack', { pack: r.event.pack })}`}>
          <span>
            {r.event.text}
            {r.event.pack !== null && (
              <Typography.Text type="secondary" className={ui.gapBefore}>
                {t('events.pack', { pack: r.event.pack })}
              </Typography.Text>
            )}
          </span>
        </Tooltip>
      ),
    },
    {
      key: 'start',
      title: withZone(t('events.start'), timezone),
      width: 170,
      render: (_, r) => (
        <span className={ui.figures}>
          {formatZoned(r.event.startedAt, timezone, i18n.language, { seconds: true, label: false })}
        </span>
      ),
    },
    {
      key: 'end',
      title: withZone(t('events.end'), timezone),
      width: 170,
      render: (_, r) =>
        r.event.endedAt ? (
          <span className={ui.figures}>
            {formatZoned(r.event.endedAt, timezone, i18n.language, { seconds: true, label: false })}
          </span>
        ) : (
          <Tag color="orange">{t('events.ongoing')}</Tag>
        ),
    },
    {
      key: 'reading',
      title: withZone(t('events.reading'), timezone),
      width: 170,
      render: (_, r) =>
        r.sample ? (
          <span className={ui.figures}>{formatZoned(r.sample.ts, timezone, i18n.language, { seconds: true, label: false })}</span>
        ) : (
          <Typography.Text type="secondary">{t('events.noReading')}</Typography.Text>
        ),
    },
    ...readings.map((p, i) => ({
      key: `param-${p.key}`,
      ...paramColumn(p, signs),
      render: (_: unknown, r: EventWithSample) => (
        <span className={ui.figures}>{formatValue(r.sample?.values[i] ?? null, p)}</span>
      ),
    })),
  ];

  return (
    <Card
      size="small"
      title={
        <Tooltip title={t('events.hint')}>
          <span>{t('events.title')}</span>
        </Tooltip>
      }
      extra={
        data ? (
          <Typography.Text type="secondary" data-testid="workdata-events-total">
            {t('events.total', { count: data.total })}
          </Typography.Text>
        ) : null
      }
      data-testid="workdata-events"
    >
      {events.isError && !data ? (
        <PageError error={events.error} onRetry={() => void events.refetch()} />
      ) : (
        <ListTable<EventWithSample>
          fill
          size="small"
          rowKey={(r) => r.event.id}
          columns={columns}
          dataSource={data?.list ?? []}
          loading={events.isPending || events.isFetching}
          locale={{ emptyText: t('events.empty') }}
          data-testid="workdata-events-table"
          pagination={listPagination({
            page,
            size,
            total: data?.total ?? 0,
            sizes: PAGE_SIZES,
            small: true,
            onPage: (p, s) => {
              setSize(s);
              setPage(p);
            },
          })}
        />
      )}
    </Card>
  );
}
