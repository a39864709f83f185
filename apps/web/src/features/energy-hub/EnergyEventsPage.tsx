/**
 * /energyHub/event (energyhub.view): the events of the caller's programmes with their state now
 * (filter by state), times in the zone of the caller's enrolled plant (named); a drawer with the
 * intervals and, per device, each command sent (values, the values before, the device's answer,
 * the power delivered) and the report owed to the utility; opting out of an event that has not
 * ended, after a confirmation. An event the portal does not act on says so ("Not for this
 * portal", with the reason) and cannot be opted out of; one that ended early says why.
 */
import { demandResponseApi as api } from '@sunfleet/contracts';
import { Button, Card, Descriptions, Drawer, Empty, Flex, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../components/ListTable.tsx';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { EventReportSection, EventStateNotes, IgnoredNotice } from './EventNotes.tsx';
import css from './energyHub.module.css';
import { type EventDetail, type EventRow, useEvent, useEvents, useOptOut, useRefresh } from './queries.ts';

const values = (v: Record<string, number> | null) =>
  v
    ? Object.entries(v)
        .map(([k, x]) => `${k} ${x}`)
        .join(', ')
    : '--';
const num = (v: number | null) => (v === null ? '--' : String(v));

function EventDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('energyHub');
  const detail = useEvent(id);
  const optOut = useOptOut();
  const refresh = useRefresh();
  const may = useMayCall();
  const e = detail.data;
  type Dispatch = EventDetail['dispatches'][number];
  const columns = [
    { title: t('events.device'), dataIndex: 'sn', key: 'sn', width: 130 },
    {
      title: t('events.interval'),
      dataIndex: 'intervalId',
      key: 'interval',
      width: 70,
      render: (v: number) => (v < 0 ? '—' : v),
    },
    {
      title: t('events.actionColumn'),
      key: 'action',
      width: 100,
      render: (_: unknown, d: Dispatch) => t(`events.action.${d.action}`),
    },
    {
      title: t('events.target'),
      key: 'target',
      width: 90,
      // A restore writes back the settings read before: it has no power of its own.
      render: (_: unknown, d: Dispatch) => (d.action === 'restore' ? '—' : d.targetPower),
    },
    {
      title: t('events.result'),
      key: 'state',
      width: 100,
      render: (_: unknown, d: Dispatch) => (
        <Tag color={d.state === 'succeeded' ? 'green' : d.state === 'failed' ? 'red' : 'default'}>
          {t(`events.dispatchState.${d.state}`)}
        </Tag>
      ),
    },
    { title: t('events.sent'), key: 'sent', width: 200, render: (_: unknown, d: Dispatch) => values(d.sent) },
    {
      title: t('events.previous'),
      key: 'previous',
      width: 200,
      // The group was read whole; what matters is what the event changed.
      render: (_: unknown, d: Dispatch) =>
        values(d.previous && d.sent ? Object.fromEntries(Object.entries(d.previous).filter(([k]) => k in d.sent!)) : null),
    },
    { title: t('events.delivered'), key: 'delivered', width: 100, render: (_: unknown, d: Dispatch) => num(d.deliveredPower) },
    { title: t('events.reason'), dataIndex: 'reason', key: 'reason', width: 200, render: (v: string | null) => v ?? '' },
  ];
  return (
    <Drawer open={id !== null} onClose={onClose} width={960} title={e?.name ?? e?.vtnEventId ?? ''} destroyOnHidden>
      {detail.isPending && id !== null && <PageLoading />}
      {detail.isError && <PageError error={detail.error} onRetry={() => void detail.refetch()} />}
      {e && (
        <Space direction="vertical" size="large" className={css.fullWidth} data-testid="dr-event-detail">
          <Descriptions column={{ xs: 1, sm: 2 }} size="small" bordered>
            <Descriptions.Item label={t('events.programme')}>{e.programName ?? e.programId}</Descriptions.Item>
            <Descriptions.Item label={t('events.filterState')}>
              <EventStateNotes event={e} full testId="dr-event-state" />
            </Descriptions.Item>
            <Descriptions.Item label={t('events.start')}>{e.localStart ?? '--'}</Descriptions.Item>
            <Descriptions.Item label={t('events.end')}>{e.localEnd ?? '--'}</Descriptions.Item>
            <Descriptions.Item label={t('events.level')}>{num(e.participationLevel)}</Descriptions.Item>
            <Descriptions.Item label={t('events.power')}>{num(e.powerDischarge)}</Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary">{t('events.zone', { zone: e.timezone })}</Typography.Text>
          {e.ignoredReason !== null && <IgnoredNotice reason={e.ignoredReason} />}
          <Typography.Title level={5}>{t('events.dispatches')}</Typography.Title>
          {e.dispatches.length === 0 ? (
            <Empty description={t('events.noDispatches')} />
          ) : (
            <Table<Dispatch>
              size="small"
              rowKey={(d) => `${d.sn}-${d.intervalId}-${d.action}-${d.start}`}
              pagination={false}
              scroll={{ x: 1200 }}
              columns={columns}
              dataSource={e.dispatches}
              data-testid="dr-dispatches"
            />
          )}
          <EventReportSection event={e} />
          {(e.state === 'active' || e.state === 'pending') && e.ignoredReason === null && may(api.cancelEvent) && (
            <Popconfirm
              title={t('events.cancelConfirm')}
              onConfirm={async () => {
                await optOut.mutateAsync({ params: { id: e.id } });
                await refresh();
              }}
            >
              <Button danger data-testid="dr-opt-out">
                {t('events.cancel')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </Drawer>
  );
}

export default function EnergyEventsPage() {
  const { t } = useTranslation('energyHub');
  const [state, setState] = useState<EventRow['state'] | undefined>(undefined);
  const [page, setPage] = useState({ page: 1, size: 10 });
  const list = useEvents(page.page, page.size, state);
  const [open, setOpen] = useState<number | null>(null);
  const columns = useMemo(
    () => [
      {
        title: t('events.name'),
        key: 'name',
        width: 180,
        render: (_: unknown, r: EventRow) => (
          <Button type="link" onClick={() => setOpen(r.id)} data-testid={`dr-event-${r.id}`}>
            {r.name ?? r.vtnEventId}
          </Button>
        ),
      },
      {
        title: t('events.programme'),
        key: 'programme',
        width: 160,
        render: (_: unknown, r: EventRow) => r.programName ?? r.programId,
      },
      {
        title: t('events.filterState'),
        key: 'state',
        width: 170,
        // The reason an event ended early wraps under its state rather than being cut.
        ellipsis: false,
        render: (_: unknown, r: EventRow) => <EventStateNotes event={r} />,
      },
      { title: t('events.level'), key: 'level', width: 110, render: (_: unknown, r: EventRow) => num(r.participationLevel) },
      { title: t('events.power'), key: 'power', width: 110, render: (_: unknown, r: EventRow) => num(r.powerDischarge) },
      { title: t('events.start'), key: 'start', width: 170, render: (_: unknown, r: EventRow) => r.localStart ?? '--' },
      { title: t('events.end'), key: 'end', width: 170, render: (_: unknown, r: EventRow) => r.localEnd ?? '--' },
      { title: t('events.duration'), key: 'duration', width: 110, render: (_: unknown, r: EventRow) => num(r.durationMinutes) },
    ],
    [t],
  );
  const zone = list.data?.list[0]?.timezone;
  return (
    <Card data-testid="energy-events-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('events.title')}</PageTitle>
        <Select
          aria-label={t('events.filterState')}
          className={css.stateFilter}
          value={state ?? 'all'}
          onChange={(v: string) => {
            setState(v === 'all' ? undefined : (v as EventRow['state']));
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={[
            { value: 'all', label: t('events.all') },
            ...api.EVENT_STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
          ]}
          data-testid="dr-event-state-filter"
        />
      </Flex>
      {zone && <Typography.Paragraph type="secondary">{t('events.zone', { zone })}</Typography.Paragraph>}
      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<EventRow>
          aria-label={t('events.title')}
          fill
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending}
          locale={{ emptyText: t('events.empty') }}
          pagination={{
            current: page.page,
            pageSize: page.size,
            total: list.data?.total ?? 0,
            onChange: (p, size) => setPage({ page: size !== page.size ? 1 : p, size }),
          }}
        />
      )}
      <EventDrawer id={open} onClose={() => setOpen(null)} />
    </Card>
  );
}
