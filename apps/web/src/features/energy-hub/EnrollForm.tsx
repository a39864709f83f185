/**
 * The enrolment form of one programme, in a modal: the terms (a link to the PDF and the box that
 * accepts them; nothing can be sent before), contact, service and mailing address, the two account
 * numbers checked with the contract's rules, a plant of the caller's and its storage inverters
 * with what the portal knows of them (the capacities editable). The server's refusals (a device
 * already used, an account already bound, …) show as its message.
 */
import { demandResponseApi as api, type DataOf } from '@sunfleet/contracts';
import { Alert, Checkbox, Col, Form, Input, Modal, Row, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useProfile } from '../../api/hooks.ts';
import { DevicePicker, useDeviceChoices } from './DevicePicker.tsx';
import css from './energyHub.module.css';
import { type Programme, useEnroll } from './queries.ts';

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
  const picker = useDeviceChoices();
  const enroll = useEnroll();
  const [error, setError] = useState<string | null>(null);
  const termsAccepted = Form.useWatch('termsAccepted', form);
  const sameAddress = Form.useWatch('sameAddress', form);

  useEffect(() => {
    if (profile.data && !form.getFieldValue('email')) form.setFieldValue('email', profile.data.account);
  }, [profile.data, form]);

  const submit = async () => {
    setError(null);
    // The fields show what is wrong; nothing is sent.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const incomplete = picker.incomplete();
    if (incomplete) return setError(t('form.capacityMissing', { sn: incomplete }));
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
          ...(picker.stationId !== null ? { stationId: picker.stationId } : {}),
          devices: picker.chosen(),
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
        <DevicePicker picker={picker} testId="enrol-plant" />
        {error && <Alert type="error" showIcon message={error} data-testid="enrol-error" className={css.gapAbove} />}
      </Form>
    </Modal>
  );
}
