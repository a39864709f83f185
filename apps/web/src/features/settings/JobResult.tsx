/**
 * A setting job as it stands: its state while it runs (reading the values before, writing,
 * reading back), then the result: each requested field with the value before, the value asked
 * and the value read back, a field read back with another value highlighted, and the failure.
 */
import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Flex, Steps, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';
import { useLang, valueText } from './display.ts';
import { isFinalJob, type ResultRow, resultRows, type SettingField, type SettingJob } from './form.ts';
import { SettingsError } from './SettingsError.tsx';
import styles from './settings.module.css';

const STEPS = ['reading', 'writing', 'verifying'] as const;

export function JobStateTag({ state }: { state: SettingJob['state'] }) {
  const { t } = useTranslation('settings');
  const color =
    state === 'succeeded' ? 'success' : state === 'failed' ? 'error' : state === 'cancelled' ? 'default' : 'processing';
  return (
    <Tag color={color} data-testid="job-state" data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

export function JobResult({ job, fields = [] }: { job: SettingJob; fields?: readonly SettingField[] }) {
  const { t } = useTranslation('settings');
  const lang = useLang();
  // The fields' units and options: from the group read, else from the job's differences.
  const byKey = new Map<string, Pick<SettingField, 'unit' | 'enumeration'>>([
    ...[...job.changes, ...job.mismatches].map((d) => [d.key, d] as const),
    ...fields.map((f) => [f.key, f] as const),
  ]);
  const final = isFinalJob(job);
  const current = STEPS.indexOf(job.state as (typeof STEPS)[number]);
  const rows = resultRows(job, fields);

  return (
    <div data-testid="setting-result" data-state={job.state}>
      <Flex align="center" gap={8} wrap className={styles.toolbar}>
        {job.state === 'succeeded' && <CheckCircleFilled className={styles.okIcon} aria-hidden />}
        {job.state === 'failed' && <CloseCircleFilled className={styles.badIcon} aria-hidden />}
        {job.state === 'cancelled' && <StopOutlined aria-hidden />}
        <Typography.Text strong>{final ? t(`result.${job.state}`) : t('result.running')}</Typography.Text>
        <JobStateTag state={job.state} />
        <Typography.Text type="secondary">
          {job.requestedBy.account} · {formatDateTime(job.finishedAt ?? job.createdAt)}
        </Typography.Text>
      </Flex>
      {!final && (
        <Steps
          size="small"
          className={styles.toolbar}
          current={job.state === 'queued' ? 0 : Math.max(current, 0)}
          items={STEPS.map((s, i) => ({
            title: t(`state.${s}`),
            ...(i === current ? { icon: <LoadingOutlined /> } : {}),
          }))}
          data-testid="job-steps"
        />
      )}
      {job.state === 'failed' && (
        <div className={styles.toolbar}>
          {job.mismatches.length > 0 ? (
            <Alert
              type="error"
              showIcon
              title={t('errors.mismatch')}
              description={job.mismatches.map((m) => m.name[lang]).join(', ')}
              data-testid="settings-error-mismatch"
            />
          ) : (
            <SettingsError code={job.errorCode} message={job.error} />
          )}
        </div>
      )}
      <Table<ResultRow>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={rows}
        rowClassName={(r) => (r.mismatch ? styles.mismatch! : '')}
        onRow={(r) => ({ 'data-testid': `result-row-${r.key}`, 'data-mismatch': r.mismatch }) as object}
        columns={[
          { key: 'field', title: t('columns.field'), render: (_, r) => r.name?.[lang] ?? r.key },
          { key: 'before', title: t('columns.before'), render: (_, r) => valueText(byKey.get(r.key), r.before, lang) },
          { key: 'requested', title: t('columns.requested'), render: (_, r) => valueText(byKey.get(r.key), r.requested, lang) },
          {
            key: 'after',
            title: t('columns.after'),
            render: (_, r) => (
              <span className={r.mismatch ? styles.mismatchText : undefined} data-testid={`result-after-${r.key}`}>
                {final || job.after ? valueText(byKey.get(r.key), r.after, lang) : '…'}
                {r.mismatch && ` · ${t('mismatch')}`}
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}
