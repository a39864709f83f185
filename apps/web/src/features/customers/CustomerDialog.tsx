/**
 * Add or edit a customer: the company's details, its type, its agent (the agent company's
 * administrator account), its administrator account and password (when added), and what it may
 * be granted (a checkable tree; a new customer starts from its type's). The contract's rules
 * check each field as it is typed; a name or account taken (203, 104) shows under the field when
 * it is left, and an agent refused (900, 901, 902, 202) under the agent.
 */
import { customersApi as api, EMAIL_PATTERN, ErrorCode, PHONE_PATTERN } from '@sunfleet/contracts';
import { App, Button, Col, Form, Input, Modal, Row, Select, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { emailRules, passwordRules } from '../../components/formRules.ts';
import { PageError } from '../../components/PageState.tsx';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { EmailInput, SafeInput } from '../../components/SafeInput.tsx';
import { schemaRules } from '../../components/schemaRules.ts';
import { type CustomerRow, typeLabel, useInvalidateCustomers, useTypePicks } from './customerQueries.ts';
import { PermissionPicker } from './PermissionPicker.tsx';

interface Values {
  name: string;
  account?: string;
  password?: string;
  contactName?: string;
  email?: string;
  phone?: string;
  address?: string;
  customerTypeId?: number;
  agentAccount?: string;
  permissions: string[];
}

const agentCodes: ReadonlySet<number> = new Set([
  ErrorCode.ownAgent,
  ErrorCode.employeeAgent,
  ErrorCode.managersManager,
  ErrorCode.agentExists,
]);
const blank = (v: string | undefined) => (v?.trim() ? v.trim() : null);

/** `customer`: null to add one, a row to edit it. */
export function CustomerDialog({ customer, onClose }: { customer: CustomerRow | null; onClose: () => void }) {
  const { t } = useTranslation('customers');
  const editing = customer !== null;
  const role = useApiQuery(api.customerRole, { params: { customerId: customer?.id ?? 0 } }, { enabled: editing, gcTime: 0 });
  return (
    <Modal
      open
      title={editing ? t('dialog.editTitle', { name: customer.name }) : t('dialog.addTitle')}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
    >
      {editing && role.isPending ? (
        <Skeleton active />
      ) : editing && role.isError ? (
        <PageError error={role.error} onRetry={() => void role.refetch()} />
      ) : (
        <CustomerForm customer={customer} permissions={role.data ?? []} onClose={onClose} />
      )}
    </Modal>
  );
}

function CustomerForm({
  customer,
  permissions,
  onClose,
}: {
  customer: CustomerRow | null;
  permissions: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation('customers');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const types = useTypePicks();
  const invalidate = useInvalidateCustomers();
  const [permissionsTouched, setPermissionsTouched] = useState(false);
  const editing = customer !== null;
  const body = editing ? api.CustomerEdit : api.CustomerCreate;
  const ruleText = { max: t('rules.tooLong'), pattern: t('rules.pattern') };

  const initial = useMemo<Values>(
    () =>
      customer
        ? {
            name: customer.name,
            contactName: customer.contactName ?? '',
            email: customer.email ?? '',
            phone: customer.phone ?? '',
            address: customer.address ?? '',
            customerTypeId: customer.customerType?.id,
            agentAccount: customer.agent?.account ?? '',
            permissions,
          }
        : { name: '', permissions: [] },
    [customer, permissions],
  );
  useEffect(() => form.setFieldsValue(initial), [form, initial]);

  // A new customer starts from its type's permissions until they are changed by hand.
  const typeChanged = async (id: number) => {
    if (editing || permissionsTouched) return;
    try {
      const type = await call(api.getCustomerType, { params: { id } });
      form.setFieldValue('permissions', type.permissions);
    } catch {
      // The client has shown the error; the tree stays as it was.
    }
  };

  const checkTaken = async (field: 'name' | 'account') => {
    const value = form.getFieldValue(field)?.trim();
    if (!value || form.getFieldError(field).length > 0) return;
    try {
      await call(api.checkCustomer, { query: { [field]: value, ...(customer ? { id: customer.id } : {}) } });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) form.setFields([{ name: field, errors: [err.message] }]);
    }
  };

  const [save, saving] = useGuardedAction(async (v: Values) => {
    const fields = {
      name: v.name.trim(),
      contactName: blank(v.contactName),
      email: blank(v.email),
      phone: blank(v.phone),
      address: blank(v.address),
      customerTypeId: v.customerTypeId!,
      // An agent whose company has no administrator left shows empty: left empty, it stays.
      agentAccount: customer?.agent && !customer.agent.account && !blank(v.agentAccount) ? undefined : blank(v.agentAccount),
      permissions: v.permissions ?? [],
    };
    // Bad input (4) is handled here too: an agent account that is not an administrator's shows under the agent.
    const tolerate = [ErrorCode.validation];
    try {
      if (customer) await call(api.editCustomer, { params: { customerId: customer.id }, body: fields, tolerate });
      else await call(api.createCustomer, { body: { ...fields, account: v.account!.trim(), password: v.password! }, tolerate });
      await invalidate();
      message.success(t(customer ? 'dialog.saved' : 'dialog.added', { name: fields.name }));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError && err.tolerated)) return;
      if (err.code === ErrorCode.validation && err.fields.includes('agentAccount')) {
        form.setFields([{ name: 'agentAccount', errors: [t('dialog.agentNotAdmin')] }]);
        return;
      }
      const field =
        err.code === ErrorCode.companyNameTaken
          ? 'name'
          : err.code === ErrorCode.accountExists
            ? 'account'
            : agentCodes.has(err.code)
              ? 'agentAccount'
              : null;
      if (field) form.setFields([{ name: field, errors: [err.message] }]);
      else message.error(err.serverMessage ?? err.message);
    }
  });

  if (types.isError) return <PageError error={types.error} onRetry={() => void types.refetch()} />;
  const typeOptions = (types.data ?? []).map((p) => ({ value: p.id, label: typeLabel(p, types.data ?? []) }));

  return (
    <Form<Values> form={form} layout="vertical" initialValues={initial} requiredMark data-testid="customer-form" onFinish={save}>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="name"
            label={t('fields.name')}
            validateFirst
            rules={[
              { required: true, whitespace: true, message: t('rules.nameRequired') },
              ...schemaRules(body, 'name', ruleText),
            ]}
          >
            <SafeInput onBlur={() => void checkTaken('name')} data-testid="customer-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="customerTypeId"
            label={t('fields.type')}
            rules={[{ required: true, message: t('rules.typeRequired') }]}
          >
            <Select
              options={typeOptions}
              loading={types.isPending}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(id: number) => void typeChanged(id)}
              data-testid="customer-type"
            />
          </Form.Item>
        </Col>
        {!editing && (
          <>
            <Col xs={24} md={12}>
              <Form.Item
                name="account"
                label={t('fields.account')}
                rules={emailRules(t)}
                validateFirst
                extra={t('dialog.accountHint')}
              >
                <EmailInput onBlur={() => void checkTaken('account')} data-testid="customer-account" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="password" label={t('fields.password')} rules={passwordRules(t)} validateFirst>
                <PasswordInput autoComplete="new-password" data-testid="customer-password" />
              </Form.Item>
            </Col>
          </>
        )}
        <Col xs={24} md={12}>
          <Form.Item name="contactName" label={t('fields.contactName')} rules={schemaRules(body, 'contactName', ruleText)}>
            <SafeInput data-testid="customer-contact" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="email"
            label={t('fields.email')}
            rules={[{ pattern: new RegExp(EMAIL_PATTERN), message: t('validation.email') }]}
          >
            <EmailInput data-testid="customer-email" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="phone"
            label={t('fields.phone')}
            rules={[{ pattern: new RegExp(PHONE_PATTERN), message: t('rules.phone') }]}
          >
            <Input maxLength={20} inputMode="tel" data-testid="customer-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="agentAccount"
            label={t('fields.agent')}
            extra={t('dialog.agentHint')}
            rules={[{ pattern: new RegExp(EMAIL_PATTERN), message: t('validation.email') }]}
          >
            <EmailInput data-testid="customer-agent" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="address" label={t('fields.address')} rules={schemaRules(body, 'address', ruleText)}>
            <SafeInput data-testid="customer-address" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="permissions" label={t('fields.permissions')} extra={t('dialog.permissionsHint')}>
            <PermissionPicker onChange={() => setPermissionsTouched(true)} />
          </Form.Item>
        </Col>
      </Row>
      <DialogButtons saving={saving} onCancel={onClose} />
    </Form>
  );
}

function DialogButtons({ saving, onCancel }: { saving: boolean; onCancel: () => void }) {
  const { t } = useTranslation('customers');
  return (
    <Row justify="end" gutter={8}>
      <Col>
        <Button onClick={onCancel}>{t('common:cancel')}</Button>
      </Col>
      <Col>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="customer-save">
          {t('dialog.save')}
        </Button>
      </Col>
    </Row>
  );
}
