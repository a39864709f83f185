/**
 * A device's latest firmware upgrade on its page: its state (sending the file with the download's
 * percent, downloaded, upgrading with the flash's percent, success, download failed, failed with
 * the reason, cancelled), read again every few seconds while it runs, a link to its rollout, and
 * "stop" while it has not reached the flash (a download is told to abort; a flash finishes).
 */
import { type DataOf, upgradesApi } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, call } from '../api/client.ts';
import { useApiQuery } from '../api/hooks.ts';
import { useMayCall } from './Permission.tsx';
import { rolloutPath } from './UpgradeAction.tsx';
import ui from './ui.module.css';

type Upgrade = NonNullable<DataOf<typeof upgradesApi.inverterUpgradeProgress>>;
export const UPGRADE_POLL_MS = 3000;

export const upgradeStateColour: Record<Upgrade['state'], string> = {
  pending: 'default',
  sending: 'processing',
  downloaded: 'processing',
  upgrading: 'processing',
  success: 'success',
  download_failed: 'error',
  failed: 'error',
  cancelled: 'default',
};

const open = (u: Upgrade) => ['pending', 'sending', 'downloaded', 'upgrading'].includes(u.state);

/**
 * The inverter's latest upgrade; nothing when it has had none (the answer is null, not an error).
 * Asked once when the page opens and again only while an upgrade runs (or when one is started here).
 */
export function InverterUpgradeCard({ sn, canOperate }: { sn: string; canOperate: boolean }) {
  const { t } = useTranslation('common');
  const { modal } = App.useApp();
  const mayCut = useMayCall()(upgradesApi.inverterCutUpgrade, canOperate);
  const q = useApiQuery(
    upgradesApi.inverterUpgradeProgress,
    { params: { sn } },
    { retry: false, refetchInterval: (x) => (x.state.data && open(x.state.data) ? UPGRADE_POLL_MS : false) },
  );
  if (!q.data) return null;
  const u = q.data;
  const stoppable = u.state === 'pending' || u.state === 'sending' || u.state === 'downloaded';
  const stop = () =>
    modal.confirm({
      title: t('upgrade.cutTitle', { device: sn }),
      content: t('upgrade.cutText'),
      okText: t('upgrade.cut'),
      okButtonProps: { danger: true, 'data-testid': 'upgrade-cut-ok' },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await call(upgradesApi.inverterCutUpgrade, { params: { sn } });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
        }
        await q.refetch();
      },
    });
  return (
    <Card size="small" title={t('upgrade.cardTitle')} data-testid="upgrade-card" data-state={u.state}>
      <Flex vertical gap={8}>
        <Flex gap={8} align="center" wrap>
          <Tag color={upgradeStateColour[u.state]} data-testid="upgrade-state">
            {t(`upgrade.state.${u.state}`)}
          </Tag>
          <Typography.Text>{t('upgrade.versions', { from: u.fromVersion ?? '--', to: u.toVersion })}</Typography.Text>
          <Link to={rolloutPath(u.rolloutId)} data-testid="upgrade-card-rollout">
            {t('upgrade.openRollout')}
          </Link>
          {mayCut && stoppable && (
            <Button size="small" danger onClick={stop} data-testid="upgrade-cut">
              {t('upgrade.cut')}
            </Button>
          )}
        </Flex>
        {open(u) && u.progress !== null && (
          <Progress percent={u.progress} size="small" aria-label={t('upgrade.progressLabel')} data-testid="upgrade-progress" />
        )}
        {u.error && u.state !== 'cancelled' && (
          <Typography.Text type="danger" className={ui.note} data-testid="upgrade-error">
            {u.error}
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}
