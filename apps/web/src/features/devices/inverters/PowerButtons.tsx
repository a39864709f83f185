/**
 * Power an inverter on or off from its detail page: a confirmation that names the plant and the
 * device, then the command through its gateway; the result as a message (the device's reason
 * when it refuses; offline, no answer in time, or a state that blocks it as the server says).
 */
import { PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { App, Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import ui from '../../../components/ui.module.css';
import { switchInverterPower } from './inverterQueries.ts';

export interface PowerTarget {
  sn: string;
  /** What the user calls it: its alias, or its SN. */
  name: string;
  plantName: string | null;
}

export function PowerButtons({ device }: { device: PowerTarget }) {
  const { t } = useTranslation('devices');
  const { modal, message } = App.useApp();

  const confirm = (on: boolean) => {
    const key = on ? 'on' : 'off';
    const names = { device: device.name, plant: device.plantName ?? t('power.noPlant') };
    modal.confirm({
      title: t(`power.${key}.title`, names),
      content: <Typography.Paragraph className={ui.flush}>{t(`power.${key}.text`, names)}</Typography.Paragraph>,
      okText: t(`power.${key}.ok`),
      okButtonProps: { danger: !on, 'data-testid': 'power-confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          const job = await switchInverterPower(device.sn, on);
          if (job.state === 'succeeded') message.success(t(`power.${key}.done`, names));
          else if (job.state === 'failed') message.error(t('power.refused', { ...names, reason: job.error ?? '' }));
          else message.info(t('power.pending', names));
        } catch (err) {
          // 1, 1001 and 1005 are the screen's to say (the others the client shows itself).
          if (err instanceof ApiError && err.tolerated) message.error(err.message);
        }
      },
    });
  };

  return (
    <Flex gap={8} wrap>
      <Button icon={<ThunderboltOutlined />} onClick={() => confirm(true)} data-testid="power-on">
        {t('power.on.button')}
      </Button>
      <Button danger icon={<PoweroffOutlined />} onClick={() => confirm(false)} data-testid="power-off">
        {t('power.off.button')}
      </Button>
    </Flex>
  );
}
