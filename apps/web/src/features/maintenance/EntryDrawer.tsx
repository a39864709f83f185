/**
 * One maintenance entry: what was done to which device, by whom, how it ended, what was asked and
 * what came back (the entry's detail), and the steps of its command job. Read from the server
 * when opened (the list row shows meanwhile); an entry gone since answers 404 and says so.
 */
import { ErrorCode, loggersApi } from '@sunfleet/contracts';
import { Descriptions, Drawer, Empty, Skeleton, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { PageError } from '../../components/PageState.tsx';
import ui from '../../components/ui.module.css';
import { formatZoned } from '../../lib/zonedTime.ts';
import { resultColour } from './kinds.ts';
import type { LogEntry } from './LogTable.tsx';
import styles from './maintenance.module.css';

const shown = (v: unknown) =>
  v === null || v === undefined || v === '' ? '--' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function EntryDrawer({ row, onClose, timezone }: { row: LogEntry | null; onClose: () => void; timezone: string }) {
  const { t, i18n } = useTranslation('maintenance');
  const content = useApiQuery(
    loggersApi.logContent,
    { query: { id: row?.id ?? 0 }, tolerate: [ErrorCode.notFound] },
    { enabled: row !== null },
  );
  const time = (iso: string | null) => formatZoned(iso, timezone, i18n.language, { seconds: true });
  const gone = content.error instanceof ApiError && content.error.code === ErrorCode.notFound;
  const entry = content.data ?? row;
  const detail = entry ? Object.entries(entry.detail) : [];

  return (
    <Drawer open={row !== null} onClose={onClose} title={t('drawer.title')} size="large" data-testid="log-drawer" destroyOnHidden>
      {!entry ? null : gone ? (
        <Empty description={t('drawer.gone')} data-testid="log-drawer-gone" />
      ) : (
        <>
          <Descriptions column={1} size="small" bordered className={ui.gapBelow}>
            <Descriptions.Item label={t('columns.kind')}>{t(`kinds.${entry.kind}`)}</Descriptions.Item>
            <Descriptions.Item label={t('columns.result')}>
              <Tag color={resultColour[entry.result]} data-testid="log-drawer-result">
                {t(`results.${entry.result}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('columns.device')}>
              <span className={ui.mono}>{entry.sn}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('drawer.gateway')}>
              <span className={ui.mono}>{entry.gatewaySn ?? '--'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('columns.plant')}>{entry.plantName ?? '--'}</Descriptions.Item>
            <Descriptions.Item label={t('columns.user')}>{entry.user || '--'}</Descriptions.Item>
            <Descriptions.Item label={t('drawer.started')}>{time(entry.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('drawer.finished')}>{time(entry.finishedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('drawer.job')}>
              <span className={ui.mono}>{entry.jobId ?? '--'}</span>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('drawer.detail')}</Typography.Title>
          {detail.length === 0 ? (
            <Typography.Paragraph type="secondary">{t('drawer.noDetail')}</Typography.Paragraph>
          ) : (
            <Descriptions column={1} size="small" bordered className={ui.gapBelow} data-testid="log-drawer-detail">
              {detail.map(([key, value]) => (
                <Descriptions.Item key={key} label={t(`detail.${key}`, { defaultValue: key })}>
                  <Typography.Text className={`${ui.mono} ${styles.value}`}>{shown(value)}</Typography.Text>
                </Descriptions.Item>
              ))}
            </Descriptions>
          )}
          <Typography.Title level={5}>{t('drawer.steps')}</Typography.Title>
          {content.isPending ? (
            <Skeleton active />
          ) : content.isError ? (
            <PageError error={content.error} onRetry={() => void content.refetch()} />
          ) : content.data.steps.length === 0 ? (
            <Typography.Paragraph type="secondary">{t('drawer.noSteps')}</Typography.Paragraph>
          ) : (
            <Timeline
              data-testid="log-drawer-steps"
              items={content.data.steps.map((s, i) => ({
                key: i,
                children: (
                  <>
                    <Typography.Text strong>{t(`steps.${s.state}`, { defaultValue: s.state })}</Typography.Text>{' '}
                    <Typography.Text type="secondary" className={ui.figures}>
                      {time(s.at)}
                    </Typography.Text>
                    {s.detail && <div className={ui.note}>{s.detail}</div>}
                  </>
                ),
              }))}
            />
          )}
        </>
      )}
    </Drawer>
  );
}
