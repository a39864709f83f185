/**
 * "Use as the plant's master meter" (`meter/{sn}/master`): after a confirmation saying what
 * changes (the plant's grid import and export come from this meter from now on, and past days
 * are re-summed), the meter becomes the plant's master. What the server refuses (2: no edit
 * rights on the plant; 404: the meter or its plant went away) shows as the server's message.
 */
import { StarOutlined } from '@ant-design/icons';
import { App, Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import ui from '../../../components/ui.module.css';
import { useInvalidateDevices } from '../shared/deviceQueries.ts';
import { setMasterMeter } from './meterQueries.ts';

export function MasterMeterButton({ sn, plantName }: { sn: string; plantName: string }) {
  const { t } = useTranslation('devices');
  const { modal, message } = App.useApp();
  const invalidate = useInvalidateDevices('meter');
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    try {
      await setMasterMeter(sn);
      message.success(t('master.done', { sn, plant: plantName }));
      await invalidate();
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message || t('master.failed'));
    } finally {
      setBusy(false);
    }
  };

  const confirm = () =>
    modal.confirm({
      title: t('master.title', { sn }),
      content: (
        <Typography.Paragraph className={ui.flush} data-testid="master-confirm-text">
          {t('master.text', { plant: plantName })}
        </Typography.Paragraph>
      ),
      okText: t('master.ok'),
      okButtonProps: { 'data-testid': 'master-confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: () => save(),
    });

  return (
    <Button icon={<StarOutlined />} loading={busy} onClick={confirm} data-testid="meter-set-master">
      {t('master.button')}
    </Button>
  );
}
