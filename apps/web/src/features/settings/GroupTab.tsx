/**
 * One supported group of one device: read from the device when the tab opens (and again on
 * "Read"), edited in the group's form, written after the confirmation; the job is then followed
 * (asked every second until final) and its result shown with the values read back. A refused
 * read or write shows what the code means; when the device is offline, the group's form is still
 * shown from its field definitions (the support answer), disabled, under the offline notice.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';
import { errorKind, isFinalJob, type SettingFieldDefinition, type SettingJob } from './form.ts';
import { GroupForm } from './GroupForm.tsx';
import { JobResult } from './JobResult.tsx';
import { errorOf, SettingsError } from './SettingsError.tsx';
import styles from './settings.module.css';
import { useGroupRead, useGroupWrite, useHistoryChanged, useJob, usePatchRead } from './settingsQueries.ts';

export function GroupTab({
  sn,
  family,
  group,
  canWrite,
  definitions = [],
}: {
  sn: string;
  family: string;
  group: string;
  canWrite: boolean;
  /** The group's field definitions, known without reading the device. */
  definitions?: readonly SettingFieldDefinition[];
}) {
  const { t } = useTranslation('settings');
  const read = useGroupRead(family, group, sn);
  const write = useGroupWrite(family, group);
  const [started, setStarted] = useState<SettingJob | null>(null);
  const [writeError, setWriteError] = useState<{ code: number | null; message: string | null } | null>(null);
  const polled = useJob(started && !isFinalJob(started) ? started.id : null);
  const job = polled.data ?? started;
  const historyChanged = useHistoryChanged();
  const patchRead = usePatchRead();
  const ended = job && isFinalJob(job) ? job : null;

  // Once the job ends: the form shows what the device read back, the history has a new row.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per ended job
  useEffect(() => {
    if (!ended) return;
    if (ended.after) patchRead(family, group, sn, ended.after);
    historyChanged();
  }, [ended?.id]);

  const fields = read.data?.groups.find((g) => g.group === group)?.fields ?? [];
  const readButton = (
    <Button icon={<ReloadOutlined />} onClick={() => void read.refetch()} loading={read.isFetching} data-testid="setting-read">
      {t('read')}
    </Button>
  );

  const onWrite = async (values: Record<string, number | string>) => {
    setWriteError(null);
    setStarted(null);
    try {
      setStarted(await write.mutateAsync({ params: { sn }, body: { values } }));
    } catch (err) {
      setWriteError(errorOf(err));
      throw err;
    }
  };

  let body: React.ReactNode;
  if (read.isPending)
    body = (
      <Flex vertical align="center" gap={8} className={styles.loading} data-testid="setting-reading">
        <Spin />
        <Typography.Text type="secondary">{t('reading')}</Typography.Text>
      </Flex>
    );
  else if (read.isError && !read.data) {
    const error = errorOf(read.error);
    body =
      errorKind(error.code) === 'offline' && definitions.length > 0 ? (
        <Flex vertical gap={16} data-testid="setting-offline-form">
          <SettingsError {...error} action={readButton} />
          <GroupForm fields={definitions.map((d) => ({ ...d, value: null }))} canWrite={canWrite} disabled onWrite={onWrite} />
        </Flex>
      ) : (
        <SettingsError {...error} action={readButton} />
      );
  } else
    body = (
      <GroupForm
        key={read.dataUpdatedAt}
        fields={fields}
        canWrite={canWrite}
        onWrite={onWrite}
        actions={
          <>
            <Typography.Text type="secondary" className={styles.readAt}>
              {t('readAt', { at: formatDateTime(read.data?.readAt) })}
            </Typography.Text>
            {readButton}
          </>
        }
      />
    );

  return (
    <div data-testid={`setting-group-${group}`}>
      {body}
      {writeError && (
        <div className={styles.gapAbove}>
          <SettingsError {...writeError} />
        </div>
      )}
      {job && (
        <div className={styles.gapAbove}>
          <JobResult job={job} fields={fields} />
        </div>
      )}
    </div>
  );
}
