/**
 * The enrolment form of one programme, in a modal: the terms (a link to the PDF and the box that
 * accepts them; nothing can be sent before), contact, service and mailing address, the two account
 * numbers checked with the contract's rules, a plant of the caller's and its storage inverters
 * with what the portal knows of them (the capacities editable). The server's refusals (a device
 * already used, an account already bound, …) show as its message.
 */
import { demandResponseApi as api, type DataOf } from '@sunfleet/contracts';
import { Alert, Checkbox, Col, Form, Input, Modal, Row, Select, Table, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useProfile } from '../../api/hooks.ts';
import { NumberInput } from '../../components/NumberInput.tsx';
import css from './energyHub.module.css';
import { type Programme, type StationDevice, useEnroll, useStationDevices, useStations } from './queries.ts';

type Body = DataOf<typeof api.getEnrollment>;
interface AddressFields {
  country: string;
  region: string;
  locality: string;
  extendedAddress?: string;
  streetAddress: string;
  postalCode: string;
}
interface Fields {
  email: string;
  firstName: string;
  lastName: string;
  service: AddressFields;
  mailing: AddressFields;
  sameAddress: boolean;
  sourceAccount: string;
  utilityAccount: string;
  termsAccepted: boolean;
}
type DeviceChoice = StationDevice & { chosen: boolean };

const trimmed = (a: AddressFields) => ({
  country: a.country.trim(),
  region: a.region.trim(),
  locality: a.locality.trim(),
  ...(a.extendedAddress?.trim() ? { extendedAddress: a.extendedAddress.trim() } : {}),
  streetAddress: a.streetAddress.trim(),
  postalCode: a.postalCode.trim(),
});

function AddressFieldset({ prefix }: { prefix: 'service' | 'mailing' }) {
  const { t } = useTranslation('energyHub');
  const required = [{ required: true, whitespace: true }];
  const field = (name: keyof AddressFields, max: number, span = 12, optional = false) => (
    <Col span={span}>
      <Form.Item name={[prefix, name]} label={t(`form.${name}`)} rules={optional ? [] : required}>
        <Input maxLength={max} data-testid={`${prefix}-${name}`} />
      </Form.Item>
    </Col>
  );
  return (
    <Row gutter={12}>
      {field('streetAddress', 128, 16)}
      {field('extendedAddress', 128, 8, true)}
      {field('locality', 128, 8)}
      {field('region', 128, 8)}
      {field('postalCode', 16, 4)}
      {field('country', 64, 4)}
    </Row>
  );
}

export function EnrollForm({
  programme,
  onClose,
  onDone,
}: {
  programme: Programme;
  onClose: () => void;
  onDone: (e: Body) => void;
}) {
  const { t } = useTranslation('energyHub');
  const [form] = Form.useForm<Fields>();
  const profile = useProfile();
  const stations = useStations(profile.data?.id ?? null);
  const [stationId, setStationId] = useState<number | null>(null);
  const stationDevices = useStationDevices(stationId);
  const [devices, setDevices] = useState<DeviceChoice[]>([]);
  const enroll = useEnroll();
  const [error, setError] = useState<string | null>(null);
  const termsAccepted = Form.useWatch('termsAccepted', form);
  const sameAddress = Form.useWatch('sameAddress', form);

  useEffect(() => {
    if (stations.data?.length && stationId === null) setStationId(stations.data[0]!.id);
  }, [stations.data, stationId]);
  useEffect(() => {
    setDevices((stationDevices.data ?? []).map((d) => ({ ...d, chosen: !d.enrolled })));
  }, [stationDevices.data]);
  useEffect(() => {
    if (profile.data && !form.getFieldValue('email')) form.setFieldValue('email', profile.data.account);
  }, [profile.data, form]);

  const update = useCallback(
    (sn: string, change: Partial<DeviceChoice>) => setDevices((all) => all.map((d) => (d.sn === sn ? { ...d, ...change } : d))),
    [],
  );
  const columns = useMemo(
    () => [
      {
        title: '',
        key: 'chosen',
        width: 40,
        render: (_: unknown, d: DeviceChoice) => (
          <Checkbox
            aria-label={d.sn}
            checked={d.chosen}
            disabled={d.enrolled}
            onChange={(e) => update(d.sn, { chosen: e.target.checked })}
          />
        ),
      },
      {
        title: 'SN',
        dataIndex: 'sn',
        key: 'sn',
        render: (sn: string, d: DeviceChoice) => (d.enrolled ? `${sn} (${t('form.enrolled')})` : sn),
      },
      { title: t('form.model'), dataIndex: 'model', key: 'model' },
      ...(['chargeCapacity', 'dischargeCapacity', 'storageCapacity'] as const).map((k) => ({
        title: t(`form.${k}`),
        key: k,
        width: 120,
        render: (_: unknown, d: DeviceChoice) => (
          <NumberInput
            aria-label={`${d.sn} ${t(`form.${k}`)}`}
            min={0}
            max={10000}
            maxDecimals={2}
            value={d[k] ?? undefined}
            disabled={!d.chosen}
            onChange={(v) => update(d.sn, { [k]: typeof v === 'number' ? v : null })}
          />
        ),
      })),
    ],
    [t, update],
  );

  const submit = async () => {
    setError(null);
    const v = await form.validateFields();
    const chosen = devices.filter((d) => d.chosen && !d.enrolled);
    try {
      const done = await enroll.mutateAsync({
        body: {
          programId: programme.id,
          email: v.email.trim(),
          firstName: v.firstName.trim(),
          lastName: v.lastName.trim(),
          serviceAddress: trimmed(v.service),
          mailingAddress: trimmed(v.sameAddress ? v.service : v.mailing),
          sourceAccount: v.sourceAccount.trim(),
          utilityAccount: v.utilityAccount.trim(),
          termsAccepted: true,
          ...(stationId !== null ? { stationId } : {}),
          devices: chosen.map((d) => ({
            sn: d.sn,
            manufacturer: d.manufacturer,
            model: d.model,
            ...(d.installDate ? { installDate: d.installDate } : {}),
            chargeCapacity: d.chargeCapacity ?? 0,
            dischargeCapacity: d.dischargeCapacity ?? 0,
            storageCapacity: d.storageCapacity ?? 0,
          })),
        },
      });
      onDone(done);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  return (
    <Modal
      open
      width={880}
      title={t('form.title', { programme: programme.name })}
      okText={t('form.submit')}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ disabled: !termsAccepted, loading: enroll.isPending, ...{ 'data-testid': 'enrol-submit' } }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ sameAddress: true, termsAccepted: false }} data-testid="enrol-form">
        {programme.termsUrl && (
          <Typography.Paragraph>
            <a href={programme.termsUrl} target="_blank" rel="noreferrer">
              {t('form.readTerms')}
            </a>
          </Typography.Paragraph>
        )}
        <Form.Item name="termsAccepted" valuePropName="checked">
          <Checkbox data-testid="accept-terms">{t('form.acceptTerms')}</Checkbox>
        </Form.Item>
        <Typography.Title level={5}>{t('form.contact')}</Typography.Title>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="email" label={t('form.email')} rules={[{ required: true, type: 'email' }]}>
              <Input maxLength={254} data-testid="enrol-email" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="firstName" label={t('form.firstName')} rules={[{ required: true, whitespace: true }]}>
              <Input maxLength={64} data-testid="enrol-first-name" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="lastName" label={t('form.lastName')} rules={[{ required: true, whitespace: true }]}>
              <Input maxLength={64} data-testid="enrol-last-name" />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>{t('form.serviceAddress')}</Typography.Title>
        <AddressFieldset prefix="service" />
        <Form.Item name="sameAddress" valuePropName="checked">
          <Checkbox>{t('form.sameAsService')}</Checkbox>
        </Form.Item>
        {!sameAddress && (
          <>
            <Typography.Title level={5}>{t('form.mailingAddress')}</Typography.Title>
            <AddressFieldset prefix="mailing" />
          </>
        )}
        <Typography.Title level={5}>{t('form.accounts')}</Typography.Title>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item
              name="sourceAccount"
              label={t('form.sourceAccount')}
              extra={t('form.sourceAccountRule')}
              rules={[{ required: true, pattern: new RegExp(api.SOURCE_ACCOUNT_PATTERN), message: t('form.sourceAccountRule') }]}
            >
              <Input maxLength={32} inputMode="numeric" data-testid="enrol-source-account" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="utilityAccount"
              label={t('form.utilityAccount')}
              extra={t('form.utilityAccountRule')}
              rules={[
                { required: true, pattern: new RegExp(api.UTILITY_ACCOUNT_PATTERN), message: t('form.utilityAccountRule') },
              ]}
            >
              <Input maxLength={16} data-testid="enrol-utility-account" />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>{t('form.devices')}</Typography.Title>
        <Form.Item label={t('form.plant')}>
          <Select
            data-testid="enrol-plant"
            value={stationId ?? undefined}
            loading={stations.isPending}
            onChange={(v: number) => setStationId(v)}
            options={(stations.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.storageDevices})` }))}
          />
        </Form.Item>
        {stationId !== null && !stationDevices.isPending && devices.length === 0 ? (
          <Alert type="info" showIcon message={t('form.noStorage')} />
        ) : (
          <Table<DeviceChoice>
            size="small"
            rowKey="sn"
            pagination={false}
            loading={stationDevices.isFetching}
            columns={columns}
            dataSource={devices}
          />
        )}
        {error && <Alert type="error" showIcon message={error} data-testid="enrol-error" className={css.gapAbove} />}
      </Form>
    </Modal>
  );
}
