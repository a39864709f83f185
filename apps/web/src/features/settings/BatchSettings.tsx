/**
 * One group's values to several inverters at once (from the inverter list's selection). The groups
 * offered are those every selected inverter supports, also across families that share a group (the
 * server checks each inverter's values against its own family's fields); the form is built from
 * the group as the first inverter holds it. Confirming starts the batch; its
 * progress is then followed (asked every second) with a result per inverter, and what has not
 * been sent can be cancelled. The server refuses the whole batch when one inverter may not be
 * operated or does not support the group: nothing is sent then.
 */
import { settingsApi } from '@sunfleet/contracts';
import { Button, Card, Flex, List, Progress, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageState.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import { commonGroups, errorKind, type SettingBatch, type SettingJob } from './form.ts';
import { GroupForm } from './GroupForm.tsx';
import { JobStateTag } from './JobResult.tsx';
import { errorOf, SettingsError } from './SettingsError.tsx';
import styles from './settings.module.css';
import { useBatch, useCancelBatch, useGroupRead, useStartBatch, useSupports } from './settingsQueries.ts';

export function BatchSettings({ sns }: { sns: string[] }) {
  const { t } = useTranslation('settings');
  const { supports, pending, error } = useSupports(sns);
  const mayCall = useMayCall();
  const [group, setGroup] = useState<string | undefined>(undefined);
  const [batchId, setBatchId] = useState<string | null>(null);

  if (pending) return <PageLoading />;
  if (error || !supports) return <SettingsError {...errorOf(error)} />;
  const common = commonGroups(supports);
  const chosen = group ?? common.groups[0];
  const canWrite = mayCall(settingsApi.settingBatch);

  return (
    <Flex vertical gap={16} data-testid="batch-settings">
      <Card size="small" title={t('batch.devices', { count: sns.length })}>
        <Typography.Paragraph className={styles.snList} data-testid="batch-sns">
          {sns.join(', ')}
        </Typography.Paragraph>
      </Card>
      {!canWrite ? (
        <SettingsError code={2} />
      ) : common.family === null || common.groups.length === 0 ? (
        <SettingsError
          code={601}
          hint={common.families.length > 1 ? t('batch.mixed', { families: common.families.join(', ') }) : null}
        />
      ) : batchId ? (
        <BatchProgress id={batchId} onDone={() => setBatchId(null)} />
      ) : (
        <Card
          title={t('batch.group')}
          extra={
            <Select<string>
              value={chosen}
              onChange={setGroup}
              options={common.groups.map((g) => ({ value: g, label: t(`groups.${g}`, { defaultValue: g }) }))}
              className={styles.picker}
              aria-label={t('batch.group')}
              data-testid="batch-group"
            />
          }
        >
          <BatchForm key={chosen} family={common.family} group={chosen!} sns={sns} onStarted={setBatchId} />
        </Card>
      )}
    </Flex>
  );
}

/** The group's form over the first inverter's values; confirming starts the batch. */
function BatchForm({
  family,
  group,
  sns,
  onStarted,
}: {
  family: string;
  group: string;
  sns: string[];
  onStarted: (id: string) => void;
}) {
  const { t } = useTranslation('settings');
  const template = sns[0]!;
  const read = useGroupRead(family, group, template);
  const start = useStartBatch();
  const [refused, setRefused] = useState<{ code: number | null; message: string | null } | null>(null);

  if (read.isPending) return <PageLoading />;
  if (read.isError && !read.data)
    return <SettingsError {...errorOf(read.error)} action={<Button onClick={() => void read.refetch()}>{t('read')}</Button>} />;
  const fields = read.data.groups.find((g) => g.group === group)?.fields ?? [];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('batch.template', { sn: template })}</Typography.Paragraph>
      <GroupForm
        fields={fields}
        canWrite
        confirmTitle={t('batch.confirm', { count: sns.length })}
        onWrite={async (values) => {
          setRefused(null);
          try {
            const batch = await start.mutateAsync({ body: { family, group, sns, values } });
            onStarted(batch.id);
          } catch (err) {
            setRefused(errorOf(err));
            throw err;
          }
        }}
      />
      {refused && (
        <div className={styles.gapAbove}>
          <SettingsError {...refused} />
        </div>
      )}
    </>
  );
}

function BatchProgress({ id, onDone }: { id: string; onDone: () => void }) {
  const { t } = useTranslation('settings');
  const batch = useBatch(id);
  const cancel = useCancelBatch();
  if (batch.isPending) return <PageLoading />;
  if (batch.isError) return <SettingsError {...errorOf(batch.error)} />;
  const b: SettingBatch = batch.data;
  const running = b.state === 'running' || b.done < b.total;
  const queued = b.jobs.filter((j) => j.state === 'queued').length;
  return (
    <Card
      title={t(`batch.state.${running ? 'running' : b.state}`)}
      data-testid="batch-progress"
      data-state={b.state}
      extra={
        <Flex gap={8}>
          {running && (
            <Button
              danger
              disabled={queued === 0}
              loading={cancel.isPending}
              onClick={() => void cancel.mutateAsync({ params: { id } }).then(() => batch.refetch())}
              data-testid="batch-cancel"
            >
              {t('batch.cancel', { count: queued })}
            </Button>
          )}
          {!running && <Button onClick={onDone}>{t('batch.again')}</Button>}
        </Flex>
      }
    >
      <Progress
        percent={b.total === 0 ? 100 : Math.round((b.done / b.total) * 100)}
        status={running ? 'active' : b.failed > 0 ? 'exception' : 'success'}
      />
      <List
        size="small"
        className={styles.counts}
        dataSource={
          [
            ['succeeded', b.succeeded],
            ['failed', b.failed],
            ['cancelled', b.cancelled],
            ['pending', b.total - b.done],
          ] as const
        }
        grid={{ gutter: 8, column: 4 }}
        renderItem={([k, n]) => (
          <List.Item data-testid={`batch-count-${k}`}>
            <Typography.Text type="secondary">{t(`batch.count.${k}`)}</Typography.Text> <strong>{n}</strong>
          </List.Item>
        )}
      />
      <Table<SettingJob>
        rowKey="id"
        size="small"
        dataSource={b.jobs}
        pagination={b.jobs.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        onRow={(j) => ({ 'data-testid': `batch-row-${j.sn}` }) as object}
        columns={[
          { key: 'sn', title: t('device.sn'), render: (_, j) => j.sn },
          { key: 'state', title: t('columns.state'), width: 130, render: (_, j) => <JobStateTag state={j.state} /> },
          {
            key: 'result',
            title: t('columns.result'),
            render: (_, j) =>
              j.state === 'failed' ? (
                <Typography.Text type="danger">
                  {j.mismatches.length > 0 ? t('errors.mismatch') : t(`errors.${errorKind(j.errorCode)}`)}
                  {j.error ? ` — ${j.error}` : ''}
                </Typography.Text>
              ) : j.state === 'succeeded' ? (
                <Tag color="success">{t('batch.readBackOk')}</Tag>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
