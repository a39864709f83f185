/**
 * Events of the plant: the open ones, or the history of a period chosen with the quick
 * ranges (today … last 90 days, counted from the plant's today). A period over 90 days is refused
 * with a message and not asked for. A tag counts this plant's events that started in the last
 * hour (event/oneHour).
 */
import { type DataOf, limits, type plantsApi } from '@sunfleet/contracts';
import { Alert, Card, DatePicker, Flex, Segmented, type TableColumnsType, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardError } from '../../components/CardState.tsx';
import { ListTable } from '../../components/ListTable.tsx';
import { allQuickRanges, type DateRange, dayDate, dayString, quickRange, rangeProblem } from '../../lib/dateRange.ts';
import { formatZoned, withZone } from '../../lib/zonedTime.ts';
import { levelColor } from './DevicesCard.tsx';
import { useEvents, useOneHourEvents } from './overviewQueries.ts';

type PlantEvent = DataOf<typeof plantsApi.plantEvents>['list'][number];

export function EventsCard({ plantId, timezone, today }: { plantId: number; timezone: string; today: string }) {
  const { t, i18n } = useTranslation('overview');
  const [mode, setMode] = useState<'open' | 'all'>('open');
  const [range, setRange] = useState<DateRange>(() => quickRange('last7', dayDate(today)));
  const [page, setPage] = useState(1);
  const problem = mode === 'all' ? rangeProblem(range) : null;
  const events = useEvents(
    plantId,
    mode === 'open' ? { state: 'open', page } : { state: 'all', startDate: range.start, endDate: range.end, page },
    problem === null,
  );
  const lastHour = useOneHourEvents();
  const recent = lastHour.data?.filter((e) => e.plantId === plantId).length ?? 0;

  const columns: TableColumnsType<PlantEvent> = [
    {
      key: 'level',
      title: t('events.columns.level'),
      width: 96,
      render: (_, e) => <Tag color={levelColor[e.level]}>{t(`events.levels.${e.level}`)}</Tag>,
    },
    { key: 'code', dataIndex: 'code', title: t('events.columns.code'), width: 90 },
    { key: 'text', dataIndex: 'text', title: t('events.columns.text'), ellipsis: true },
    { key: 'sn', dataIndex: 'sn', title: t('events.columns.device'), width: 150, ellipsis: true },
    {
      key: 'start',
      title: withZone(t('events.columns.start'), timezone),
      width: 150,
      render: (_, e) => formatZoned(e.startedAt, timezone, i18n.language, { label: false }),
    },
    {
      key: 'end',
      title: withZone(t('events.columns.end'), timezone),
      width: 150,
      render: (_, e) =>
        e.endedAt ? (
          formatZoned(e.endedAt, timezone, i18n.language, { label: false })
        ) : (
          <Typography.Text type="warning">{t('events.ongoing')}</Typography.Text>
        ),
    },
  ];

  return (
    <Card
      size="small"
      data-testid="events-card"
      title={
        <Flex gap={8} align="center" wrap>
          <span>{t('events.title')}</span>
          {recent > 0 && (
            <Tag color="volcano" data-testid="events-last-hour">
              {t('events.lastHour', { count: recent })}
            </Tag>
          )}
        </Flex>
      }
      extra={
        <Flex gap={8} align="center" wrap justify="end">
          {mode === 'all' && (
            <DatePicker.RangePicker
              size="small"
              allowClear={false}
              value={[dayjs(range.start), dayjs(range.end)]}
              presets={allQuickRanges.map((kind) => {
                const r = quickRange(kind, dayDate(today));
                return { label: t(`plants:ranges.${kind}`), value: [dayjs(r.start), dayjs(r.end)] as [Dayjs, Dayjs] };
              })}
              disabledDate={(day) => day.format('YYYY-MM-DD') > today}
              onChange={(values) => {
                const [a, b] = values ?? [];
                if (a && b) {
                  setRange({ start: dayString(a.toDate()), end: dayString(b.toDate()) });
                  setPage(1);
                }
              }}
              status={problem ? 'error' : undefined}
              aria-label={t('events.range')}
              data-testid="events-range"
            />
          )}
          <Segmented
            size="small"
            value={mode}
            onChange={(v) => {
              setMode(v as 'open' | 'all');
              setPage(1);
            }}
            options={[
              { value: 'open', label: t('events.open') },
              { value: 'all', label: t('events.history') },
            ]}
            data-testid="events-mode"
          />
        </Flex>
      }
      styles={{ header: { flexWrap: 'wrap', gap: 8, paddingBlock: 8 } }}
    >
      {problem ? (
        <Alert
          type="error"
          showIcon
          title={t(`events.range_${problem}`, { max: limits.dateRangeDays })}
          data-testid="events-range-problem"
        />
      ) : events.isError && !events.data ? (
        <CardError error={events.error} onRetry={() => void events.refetch()} testId="events-error" />
      ) : (
        <ListTable
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={events.data?.list ?? []}
          loading={events.isPending || events.isFetching}
          locale={{ emptyText: mode === 'open' ? t('events.none') : t('events.noneInRange') }}
          pagination={{
            current: page,
            pageSize: 5,
            total: events.data?.total ?? 0,
            onChange: setPage,
            size: 'small',
            hideOnSinglePage: true,
            showSizeChanger: false,
          }}
          data-testid="events-table"
        />
      )}
    </Card>
  );
}
