/**
 * A device's setting jobs, newest first: when, who, group, state and what changed (a field read
 * back with another value marked). A finished job with values read before can be reverted (after
 * a confirmation), which writes them again as a new job shown below the table; the history
 * downloads as .xlsx in the interface language.
 */
import { DownloadOutlined, UndoOutlined } from '@ant-design/icons';
import { settingsApi } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useServerLanguage } from '../../api/hooks.ts';
import { downloadFile } from '../../components/download.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { PageEmpty, PageError } from '../../components/PageState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useLang, valueText } from './display.ts';
import { isFinalJob, type SettingJob } from './form.ts';
import { JobResult, JobStateTag } from './JobResult.tsx';
import { errorOf, SettingsError } from './SettingsError.tsx';
import styles from './settings.module.css';
import { useHistoryChanged, useJob, useJobHistory, useRevert } from './settingsQueries.ts';

const PAGE_SIZE = 10;

export function JobHistory({ sn, canWrite }: { sn: string; canWrite: boolean }) {
  const { t } = useTranslation('settings');
  const lang = useLang();
  const lan = useServerLanguage();
  const { modal, message } = App.useApp();
  const [page, setPage] = useState(1);
  const list = useJobHistory(sn, page, PAGE_SIZE);
  const revert = useRevert();
  const historyChanged = useHistoryChanged();
  const [reverted, setReverted] = useState<SettingJob | null>(null);
  const [revertError, setRevertError] = useState<{ code: number | null; message: string | null } | null>(null);
  const polled = useJob(reverted && !isFinalJob(reverted) ? reverted.id : null);
  const revertJob = polled.data ?? reverted;

  const askRevert = (job: SettingJob) =>
    modal.confirm({
      title: t('revert.title'),
      content: t('revert.text', {
        group: t(`groups.${job.group}`, { defaultValue: job.group }),
        at: formatDateTime(job.createdAt),
      }),
      okText: t('revert.ok'),
      cancelText: t('common:cancel'),
      okButtonProps: { 'data-testid': 'revert-ok' },
      onOk: async () => {
        setRevertError(null);
        try {
          const started = await revert.mutateAsync({ params: { id: job.id } });
          setReverted(started);
          historyChanged();
        } catch (err) {
          setRevertError(errorOf(err));
        }
      },
    });

  const download = async () => {
    try {
      await downloadFile(settingsApi.settingJobsDownload, { params: { sn }, query: { lan } }, `settings-${sn}.xlsx`);
    } catch (err) {
      if (err instanceof ApiError && !err.tolerated) return;
      message.error(t('downloadFailed'));
    }
  };

  const data = list.data;
  let table: React.ReactNode;
  if (list.isError && !data) table = <PageError error={list.error} onRetry={() => void list.refetch()} />;
  else if (data && data.total === 0) table = <PageEmpty description={t('history.empty')} />;
  else
    table = (
      <Table<SettingJob>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={data?.list ?? []}
        data-testid="setting-history"
        scroll={{ x: 900 }}
        onRow={(job) => ({ 'data-testid': `history-row-${job.id}` }) as object}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          {
            key: 'when',
            title: t('columns.when'),
            width: 170,
            render: (_, j) => <span className={styles.figures}>{formatDateTime(j.createdAt)}</span>,
          },
          { key: 'who', title: t('columns.who'), width: 200, render: (_, j) => j.requestedBy.account },
          {
            key: 'group',
            title: t('columns.group'),
            width: 150,
            render: (_, j) => (
              <>
                {t(`groups.${j.group}`, { defaultValue: j.group })}
                {j.kind === 'revert' && <Typography.Text type="secondary"> · {t('history.revert')}</Typography.Text>}
              </>
            ),
          },
          { key: 'state', title: t('columns.state'), width: 120, render: (_, j) => <JobStateTag state={j.state} /> },
          {
            key: 'changes',
            title: t('columns.differences'),
            render: (_, j) => <Differences job={j} lang={lang} />,
          },
          ...(canWrite
            ? [
                {
                  key: 'actions',
                  title: '',
                  width: 110,
                  render: (_: unknown, j: SettingJob) =>
                    isFinalJob(j) && j.state !== 'cancelled' && j.before !== null ? (
                      <Button size="small" icon={<UndoOutlined />} onClick={() => askRevert(j)} data-testid={`revert-${j.id}`}>
                        {t('revert.button')}
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
    );

  return (
    <Card
      title={t('history.title')}
      extra={
        <GuardedButton
          icon={<DownloadOutlined />}
          onClick={download}
          disabled={!data || data.total === 0}
          data-testid="history-download"
        >
          {t('history.download')}
        </GuardedButton>
      }
    >
      {table}
      {revertError && (
        <div className={styles.gapAbove}>
          <SettingsError {...revertError} />
        </div>
      )}
      {revertJob && (
        <div className={styles.gapAbove}>
          <Typography.Title level={5}>{t('revert.result')}</Typography.Title>
          <JobResult job={revertJob} />
        </div>
      )}
    </Card>
  );
}

/** "Max charge current: 50 A → 60 A" per changed field (its unit, an option's label); fields read back otherwise in red. */
function Differences({ job, lang }: { job: SettingJob; lang: 'en' | 'es' }) {
  const { t } = useTranslation('settings');
  if (job.changes.length === 0 && job.mismatches.length === 0)
    return <Typography.Text type="secondary">{job.error ?? t('history.noChange')}</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      {job.changes.map((d) => (
        <span key={`c-${d.key}`}>
          {d.name[lang]}: {valueText(d, d.from, lang)}
          <span className={styles.arrow}>→</span>
          {valueText(d, d.to, lang)}
        </span>
      ))}
      {job.mismatches.map((d) => (
        <span key={`m-${d.key}`} className={styles.mismatchText}>
          {d.name[lang]}: {t('history.asked', { value: valueText(d, d.from, lang) })}
          <span className={styles.arrow}>→</span>
          {t('history.readBack', { value: valueText(d, d.to, lang) })}
        </span>
      ))}
    </Flex>
  );
}
