import type { DataOf, eventsApi } from '@sunfleet/contracts';
import { Badge, Card, Flex, Select, Skeleton, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardError } from '../../../components/CardState.tsx';
import { EventText } from '../../../components/EventText.tsx';
import { ListTable, listPagination } from '../../../components/ListTable.tsx';
import { useGranted } from '../../../components/Permission.tsx';
import { usePalette } from '../../../components/palette.ts';
import { RangeField, RangeProblem } from '../../../components/RangeField.tsx';
import ui from '../../../components/ui.module.css';
import { todayIn } from '../../../lib/dateNav.ts';
import { type DateRange, dayDate, quickRange, rangeProblem } from '../../../lib/dateRange.ts';
import { type EventStateName, type Level, levels } from '../../../lib/events.ts';
import { levelStyle } from '../../../lib/statusColours.ts';
import { formatZoned, withZone } from '../../../lib/zonedTime.ts';
import { useDeviceEvents, useDeviceOpenEvents } from './deviceQueries.ts';
import styles from './devices.module.css';

export type DeviceEventRow = DataOf<typeof eventsApi.deviceEvents>['list'][number];

/** Open events are asked for again this often. */
const PAGE_SIZES = [10, 20, 50] as const;

/** The card, only for an account granted the events page. */
export function DeviceEventsCard({ sn, timezone }: { sn: string; timezone: string }) {
  const granted = useGranted();
  if (!granted('event.view')) return null;
  return <DeviceEvents sn={sn} timezone={timezone} />;
}

function useColumns(timezone: string, withEnd: boolean): TableColumnsType<DeviceEventRow> {
  const { t, i18n } = useTranslation('devices');
  const columns: TableColumnsType<DeviceEventRow> = [
    {
      key: 'level',
      title: t('events.columns.level'),
      width: 96,
      render: (_, e) => (
        <Tag color={levelStyle[e.level].tag} data-testid={`device-event-level-${e.id}`}>
          {t(`events.level.${e.level}`)}
        </Tag>
      ),
    },
    {
      key: 'text',
      title: t('events.columns.text'),
      render: (_, e) => (
        <EventText
          text={e.text}
          code={e.code}
          action={e.action}
          actionLabel={t('events.action')}
          testId={`device-event-text-${e.id}`}
          after={
            e.pack !== null && (
              <Typography.Text type="secondary" className={ui.gapBefore}>
                {t('events.pack', { pack: e.pack })}
              </Typography.Text>
            )
          }
        />
      ),
    },
    {
      key: 'start',
      title: withZone(t('events.columns.start'), timezone),
      width: 200,
      render: (_, e) => <span className={ui.figures}>{formatZoned(e.startedAt, timezone, i18n.language, { label: false })}</span>,
    },
  ];
  if (withEnd)
    columns.push({
      key: 'end',
      title: withZone(t('events.columns.end'), timezone),
      width: 200,
      render: (_, e) =>
        e.endedAt ? (
          <span className={ui.figures}>{formatZoned(e.endedAt, timezone, i18n.language, { label: false })}</span>
        ) : (
          <Tag color="orange">{t('events.ongoing')}</Tag>
        ),
    });
  return columns;
}

function DeviceEvents({ sn, timezone }: { sn: string; timezone: string }) {
  const { t } = useTranslation('devices');
  const [level, setLevel] = useState<Level | undefined>();
  const { meaning } = usePalette();
  const [state, setState] = useState<EventStateName | undefined>();
  // The quick ranges end on the plant's today, the day the server reads the dates in.
  const [today] = useState(() => todayIn(timezone));
  const [range, setRange] = useState<DateRange>(() => quickRange('last7', dayDate(today)));
  const [page, setPage] = useState(1);
  const [size, setSize] = useState<number>(PAGE_SIZES[0]);
  const blocked = rangeProblem(range) !== null;

  const open = useDeviceOpenEvents(sn);
  const history = useDeviceEvents(
    sn,
    { page, size, startDate: range.start, endDate: range.end, ...(level ? { level } : {}), ...(state ? { state } : {}) },
    !blocked,
  );
  const openColumns = useColumns(timezone, false);
  const historyColumns = useColumns(timezone, true);

  const filter = (change: () => void) => {
    change();
    setPage(1);
  };
  const openCount = open.data?.length ?? 0;

  return (
    <Card
      size="small"
      title={t('events.title')}
      extra={
        <Link to={`/device/event?sn=${encodeURIComponent(sn)}`} data-testid="device-events-all">
          {t('events.all')}
        </Link>
      }
      data-testid="device-events"
    >
      <Flex vertical gap={16}>
        <Flex vertical gap={8} data-testid="device-events-open">
          <Flex gap={8} align="center">
            <Typography.Text strong>{t('events.open')}</Typography.Text>
            {open.data && (
              <Badge
                count={openCount}
                showZero
                color={openCount ? meaning.bad : meaning.good}
                data-testid="device-events-open-count"
              />
            )}
          </Flex>
          {open.isPending ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : open.isError && !open.data ? (
            <CardError error={open.error} onRetry={() => void open.refetch()} testId="device-events-open-error" />
          ) : (
            <ListTable<DeviceEventRow>
              size="small"
              rowKey="id"
              pagination={false}
              columns={openColumns}
              dataSource={open.data}
              locale={{ emptyText: t('events.noOpen') }}
              data-testid="device-events-open-table"
            />
          )}
        </Flex>

        <Flex vertical gap={8} data-testid="device-events-history">
          <Typography.Text strong>{t('events.history')}</Typography.Text>
          <Flex gap={8} wrap align="center">
            <Select<Level | 'all'>
              value={level ?? 'all'}
              onChange={(v) => filter(() => setLevel(v === 'all' ? undefined : v))}
              options={[
                { value: 'all', label: t('events.allLevels') },
                ...levels.map((l) => ({ value: l, label: t(`events.level.${l}`) })),
              ]}
              aria-label={t('events.columns.level')}
              className={styles.eventFilter}
              data-testid="device-events-level"
            />
            <Select<EventStateName | 'all'>
              value={state ?? 'all'}
              onChange={(v) => filter(() => setState(v === 'all' ? undefined : v))}
              options={[
                { value: 'all', label: t('events.allStates') },
                { value: 'open', label: t('events.state.open') },
                { value: 'closed', label: t('events.state.closed') },
              ]}
              aria-label={t('events.stateLabel')}
              className={styles.eventFilter}
              data-testid="device-events-state"
            />
            <RangeField
              range={range}
              onChange={(r) => filter(() => setRange(r))}
              label={t('events.range')}
              today={today}
              testId="device-events-range"
            />
          </Flex>
          <RangeProblem range={range} ns="events" testId="device-events-range-problem" />
          {history.isError && !history.data ? (
            <CardError error={history.error} onRetry={() => void history.refetch()} testId="device-events-error" />
          ) : (
            <ListTable<DeviceEventRow>
              size="small"
              rowKey="id"
              columns={historyColumns}
              dataSource={blocked ? [] : (history.data?.list ?? [])}
              loading={!blocked && (history.isPending || history.isFetching)}
              locale={{ emptyText: t('events.noHistory') }}
              data-testid="device-events-table"
              pagination={listPagination({
                page,
                size,
                total: blocked ? 0 : (history.data?.total ?? 0),
                sizes: PAGE_SIZES,
                small: true,
                totalText: (n) => t('events.total', { count: n }),
                onPage: (p, s) => {
                  setSize(s);
                  setPage(p);
                },
              })}
            />
          )}
        </Flex>
      </Flex>
    </Card>
  );
}
