/**
 * Gateway restart, from wherever gateways are listed (a gateway's page, a plant's gateways, the
 * gateway list's selection): a confirmation naming each gateway and its plant, then one call
 * (`gateway/{gsns}/restart` for one, `gateways/batch/restart` for a selection) and a dialog
 * following each gateway's job until it is final — queued while the gateway is offline (until
 * the job expires), sent, succeeded, failed with the gateway's reason, timed out.
 */
import { commandsApi, type DataOf } from '@sunfleet/contracts';
import { App, Flex, List, Modal, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../api/client.ts';
import { useApiQuery } from '../api/hooks.ts';
import parts from './parts.module.css';
import ui from './ui.module.css';

export interface RestartTarget {
  sn: string;
  /** What the user calls it: its alias, or its SN. */
  name: string;
  plantName: string | null;
}

type Restart = DataOf<typeof commandsApi.restartGateways>;
type Job = Restart['jobs'][number];

const FINAL: ReadonlySet<Job['state']> = new Set(['succeeded', 'failed', 'timed_out', 'cancelled', 'expired']);
/** How often the dialog reads the jobs again while one is open. */
export const RESTART_POLL_MS = 2000;

export const isFinalJob = (job: Pick<Job, 'state'>) => FINAL.has(job.state);

const stateColour: Record<Job['state'], string> = {
  queued: 'default',
  sent: 'processing',
  acknowledged: 'processing',
  succeeded: 'success',
  failed: 'error',
  timed_out: 'warning',
  cancelled: 'default',
  expired: 'warning',
};

/** The gateway, and its plant when it has one: "GW-1 (Plant A)". */
function label(t: TFunction<'common'>, target: RestartTarget): string {
  return t('restart.target', { gateway: target.name, plant: target.plantName ?? t('restart.noPlant') });
}

function RestartProgress({ started, targets }: { started: Restart; targets: readonly RestartTarget[] }) {
  const { t } = useTranslation('common');
  const progress = useApiQuery(
    commandsApi.restartProgress,
    { params: { batchId: started.batchId } },
    {
      initialData: started,
      refetchInterval: (q) => ((q.state.data?.jobs ?? started.jobs).every(isFinalJob) ? false : RESTART_POLL_MS),
    },
  );
  const jobs = progress.data?.jobs ?? started.jobs;
  const bySn = new Map(targets.map((g) => [g.sn, g]));
  const count = (states: Job['state'][]) => jobs.filter((j) => states.includes(j.state)).length;
  const done = jobs.filter(isFinalJob).length;

  return (
    <Flex vertical gap={8} data-testid="restart-progress">
      <Typography.Text data-testid="restart-summary">
        {t('restart.summary', {
          done,
          total: jobs.length,
          succeeded: count(['succeeded']),
          failed: count(['failed', 'timed_out', 'expired', 'cancelled']),
        })}
      </Typography.Text>
      <List<Job>
        size="small"
        bordered
        className={parts.scrollList}
        dataSource={jobs}
        renderItem={(job) => {
          const target = bySn.get(job.sn) ?? { sn: job.sn, name: job.sn, plantName: null };
          return (
            <List.Item key={job.jobId} data-testid={`restart-job-${job.sn}`} data-state={job.state}>
              <Flex vertical gap={2} className={ui.shrink}>
                <Typography.Text strong>{label(t, target)}</Typography.Text>
                <Typography.Text type={job.state === 'failed' ? 'danger' : 'secondary'} className={ui.note}>
                  {job.state === 'failed'
                    ? t('restart.detail.failed', { reason: job.error ?? t('restart.noReason') })
                    : t(`restart.detail.${job.state}`)}
                </Typography.Text>
              </Flex>
              <Tag color={stateColour[job.state]} className={ui.noGapAfter}>
                {t(`restart.state.${job.state}`)}
              </Tag>
            </List.Item>
          );
        }}
      />
    </Flex>
  );
}

/**
 * `confirm(targets)` asks, restarts and opens the progress dialog; `dialog` is that dialog, to be
 * rendered by the page.
 */
export function useGatewayRestart(): { confirm: (targets: readonly RestartTarget[]) => void; dialog: ReactNode } {
  const { t } = useTranslation('common');
  const { modal } = App.useApp();
  const [running, setRunning] = useState<{ started: Restart; targets: readonly RestartTarget[] } | null>(null);

  const confirm = useCallback(
    (targets: readonly RestartTarget[]) => {
      if (targets.length === 0) return;
      const one = targets.length === 1 ? targets[0] : undefined;
      modal.confirm({
        title: (
          <span data-testid="restart-confirm-title">
            {one
              ? t('restart.titleOne', { gateway: one.name, plant: one.plantName ?? t('restart.noPlant') })
              : t('restart.titleMany', { count: targets.length })}
          </span>
        ),
        content: (
          <Flex vertical gap={8} data-testid="restart-confirm">
            <Typography.Paragraph className={ui.flush}>{t('restart.text', { count: targets.length })}</Typography.Paragraph>
            {!one && (
              <List
                size="small"
                bordered
                className={parts.scrollList}
                dataSource={[...targets]}
                renderItem={(g) => (
                  <List.Item key={g.sn} data-testid={`restart-confirm-${g.sn}`}>
                    {label(t, g)}
                  </List.Item>
                )}
              />
            )}
          </Flex>
        ),
        okText: t('restart.ok'),
        okButtonProps: { danger: true, 'data-testid': 'restart-confirm-ok' },
        cancelText: t('cancel'),
        onOk: async () => {
          try {
            const started =
              targets.length === 1
                ? await call(commandsApi.restartGateways, { params: { gsns: targets[0]!.sn } })
                : await call(commandsApi.batchRestartGateways, { body: { sns: targets.map((g) => g.sn) } });
            setRunning({ started, targets });
          } catch (err) {
            // The client has already said what went wrong (305, 2, 4).
            if (!(err instanceof ApiError)) throw err;
          }
        },
      });
    },
    [modal, t],
  );

  const dialog = (
    <Modal
      open={running !== null}
      title={t('restart.progressTitle', { count: running?.targets.length ?? 0 })}
      onCancel={() => setRunning(null)}
      footer={null}
      destroyOnHidden
    >
      {running && <RestartProgress started={running.started} targets={running.targets} />}
    </Modal>
  );
  return { confirm, dialog };
}
