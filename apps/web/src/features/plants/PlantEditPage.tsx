/**
 * plants/edit/{id}: the plant form filled from plant/{id}, saved in one call; the plant's
 * gateways with bind and replace. The route is there only for a caller who may edit plants
 * (granted, not read-only); a plant the caller may only look at (a visitor of it: the server's
 * `canEdit`) shows the 403 page; one the caller cannot see (700) says so.
 */
import { type DataOf, ErrorCode, plantsApi, toLanguage } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Form, Result } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { Forbidden } from '../../components/Forbidden.tsx';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { GatewaySection } from './Gateway.tsx';
import { PlantForm, type PlantFormValues, plantBody, showServerError } from './PlantForm.tsx';
import { useInvalidatePlants } from './plantQueries.ts';

type Plant = DataOf<typeof plantsApi.getPlant>;

/** Six decimals (about 10 cm) hide binary noise such as 41.699999999999996. */
const coordinate = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);

export function formValuesOf(p: Plant): PlantFormValues {
  return {
    name: p.name,
    alias: p.alias ?? '',
    type: p.type,
    capacity: p.capacity,
    commissioningDate: p.commissioningDate ? dayjs(p.commissioningDate) : null,
    timezone: p.timezone,
    currency: p.currency,
    address: p.address ?? '',
    latitude: coordinate(p.latitude),
    longitude: coordinate(p.longitude),
    valuationMethod: p.valuationMethod,
    price: p.price,
    priceSegments: p.priceSegments.map((s) => ({ ...s })),
    totalInvestment: p.totalInvestment,
    income: p.income,
    contactName: p.contactName ?? '',
    contactPhone: p.contactPhone ?? '',
    picture: { picture: p.picture, thumbnail: p.thumbnail },
  };
}

export default function PlantEditPage() {
  const { t } = useTranslation('plants');
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const plant = useApiQuery(plantsApi.getPlant, { params: { id } }, { enabled: valid, staleTime: 0 });

  if (!valid || (plant.error instanceof ApiError && plant.error.code === ErrorCode.plantMissing)) {
    return (
      <Card>
        <Result
          status="404"
          title={t('edit.missing')}
          extra={
            <Button type="primary" onClick={() => navigate('/plants')}>
              {t('form.back')}
            </Button>
          }
          data-testid="plant-missing"
        />
      </Card>
    );
  }
  if (plant.isPending) return <PageLoading />;
  if (plant.isError) return <PageError error={plant.error} onRetry={() => void plant.refetch()} />;
  if (!plant.data.canEdit) return <Forbidden />;
  return <EditForm key={plant.data.updatedAt} plant={plant.data} onReload={() => void plant.refetch()} />;
}

type PlantBody = ReturnType<typeof plantBody>;
type Section = 'info' | 'income' | 'contacts';
const sectionFields = {
  info: [
    'name',
    'alias',
    'type',
    'capacity',
    'commissioningDate',
    'timezone',
    'address',
    'latitude',
    'longitude',
    'picture',
    'thumbnail',
  ],
  income: ['currency', 'valuationMethod', 'price', 'priceSegments', 'totalInvestment', 'income'],
  contacts: ['contactName', 'contactPhone'],
} as const satisfies Record<Section, readonly (keyof PlantBody)[]>;
const sectionEndpoints = {
  info: plantsApi.editPlantInfo,
  income: plantsApi.editPlantIncome,
  contacts: plantsApi.editPlantContacts,
} as const;

function pick<K extends keyof PlantBody>(body: PlantBody, keys: readonly K[]): Pick<PlantBody, K> {
  return Object.fromEntries(keys.map((k) => [k, body[k]])) as Pick<PlantBody, K>;
}

/** The form's sections whose values differ from the plant's. */
export function changedSections(before: PlantBody, after: PlantBody): Section[] {
  return (Object.keys(sectionFields) as Section[]).filter((section) =>
    sectionFields[section].some((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])),
  );
}

function EditForm({ plant, onReload }: { plant: Plant; onReload: () => void }) {
  const { t, i18n } = useTranslation('plants');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<PlantFormValues>();
  const initial = useMemo(() => formValuesOf(plant), [plant]);
  const [error, setError] = useState<string | null>(null);
  const invalidate = useInvalidatePlants();
  const canGateway = useMayCall()(plantsApi.bindGateway, plant.canEdit);

  const [save, busy] = useGuardedAction(async (values: PlantFormValues) => {
    setError(null);
    try {
      const body = plantBody(values);
      const changed = changedSections(plantBody(initial), body);
      // One section changed: its own call (plant/{id}/info, /income, /contacts); several:
      // one call for all, so that a refusal writes nothing.
      if (changed.length === 1) {
        const section = changed[0]!;
        await call(sectionEndpoints[section], { params: { id: plant.id }, body: pick(body, sectionFields[section]) });
      } else if (changed.length > 1) {
        await call(plantsApi.editPlant, { params: { id: plant.id }, body });
      }
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) showServerError(form, err, setError, toLanguage(i18n.language));
      return;
    }
    await invalidate();
    message.success(t('common:saved'));
    navigate('/plants');
  });

  return (
    <Card data-testid="plant-edit-page">
      <Flex justify="space-between" align="center" wrap gap={8} className={ui.gapBelow}>
        <PageTitle>{t('edit.title', { name: plant.name })}</PageTitle>
      </Flex>
      <PlantForm
        form={form}
        mode="edit"
        initialValues={initial}
        onSubmit={save}
        submitting={busy}
        error={error}
        onCancel={() => navigate('/plants')}
        extra={
          <Card size="small" title={t('form.gateway')}>
            <GatewaySection
              plantId={plant.id}
              plantName={plant.name}
              timezone={plant.timezone}
              gateways={plant.gateways}
              canChange={canGateway}
              canOperate={plant.canEdit}
              onChanged={onReload}
            />
          </Card>
        }
      />
    </Card>
  );
}
