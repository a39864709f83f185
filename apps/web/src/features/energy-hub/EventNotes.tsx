/**
 * What an event's state does not say on its own: an event the portal does not act on ("Not for
 * this portal", with the reason) and one that ended before its window (the reason beside its
 * cancelled state); and, in the detail, the report the portal owes the utility for the event.
 */
import { Alert, Descriptions, Flex, Tag, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatZoned } from '../../lib/zonedTime.ts';
import { stateColour } from './EnrollmentPlanPage.tsx';
import css from './energyHub.module.css';
import type { EventDetail, EventRow } from './queries.ts';
import { reasonText } from './reasons.ts';

/** The state tag, with "Not for this portal" (its reason as a tooltip, or written out) and why it ended early. */
export function EventStateNotes({ event, full = false, testId }: { event: EventRow; full?: boolean; testId?: string }) {
  const { t } = useTranslation('energyHub');
  const ignored = event.ignoredReason === null ? null : reasonText(event.ignoredReason, t);
  const ignoredTag = ignored !== null && (
    <Tag color="default" data-testid="dr-event-ignored">
      {t('events.ignored')}
    </Tag>
  );
  return (
    <Flex vertical={!full} wrap gap={full ? 'small' : 4} align={full ? 'center' : 'flex-start'}>
      <Flex wrap gap={4}>
        <Tag color={stateColour[event.state]} data-testid={testId}>
          {t(`state.${event.state}`)}
        </Tag>
        {ignoredTag && (full ? ignoredTag : <Tooltip title={ignored}>{ignoredTag}</Tooltip>)}
      </Flex>
      {event.optedOut && <Typography.Text type="secondary">{t('events.optedOut')}</Typography.Text>}
      {event.endedReason !== null && (
        <Typography.Text type="secondary" className={css.breakWords} data-testid="dr-event-ended">
          {reasonText(event.endedReason, t)}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** Why the portal does not act on the event, written out (the detail). */
export function IgnoredNotice({ reason }: { reason: string }) {
  const { t } = useTranslation('energyHub');
  return (
    <Alert
      type="info"
      showIcon
      title={t('events.ignoredDetail')}
      description={<span className={css.breakWords}>{reasonText(reason, t)}</span>}
      data-testid="dr-event-ignored-detail"
    />
  );
}

const reportColour = { waiting: 'processing', sent: 'success', 'given-up': 'error' } as const;

/** The report owed to the utility: its state, attempts, when it was made and sent or given up, the last error. */
export function EventReportSection({ event }: { event: EventDetail }) {
  const { t, i18n } = useTranslation('energyHub');
  const r = event.report;
  const when = (at: string | null) => formatZoned(at, event.timezone, i18n.language, { seconds: true });
  let body: ReactNode;
  if (r === null) {
    const running = event.ignoredReason === null && (event.state === 'active' || event.state === 'pending');
    body = <Typography.Text type="secondary">{t(running ? 'events.report.later' : 'events.report.none')}</Typography.Text>;
  } else {
    body = (
      <Flex vertical gap="middle">
        <Descriptions column={{ xs: 1, sm: 2 }} size="small" bordered>
          <Descriptions.Item label={t('events.report.state')}>
            <Tag color={reportColour[r.state]} data-testid="dr-report-state">
              {t(`events.report.${r.state}`)}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('events.report.attempts')}>
            <span data-testid="dr-report-attempts">{r.attempts}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('events.report.madeAt')}>{when(r.madeAt)}</Descriptions.Item>
          {r.state !== 'waiting' && (
            <Descriptions.Item label={t(r.state === 'sent' ? 'events.report.sentAt' : 'events.report.givenUpAt')}>
              {when(r.at)}
            </Descriptions.Item>
          )}
        </Descriptions>
        {r.state === 'waiting' && r.lastError !== null && (
          <Alert
            type="warning"
            showIcon
            title={t('events.report.lastError')}
            description={
              <Flex vertical gap={4}>
                <span className={css.breakWords}>{r.lastError}</span>
                <span>{t('events.report.retrying')}</span>
              </Flex>
            }
            data-testid="dr-report-error"
          />
        )}
        {r.state === 'given-up' && (
          <Alert
            type="error"
            showIcon
            title={t('events.report.givenUp')}
            description={
              r.lastError === null ? undefined : (
                <span className={css.breakWords}>{`${t('events.report.lastError')}: ${r.lastError}`}</span>
              )
            }
            data-testid="dr-report-error"
          />
        )}
      </Flex>
    );
  }
  return (
    <section aria-label={t('events.report.title')} data-testid="dr-report">
      <Typography.Title level={5}>{t('events.report.title')}</Typography.Title>
      {body}
    </section>
  );
}
