/**
 * A firmware rollout (`/firmware/rollout/:id`, linked from the upgrade action's result, a device's
 * upgrade card and the firmware pages): the image, its state and why it paused, the devices per
 * state, its waves (the canary first) with their counts, the failing devices with their reasons,
 * and pause, resume and cancel (cancel confirmed first). Read again every few seconds while
 * devices are under way.
 */
import { type DataOf, ErrorCode, upgradesApi } from '@sunfleet/contracts';
import { Alert, App, Button, Card, Descriptions, Flex, Progress, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import { upgradeStateColour } from '../../components/UpgradeProgress.tsx';
import ui from '../../components/ui.module.css';
import { formatWhen, OPEN_STATES, rolloutColour, STATE_ORDER, waveLabel } from './rollout.ts';
import { actOnRollout, type RolloutAction, useRollout } from './rolloutQueries.ts';

type Rollout = DataOf<typeof upgradesApi.rollout>;
type Device = Rollout['failing'][number];

function Counts({ counts, testId }: { counts: Record<string, number>; testId: string }) {
  const { t } = useTranslation('common');
  const shown = STATE_ORDER.filter((s) => (counts[s] ?? 0) > 0);
  return (
    <Flex gap={4} wrap data-testid={testId}>
      {shown.length === 0
        ? '--'
        : shown.map((s) => (
            <Tag key={s} color={upgradeStateColour[s]} data-testid={`${testId}-${s}`}>
              {t(`upgrade.state.${s}`)}: {counts[s]}
            </Tag>
          ))}
    </Flex>
  );
}

function Actions({ rollout, onChanged }: { rollout: Rollout; onChanged: () => void }) {
  const { t } = useTranslation('common');
  const { modal } = App.useApp();
  const may = useMayCall();
  const act = async (ep: RolloutAction) => {
    try {
      await actOnRollout(ep, rollout.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
    onChanged();
  };
  const ended = rollout.state === 'completed' || rollout.state === 'cancelled';
  return (
    <Flex gap={8} wrap>
      {rollout.state === 'running' && may(upgradesApi.pauseRollout) && (
        <Button onClick={() => act(upgradesApi.pauseRollout)} data-testid="rollout-pause">
          {t('upgrade.rollout.pause')}
        </Button>
      )}
      {rollout.state === 'paused' && may(upgradesApi.resumeRollout) && (
        <Button type="primary" onClick={() => act(upgradesApi.resumeRollout)} data-testid="rollout-resume">
          {t('upgrade.rollout.resume')}
        </Button>
      )}
      {!ended && may(upgradesApi.cancelRollout) && (
        <Button
          danger
          data-testid="rollout-cancel"
          onClick={() =>
            modal.confirm({
              title: t('upgrade.rollout.cancelTitle'),
              content: t('upgrade.rollout.cancelText', { pending: rollout.counts.pending ?? 0 }),
              okText: t('upgrade.rollout.cancel'),
              okButtonProps: { danger: true, 'data-testid': 'rollout-cancel-ok' },
              cancelText: t('cancel'),
              onOk: () => act(upgradesApi.cancelRollout),
            })
          }
        >
          {t('upgrade.rollout.cancel')}
        </Button>
      )}
    </Flex>
  );
}

export default function RolloutPage() {
  const { t, i18n } = useTranslation('common');
  const { id = '' } = useParams();
  const q = useRollout(id);
  if (q.isError) {
    // A rollout another account started answers as missing.
    if (q.error.code === ErrorCode.notFound)
      return <Alert type="warning" showIcon message={t('upgrade.rollout.missing')} data-testid="rollout-missing" />;
    return <PageError error={q.error} onRetry={() => void q.refetch()} />;
  }
  if (!q.data) return <PageLoading />;
  const r = q.data;
  const done = r.total - OPEN_STATES.reduce((n, s) => n + (r.counts[s] ?? 0), 0);
  const failingColumns = [
    { key: 'sn', title: t('upgrade.rollout.device'), dataIndex: 'sn' },
    { key: 'gateway', title: t('upgrade.rollout.gateway'), dataIndex: 'gatewaySn' },
    { key: 'wave', title: t('upgrade.rollout.wave'), render: (_: unknown, d: Device) => waveLabel(t, d.wave) },
    {
      key: 'state',
      title: t('upgrade.rollout.state'),
      render: (_: unknown, d: Device) => <Tag color={upgradeStateColour[d.state]}>{t(`upgrade.state.${d.state}`)}</Tag>,
    },
    { key: 'error', title: t('upgrade.rollout.reason'), dataIndex: 'error' },
  ];
  return (
    <Flex vertical gap={16} data-testid="rollout-page">
      <Card
        title={
          <Flex gap={8} align="center" wrap>
            <Typography.Title level={4} className={ui.flush} data-testid="rollout-title">
              {t('upgrade.rollout.title', { product: r.productName, version: r.version })}
            </Typography.Title>
            <Tag color={rolloutColour[r.state]} data-testid="rollout-state">
              {t(`upgrade.rollout.states.${r.state}`)}
            </Tag>
          </Flex>
        }
        extra={<Actions rollout={r} onChanged={() => void q.refetch()} />}
      >
        <Flex vertical gap={12}>
          {r.state === 'paused' && r.pauseReason && (
            <Alert
              type="warning"
              showIcon
              message={t('upgrade.rollout.paused')}
              description={r.pauseReason}
              data-testid="rollout-paused"
            />
          )}
          <Progress
            percent={r.total ? Math.round((done * 100) / r.total) : 0}
            aria-label={t('upgrade.rollout.progressLabel')}
            data-testid="rollout-progress"
          />
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 2, lg: 3 }}
            items={[
              { key: 'kind', label: t('upgrade.rollout.kind'), children: t(`upgrade.kind.${r.deviceKind}`) },
              { key: 'total', label: t('upgrade.rollout.total'), children: r.total },
              { key: 'waves', label: t('upgrade.rollout.waves'), children: `${Math.max(0, r.currentWave + 1)} / ${r.waves}` },
              { key: 'canary', label: t('upgrade.canary'), children: r.canarySize },
              { key: 'waveSize', label: t('upgrade.waveSize'), children: r.waveSize },
              { key: 'threshold', label: t('upgrade.threshold'), children: `${r.failureThreshold} %` },
              { key: 'created', label: t('upgrade.rollout.created'), children: formatWhen(r.createdAt, i18n.language) },
              { key: 'finished', label: t('upgrade.rollout.finished'), children: formatWhen(r.finishedAt, i18n.language) },
              {
                key: 'counts',
                label: t('upgrade.rollout.counts'),
                children: <Counts counts={r.counts} testId="rollout-counts" />,
                span: 3,
              },
            ]}
          />
        </Flex>
      </Card>
      <Card size="small" title={t('upgrade.rollout.waveTitle')}>
        <Table
          size="small"
          rowKey="wave"
          pagination={false}
          data-testid="rollout-waves"
          dataSource={r.waveList}
          columns={[
            { key: 'wave', title: t('upgrade.rollout.wave'), render: (_, w) => waveLabel(t, w.wave) },
            { key: 'size', title: t('upgrade.rollout.size'), dataIndex: 'size' },
            {
              key: 'counts',
              title: t('upgrade.rollout.counts'),
              render: (_, w) => <Counts counts={w.counts} testId={`rollout-wave-${w.wave}`} />,
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('upgrade.rollout.failingTitle', { count: r.failing.length })}>
        <Table<Device>
          size="small"
          rowKey="sn"
          data-testid="rollout-failing"
          dataSource={r.failing}
          columns={failingColumns}
          pagination={r.failing.length > 20 ? { pageSize: 20 } : false}
          locale={{ emptyText: t('upgrade.rollout.noFailures') }}
        />
      </Card>
    </Flex>
  );
}
