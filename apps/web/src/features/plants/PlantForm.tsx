/**
 * The plant form of create and edit: basic information, location,
 * income (valuation method, price or time-of-use segments, investment, income), contacts, the
 * picture and — on create — the gateway. Rules come from the contracts' validators and limits,
 * so what the form accepts the server accepts; a server answer that still concerns one field
 * (4 naming `body.<field>`, 10 coordinates, 301/305/1006 gateway) is shown under that field.
 */
import { ErrorCode, errorText, isDecimalInRange, isPlantName, limits, PHONE_PATTERN, plantsApi } from '@sunfleet/contracts';
import type { FormRule } from 'antd';
import { Alert, Button, Card, Col, DatePicker, Flex, Form, type FormInstance, Radio, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../api/client.ts';
import { NumberInput } from '../../components/NumberInput.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { GatewayClaimFields, gatewayCodeField } from './Gateway.tsx';
import { PictureField, type PictureValue } from './PictureField.tsx';
import { PriceSegmentEditor } from './PriceSegmentEditor.tsx';
import { useCurrencies, usePlantTypes, useTimezones } from './plantQueries.ts';
import { type SegmentDraft, segmentProblems, segmentsBody } from './priceSegments.ts';

type Valuation = (typeof plantsApi.valuationMethods)[number];

export interface PlantFormValues {
  name: string;
  alias?: string;
  type: number;
  capacity: number | null;
  commissioningDate: Dayjs | null;
  timezone: string;
  currency: string | null;
  address?: string;
  latitude: number | null;
  longitude: number | null;
  valuationMethod: Valuation;
  price: number | null;
  priceSegments: SegmentDraft[];
  totalInvestment: number | null;
  income: number | null;
  contactName?: string;
  contactPhone?: string;
  picture: PictureValue;
  gatewaySn?: string;
  gatewayKey?: string;
}

/** The fields every plant body shares (create and edit), from the form values. */
export function plantBody(v: PlantFormValues) {
  const text = (s: string | undefined) => (s?.trim() ? s.trim() : null);
  const tou = v.valuationMethod === 'tou';
  return {
    name: v.name.trim(),
    alias: text(v.alias),
    type: v.type as 0 | 1 | 2,
    capacity: v.capacity ?? 0,
    commissioningDate: v.commissioningDate ? v.commissioningDate.format('YYYY-MM-DD') : null,
    timezone: v.timezone,
    currency: v.currency ?? null,
    address: text(v.address),
    latitude: v.latitude ?? null,
    longitude: v.longitude ?? null,
    valuationMethod: v.valuationMethod,
    price: tou ? null : (v.price ?? null),
    priceSegments: tou ? segmentsBody(v.priceSegments) : [],
    totalInvestment: v.totalInvestment ?? null,
    income: v.income ?? null,
    contactName: text(v.contactName),
    contactPhone: text(v.contactPhone),
    picture: v.picture?.picture ?? null,
    thumbnail: v.picture?.thumbnail ?? null,
  };
}

/** The browser's zone when the dictionary has it. */
export function defaultTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export const emptyPlant = (): PlantFormValues => ({
  name: '',
  type: 0,
  capacity: null,
  commissioningDate: null,
  timezone: defaultTimezone(),
  currency: null,
  latitude: null,
  longitude: null,
  valuationMethod: 'constant',
  price: null,
  priceSegments: [],
  totalInvestment: null,
  income: null,
  picture: { picture: null, thumbnail: null },
});

/** Form fields a code-4 answer's `fields` (`name`, `priceSegments.0.start`) can point at, by the path's first step. */
const serverFields: Record<string, keyof PlantFormValues> = {
  name: 'name',
  alias: 'alias',
  capacity: 'capacity',
  type: 'type',
  commissioningDate: 'commissioningDate',
  timezone: 'timezone',
  currency: 'currency',
  address: 'address',
  latitude: 'latitude',
  longitude: 'longitude',
  price: 'price',
  priceSegments: 'priceSegments',
  totalInvestment: 'totalInvestment',
  income: 'income',
  contactName: 'contactName',
  contactPhone: 'contactPhone',
  picture: 'picture',
  thumbnail: 'picture',
  gateway: 'gatewaySn',
};

/** The form field of the first field a code-4 answer names that the form has, if any. */
export function fieldOfAnswer(fields: readonly string[]): keyof PlantFormValues | null {
  const step = fields.map((path) => path.split('.')[0]!).find((first) => Object.hasOwn(serverFields, first));
  return step === undefined ? null : serverFields[step]!;
}

function Section({ title, children, testId, fill }: { title: string; children: ReactNode; testId?: string; fill?: boolean }) {
  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      styles={{ body: { paddingBottom: 0 } }}
      className={fill ? ui.fill : undefined}
    >
      {children}
    </Card>
  );
}

export function PlantForm({
  form,
  initialValues,
  mode,
  readOnly,
  onSubmit,
  submitting,
  error,
  extra,
  onCancel,
}: {
  form: FormInstance<PlantFormValues>;
  initialValues: PlantFormValues;
  mode: 'create' | 'edit';
  readOnly?: boolean;
  onSubmit: (values: PlantFormValues) => void;
  submitting: boolean;
  /** A server message that names no field. */
  error?: string | null;
  /** More sections after the form's own (the edit page's gateways). */
  extra?: ReactNode;
  onCancel: () => void;
}) {
  const { t } = useTranslation('plants');
  const types = usePlantTypes();
  const zones = useTimezones();
  const currencies = useCurrencies();
  const method = Form.useWatch('valuationMethod', form) ?? initialValues.valuationMethod;
  const currency = Form.useWatch('currency', form) ?? initialValues.currency;
  const priceUnit = currency ? `${currency}/kWh` : '/kWh';

  const decimal = (min: number, max: number): FormRule => ({
    validator: (_, v: number | null | undefined) =>
      v === null || v === undefined || isDecimalInRange(String(v), min, max)
        ? Promise.resolve()
        : Promise.reject(new Error(t('rules.decimal', { value: v, min, max }))),
  });
  const coordinate = (max: number, other: 'latitude' | 'longitude'): FormRule => ({
    validator: (_, v: number | null | undefined) => {
      const theirs = form.getFieldValue(other);
      const has = v !== null && v !== undefined;
      if (!has && theirs !== null && theirs !== undefined) return Promise.reject(new Error(t('rules.coordinatesBoth')));
      if (has && !(Math.abs(v) <= max)) return Promise.reject(new Error(t('rules.coordinate', { value: v, max })));
      return Promise.resolve();
    },
  });

  const typeOptions = (types.data ?? [0, 1, 2].map((value) => ({ value, name: t(`types.${value}`) }))).map((x) => ({
    value: x.value,
    label: x.name,
  }));
  const zoneOptions = (zones.data ?? [{ id: initialValues.timezone, offset: '', offsetMinutes: 0 }]).map((z) => ({
    value: z.id,
    label: z.offset ? `(UTC${z.offset}) ${z.id}` : z.id,
  }));
  const currencyOptions = (currencies.data ?? []).map((c) => ({ value: c.code, label: `${c.code} — ${c.name} (${c.symbol})` }));
  const half = { xs: 24, md: 12 };
  const third = { xs: 24, md: 8 };

  return (
    <Form<PlantFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={onSubmit}
      disabled={readOnly}
      scrollToFirstError
      data-testid="plant-form"
    >
      <Flex vertical gap={16}>
        <Section title={t('form.basic')}>
          <Row gutter={16}>
            <Col {...half}>
              <Form.Item
                name="name"
                label={t('form.name')}
                rules={[
                  { required: true, whitespace: true, message: t('rules.nameRequired') },
                  {
                    validator: (_, v: string | undefined) =>
                      !v || isPlantName(v)
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('rules.name', { min: limits.plantName.min, max: limits.plantName.max }))),
                  },
                ]}
              >
                <SafeInput
                  maxLength={limits.plantName.max}
                  showCount
                  placeholder={t('form.namePlaceholder')}
                  data-testid="plant-name"
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                name="alias"
                label={t('form.alias')}
                rules={[{ max: 32, message: t('common:validation.maxLength', { max: 32 }) }]}
              >
                <SafeInput maxLength={32} data-testid="plant-alias" />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="type" label={t('form.type')} rules={[{ required: true, message: t('rules.required') }]}>
                <Select options={typeOptions} loading={types.isPending} data-testid="plant-type" />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item
                name="capacity"
                label={t('form.capacity')}
                rules={[
                  { required: true, message: t('rules.capacityRequired') },
                  decimal(limits.capacity.min, limits.capacity.max),
                ]}
                extra={t('form.capacityHint', { max: limits.capacity.max })}
              >
                <NumberInput maxDecimals={2} className={ui.fullWidth} suffix="kWp" data-testid="plant-capacity" />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="commissioningDate" label={t('form.commissioningDate')}>
                <DatePicker
                  className={ui.fullWidth}
                  format="YYYY-MM-DD"
                  disabledDate={(d) => d.isAfter(dayjs().add(1, 'year'))}
                  data-testid="plant-commissioning"
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="timezone" label={t('form.timezone')} rules={[{ required: true, message: t('rules.required') }]}>
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  options={zoneOptions}
                  loading={zones.isPending}
                  data-testid="plant-timezone"
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item name="currency" label={t('form.currency')}>
                <Select
                  showSearch={{ optionFilterProp: 'label' }}
                  allowClear
                  options={currencyOptions}
                  loading={currencies.isPending}
                  placeholder={t('form.currencyPlaceholder')}
                  data-testid="plant-currency"
                />
              </Form.Item>
            </Col>
          </Row>
        </Section>

        <Section title={t('form.location')}>
          <Row gutter={16}>
            <Col span={24}>
              <Form.Item
                name="address"
                label={t('form.address')}
                rules={[{ max: 255, message: t('common:validation.maxLength', { max: 255 }) }]}
              >
                <SafeInput maxLength={255} placeholder={t('form.addressPlaceholder')} data-testid="plant-address" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                name="latitude"
                label={t('form.latitude')}
                dependencies={['longitude']}
                rules={[coordinate(90, 'longitude')]}
              >
                <NumberInput className={ui.fullWidth} placeholder="37.3891" data-testid="plant-latitude" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                name="longitude"
                label={t('form.longitude')}
                dependencies={['latitude']}
                rules={[coordinate(180, 'latitude')]}
              >
                <NumberInput className={ui.fullWidth} placeholder="-5.9845" data-testid="plant-longitude" />
              </Form.Item>
            </Col>
          </Row>
        </Section>

        <Section title={t('form.income')} testId="income-section">
          <Row gutter={16}>
            <Col span={24}>
              <Form.Item name="valuationMethod" label={t('form.valuationMethod')}>
                <Radio.Group
                  optionType="button"
                  options={plantsApi.valuationMethods.map((m) => ({ value: m, label: t(`valuation.${m}`) }))}
                  data-testid="plant-valuation"
                />
              </Form.Item>
            </Col>
            {method === 'tou' ? (
              <Col span={24}>
                <Form.Item
                  name="priceSegments"
                  label={t('form.priceSegments', { max: limits.priceSegments })}
                  rules={[
                    {
                      validator: (_, v: SegmentDraft[] | undefined) =>
                        segmentProblems(v ?? []).length === 0
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('segments.invalid'))),
                    },
                  ]}
                  extra={t('segments.hint')}
                >
                  <PriceSegmentEditor unit={priceUnit} disabled={readOnly} />
                </Form.Item>
              </Col>
            ) : (
              <Col {...third}>
                <Form.Item name="price" label={t('form.price')} rules={[decimal(limits.price.min, limits.price.max)]}>
                  <NumberInput maxDecimals={2} className={ui.fullWidth} suffix={priceUnit} data-testid="plant-price" />
                </Form.Item>
              </Col>
            )}
            <Col {...third}>
              <Form.Item name="totalInvestment" label={t('form.totalInvestment')} rules={[decimal(0, limits.valueInput)]}>
                <NumberInput
                  maxDecimals={2}
                  className={ui.fullWidth}
                  suffix={currency ?? undefined}
                  data-testid="plant-investment"
                />
              </Form.Item>
            </Col>
            <Col {...third}>
              <Form.Item name="income" label={t('form.incomeTotal')} rules={[decimal(0, limits.valueInput)]}>
                <NumberInput maxDecimals={2} className={ui.fullWidth} suffix={currency ?? undefined} data-testid="plant-income" />
              </Form.Item>
            </Col>
          </Row>
        </Section>

        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Section title={t('form.contacts')}>
              <Form.Item
                name="contactName"
                label={t('form.contactName')}
                rules={[{ max: 64, message: t('common:validation.maxLength', { max: 64 }) }]}
              >
                <SafeInput maxLength={64} data-testid="plant-contact-name" />
              </Form.Item>
              <Form.Item
                name="contactPhone"
                label={t('form.contactPhone')}
                rules={[{ pattern: new RegExp(PHONE_PATTERN), message: t('rules.phone') }]}
              >
                <SafeInput allowChars="+" inputMode="tel" placeholder="+34 600 000 000" data-testid="plant-contact-phone" />
              </Form.Item>
            </Section>
          </Col>
          <Col xs={24} lg={12}>
            <Section title={t('form.picture')} fill>
              <Form.Item name="picture">
                <PictureField disabled={readOnly} />
              </Form.Item>
            </Section>
          </Col>
        </Row>

        {mode === 'create' && (
          <Section title={t('form.gateway')}>
            <Alert type="info" showIcon title={t('gateway.createHint')} className={ui.gapBelow} />
            <GatewayClaimFields form={form} snName="gatewaySn" keyName="gatewayKey" required={false} />
          </Section>
        )}

        {extra}

        {error && <Alert type="error" showIcon title={error} data-testid="plant-form-error" />}

        <Flex gap={8} justify="end">
          <Button onClick={onCancel} disabled={false} data-testid="plant-cancel">
            {readOnly ? t('form.back') : t('common:cancel')}
          </Button>
          {!readOnly && (
            <Button type="primary" htmlType="submit" loading={submitting} data-testid="plant-save">
              {mode === 'create' ? t('form.create') : t('common:save')}
            </Button>
          )}
        </Flex>
      </Flex>
    </Form>
  );
}

/** A tolerated server answer next to the field it concerns, else above the buttons. */
export function showServerError(
  form: FormInstance<PlantFormValues>,
  err: ApiError,
  setError: (text: string | null) => void,
  lan: 'en' | 'es',
) {
  if (err.code === ErrorCode.coordinates) {
    const text = errorText(ErrorCode.coordinates, lan);
    form.setFields([
      { name: 'latitude', errors: [text] },
      { name: 'longitude', errors: [text] },
    ]);
    form.scrollToField('latitude');
    return;
  }
  const gatewayField = gatewayCodeField(err.code);
  if (gatewayField) {
    const name = gatewayField === 'key' ? 'gatewayKey' : 'gatewaySn';
    form.setFields([{ name, errors: [err.message] }]);
    form.scrollToField(name);
    return;
  }
  const field = err.code === ErrorCode.validation ? fieldOfAnswer(err.fields) : null;
  if (field) {
    form.setFields([{ name: field, errors: [err.message] }]);
    form.scrollToField(field);
    return;
  }
  setError(err.message);
}
