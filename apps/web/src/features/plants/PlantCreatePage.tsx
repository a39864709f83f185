/**
 * plant-add (station.create): the plant form; the gateway, if given, is bound in the same call
 * (the server makes the plant and claims the gateway together, so a wrong SN or key creates
 * nothing and shows under its field).
 */
import { plantsApi, toLanguage } from '@sunfleet/contracts';
import { App, Card, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import ui from '../../components/ui.module.css';
import { emptyPlant, PlantForm, type PlantFormValues, plantBody, showServerError } from './PlantForm.tsx';
import { useInvalidatePlants } from './plantQueries.ts';

export default function PlantCreatePage() {
  const { t, i18n } = useTranslation('plants');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<PlantFormValues>();
  const [initial] = useState(emptyPlant);
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidatePlants();

  const [save, busy] = useGuardedAction(async (values: PlantFormValues) => {
    setError(null);
    const sn = values.gatewaySn?.trim();
    const key = values.gatewayKey?.trim();
    try {
      const plant = await call(plantsApi.createPlant, {
        body: { ...plantBody(values), ...(sn && key ? { gateway: { sn, key } } : {}) },
      });
      await invalidate();
      message.success(t('form.created', { name: plant.name }));
      navigate('/plants');
    } catch (err) {
      if (!(err instanceof ApiError) || !err.tolerated) return;
      showServerError(form, err, setError, toLanguage(i18n.language));
    }
  });

  return (
    <Card data-testid="plant-create-page">
      <Typography.Title level={4} className={ui.first} data-testid="page-title">
        {t('menu:plantAdd')}
      </Typography.Title>
      <PlantForm
        form={form}
        mode="create"
        initialValues={initial}
        onSubmit={save}
        submitting={busy}
        error={error}
        onCancel={() => navigate('/plants')}
      />
    </Card>
  );
}
