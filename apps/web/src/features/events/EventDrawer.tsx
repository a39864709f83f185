/**
 * One event: level, code, text and suggested action (in the interface language), device, plant,
 * start, end and duration, and its acknowledgement. Acknowledging (with an optional note) is
 * offered only when the server says this caller may (`canAck`: operates the plant, not yet
 * acknowledged); someone else's acknowledgement meanwhile (207) is reported and shown.
 */
import { CheckCircleFilled, LineChartOutlined } from '@ant-design/icons';
import { ErrorCode, eventsApi } from '@sunfleet/contracts';
import { Alert, App, Button, Descriptions, Drawer, Flex, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import { useGranted } from '../../components/Permission.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { dayString } from '../../lib/dateRange.ts';
import { levelStyle } from '../../lib/statusColours.ts';
import { formatZoned } from '../../lib/zonedTime.ts';
import { formatDuration } from './criteria.ts';
import { type EventRow, useAckEvent, useEventDetail, useRefreshEvents } from './eventQueries.ts';

/** `timezone`: the zone the list reads its times in; the drawer's times say it. */
export function EventDrawer({ row, onClose, timezone }: { row: EventRow | null; onClose: () => void; timezone: string }) {
  return (
    <Drawer open={row !== null} onClose={onClose} size={520} destroyOnHidden title={row?.text ?? ''} data-testid="event-drawer">
      {row && <EventDetail key={row.id} row={row} timezone={timezone} />}
    </Drawer>
  );
}

function EventDetail({ row, timezone }: { row: EventRow; timezone: string }) {
  const { t, i18n } = useTranslation('events');
  const time = (iso: string | null) => formatZoned(iso, timezone, i18n.language, { seconds: true });
  const navigate = useNavigate();
  const granted = useGranted();
  const detail = useEventDetail(row.id, row);
  const e = detail.data;

  if (detail.isError && !e) {
    const missing = detail.error instanceof ApiError && detail.error.code === ErrorCode.notFound;
    return missing ? (
      <Alert type="warning" showIcon title={t('drawer.missing')} data-testid="event-missing" />
    ) : (
      <PageError error={detail.error} onRetry={() => void detail.refetch()} />
    );
  }
  if (!e) return <PageLoading />;

  const kindLabel = e.kind ? t(`kinds.${e.kind}`) : null;
  const workdataKind = e.kind && e.kind !== 'gateway';
  const items = [
    {
      key: 'level',
      label: t('drawer.level'),
      children: <Tag color={levelStyle[e.level].tag}>{t(`level.${e.level}`)}</Tag>,
    },
    { key: 'code', label: t('drawer.code'), children: <Typography.Text code>{e.code}</Typography.Text> },
    { key: 'text', label: t('drawer.text'), children: <span data-testid="event-text">{e.text}</span> },
    {
      key: 'action',
      label: t('drawer.action'),
      children: e.action ? (
        <span data-testid="event-action" className={ui.preLine}>
          {e.action}
        </span>
      ) : (
        <Typography.Text type="secondary">{t('drawer.noAction')}</Typography.Text>
      ),
    },
    {
      key: 'device',
      label: t('drawer.device'),
      children: (
        <Flex vertical>
          <Typography.Text className={ui.mono} copyable>
            {e.sn}
          </Typography.Text>
          {(kindLabel || e.alias) && (
            <Typography.Text type="secondary">{[kindLabel, e.alias].filter(Boolean).join(' · ')}</Typography.Text>
          )}
        </Flex>
      ),
    },
    ...(e.pack !== null
      ? [
          {
            key: 'pack',
            label: t('drawer.pack'),
            children: e.pack === 1 ? t('drawer.packMaster', { pack: e.pack }) : String(e.pack),
          },
        ]
      : []),
    { key: 'plant', label: t('drawer.plant'), children: e.plantName ?? '--' },
    { key: 'source', label: t('drawer.source'), children: e.source || '--' },
    { key: 'start', label: t('drawer.start'), children: <span data-testid="event-start">{time(e.startedAt)}</span> },
    {
      key: 'end',
      label: t('drawer.end'),
      children: e.endedAt ? (
        <span data-testid="event-end">{time(e.endedAt)}</span>
      ) : (
        <Tag color="orange" data-testid="event-end">
          {t('ongoing')}
        </Tag>
      ),
    },
    { key: 'duration', label: t('drawer.duration'), children: formatDuration(e.startedAt, e.endedAt) },
  ];

  return (
    <Flex vertical gap={16} data-testid="event-detail">
      <Descriptions column={1} bordered size="small" items={items} styles={{ label: { width: 150 } }} />
      <Acknowledgement event={e} timezone={timezone} />
      {workdataKind && granted('workdata.view') && (
        <Button
          icon={<LineChartOutlined />}
          className={ui.alignStart}
          onClick={() => {
            const day = dayString(new Date(e.startedAt));
            navigate(`/workdata/list?${new URLSearchParams({ sn: e.sn, start: day, end: day })}`);
          }}
          data-testid="event-workdata"
        >
          {t('drawer.workdata')}
        </Button>
      )}
    </Flex>
  );
}

function Acknowledgement({ event, timezone }: { event: EventRow; timezone: string }) {
  const { t, i18n } = useTranslation('events');
  const { message } = App.useApp();
  const ack = useAckEvent();
  const refresh = useRefreshEvents();
  const [note, setNote] = useState('');

  if (event.acknowledged) {
    return (
      <Alert
        type="success"
        showIcon
        icon={<CheckCircleFilled />}
        data-testid="event-ack-info"
        title={`${t('drawer.ackBy')}: ${event.ackBy ?? '--'}`}
        description={
          <Flex vertical>
            <span>
              {t('drawer.ackAt')}: {formatZoned(event.ackAt, timezone, i18n.language, { seconds: true })}
            </span>
            {event.ackNote && (
              <span>
                {t('drawer.ackNote')}: {event.ackNote}
              </span>
            )}
          </Flex>
        }
      />
    );
  }
  if (!event.canAck) {
    return (
      <Typography.Text type="secondary" data-testid="event-cannot-ack">
        {t('drawer.notAcked')} · {t('drawer.cannotAck')}
      </Typography.Text>
    );
  }

  const submit = async () => {
    const text = note.trim();
    try {
      const updated = await ack.mutateAsync({ params: { id: event.id }, body: text ? { note: text } : {} });
      message.success(t('drawer.acked'));
      await refresh(updated);
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.already) {
        message.info(t('drawer.alreadyAcked'));
        await refresh();
      }
      // Other refusals were toasted by the client.
    }
  };

  return (
    <Flex vertical gap={8} data-testid="event-ack-form">
      <Typography.Text strong>{t('drawer.notAcked')}</Typography.Text>
      <SafeInput
        value={note}
        onChange={setNote}
        maxLength={eventsApi.ACK_NOTE_MAX}
        placeholder={t('drawer.notePlaceholder')}
        aria-label={t('drawer.note')}
        data-testid="event-ack-note"
      />
      <GuardedButton
        type="primary"
        icon={<CheckCircleFilled />}
        onClick={submit}
        className={ui.alignStart}
        data-testid="event-ack"
      >
        {t('drawer.ack')}
      </GuardedButton>
    </Flex>
  );
}
