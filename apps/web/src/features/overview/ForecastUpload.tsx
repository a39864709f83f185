/**
 * Forecast upload (`predicted/import`): an .xlsx of plant-local times and power; the day curve
 * then shows it as the dashed expected line. Refusals (a legacy .xls, a bad row) come back with
 * the server's message, naming the row.
 */
import { CloudUploadOutlined } from '@ant-design/icons';
import { plantEnergyApi } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { endpointKey } from '../../api/hooks.ts';

export function ForecastUpload({ plantId }: { plantId: number }) {
  const { t } = useTranslation('overview');
  const { message } = App.useApp();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  const upload = async (file: File) => {
    setBusy(true);
    try {
      const result = await call(plantEnergyApi.importForecast, { body: { plantId: String(plantId), file } });
      message.success(t('forecast.done', { rows: result.rows, count: result.days.length }));
      await client.invalidateQueries({ queryKey: endpointKey(plantEnergyApi.plantPowerDay) });
    } catch (error) {
      if (error instanceof ApiError && error.tolerated) message.error(error.message || t('forecast.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Upload
      accept=".xlsx"
      showUploadList={false}
      beforeUpload={(file) => {
        void upload(file);
        return false;
      }}
    >
      <Button icon={<CloudUploadOutlined />} loading={busy} title={t('forecast.hint')} data-testid="overview-forecast">
        {t('forecast.upload')}
      </Button>
    </Upload>
  );
}
