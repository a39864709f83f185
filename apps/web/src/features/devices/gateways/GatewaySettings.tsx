/**
 * The gateway's own settings (gateway.setting, on a gateway the caller may operate): its upload
 * interval (whole seconds within the contract's range) and whether it keeps readings while
 * offline. Each is switched on its own; the answer says whether the gateway applied it, refused
 * it (its reason), or will get it when it is back online.
 */
import { type commandsApi, type DataOf, type GatewaySettingName, gatewaySettings } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useGuardedAction } from '../../../api/guard.ts';
import { NumberInput } from '../../../components/NumberInput.tsx';
import ui from '../../../components/ui.module.css';
import styles from '../shared/devices.module.css';
import { switchGatewaySetting } from './gatewayQueries.ts';

type Job = DataOf<typeof commandsApi.gatewaySettingSwitch>;
const interval = gatewaySettings.uploadInterval;

/** Whether a typed upload interval is one the gateway takes. */
export const validInterval = (v: number | null | undefined): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= interval.min && v <= interval.max;

export function GatewaySettings({
  sn,
  uploadInterval,
  onChanged,
}: {
  sn: string;
  uploadInterval: number;
  onChanged: () => void;
}) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const [seconds, setSeconds] = useState<number | null>(uploadInterval);
  const [buffer, setBuffer] = useState<0 | 1>(1);

  const report = (job: Job) => {
    if (job.state === 'succeeded') message.success(t('gwSettings.done'));
    else if (job.state === 'failed') message.error(t('gwSettings.refused', { reason: job.error ?? '' }));
    else if (job.state === 'queued') message.info(t('gwSettings.queued'));
    else message.info(t('gwSettings.pending'));
  };

  const [apply, busy] = useGuardedAction(async (name: GatewaySettingName, value: number) => {
    try {
      report(await switchGatewaySetting(sn, name, value));
      onChanged();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  });

  return (
    <Card size="small" title={t('gwSettings.title')} data-testid="gateway-settings">
      <Flex vertical gap={16}>
        <Flex gap={8} align="center" className={styles.settingRow}>
          <Typography.Text className={styles.settingLabel}>{t('gwSettings.interval')}</Typography.Text>
          <NumberInput
            className={styles.intervalInput}
            min={interval.min}
            max={interval.max}
            precision={0}
            value={seconds}
            onChange={(v) => setSeconds(v)}
            addonAfter="s"
            aria-label={t('gwSettings.interval')}
            data-testid="setting-interval"
          />
          <Button
            onClick={() => validInterval(seconds) && apply('uploadInterval', seconds)}
            disabled={!validInterval(seconds) || seconds === uploadInterval}
            loading={busy}
            data-testid="setting-interval-apply"
          >
            {t('gwSettings.apply')}
          </Button>
          <Typography.Text type="secondary" className={ui.note}>
            {t('gwSettings.intervalRange', { min: interval.min, max: interval.max })}
          </Typography.Text>
        </Flex>
        <Flex gap={8} align="center" className={styles.settingRow}>
          <Typography.Text className={styles.settingLabel}>{t('gwSettings.buffer')}</Typography.Text>
          <Segmented<0 | 1>
            value={buffer}
            onChange={(v) => setBuffer(v)}
            options={[
              { value: 1, label: t('gwSettings.bufferOn') },
              { value: 0, label: t('gwSettings.bufferOff') },
            ]}
            data-testid="setting-buffer"
          />
          <Button onClick={() => apply('bufferOffline', buffer)} loading={busy} data-testid="setting-buffer-apply">
            {t('gwSettings.apply')}
          </Button>
          <Typography.Text type="secondary" className={ui.note}>
            {t('gwSettings.bufferHint')}
          </Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}
