/**
 * /enterprise/company (company.info): the company's details (edited with company.info.edit;
 * 203 when another company has the name), its logo, icon and theme colour (applied to the whole
 * portal for every account of the company), and, for administrators, the way to the audit log.
 */
import { companyApi, ErrorCode } from '@sunfleet/contracts';
import { App, Button, Card, Descriptions, Flex, Form, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { useShell } from '../../app/shell/shellContext.ts';
import { PageError, PageLoading } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Can, useMayCall } from '../../components/Permission.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import { schemaRules } from '../../components/schemaRules.ts';
import ui from '../../components/ui.module.css';
import { BrandCard } from './BrandCard.tsx';
import { type CompanyInfo, useCompany, useCompanyChanged } from './queries.ts';

interface Values {
  name: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
}
const body = companyApi.editCompany.body;

export default function CompanyPage() {
  const { t } = useTranslation('enterprise');
  const company = useCompany();
  const { profile } = useShell();
  const mayCall = useMayCall();
  const [editing, setEditing] = useState(false);
  const mayReadAudit = (profile.kind === 'sysadmin' || profile.kind === 'company_admin') && mayCall(companyApi.adminAudit);

  if (company.isPending) return <PageLoading />;
  if (company.isError) return <PageError error={company.error} onRetry={() => void company.refetch()} />;
  const c = company.data;
  return (
    <Flex vertical gap={16} data-testid="company-page">
      <Card>
        <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
          <PageTitle>{t('menu:companyInfo')}</PageTitle>
          <Space wrap>
            {mayReadAudit && (
              <Link to="/management/audit" data-testid="audit-link">
                {t('company.auditLog')}
              </Link>
            )}
            {!editing && (
              <Can call={companyApi.editCompany}>
                <Button type="primary" onClick={() => setEditing(true)} data-testid="company-edit">
                  {t('company.edit')}
                </Button>
              </Can>
            )}
          </Space>
        </Flex>
        {editing ? (
          <CompanyForm company={c} onDone={() => setEditing(false)} />
        ) : (
          <Descriptions column={{ xs: 1, md: 2 }} data-testid="company-details">
            <Descriptions.Item label={t('company.name')}>{c.name}</Descriptions.Item>
            <Descriptions.Item label={t('company.contactName')}>{c.contactName || '--'}</Descriptions.Item>
            <Descriptions.Item label={t('company.email')}>{c.email || '--'}</Descriptions.Item>
            <Descriptions.Item label={t('company.phone')}>{c.phone || '--'}</Descriptions.Item>
            <Descriptions.Item label={t('company.address')}>{c.address || '--'}</Descriptions.Item>
            <Descriptions.Item label={t('company.accounts')}>
              {`${t('company.accountCount', { count: c.users })} · ${t('company.roleCount', { count: c.roles })}`}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <BrandCard company={c} />
    </Flex>
  );
}

function CompanyForm({ company, onDone }: { company: CompanyInfo; onDone: () => void }) {
  const { t } = useTranslation('enterprise');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const edit = useApiMutation(companyApi.editCompany);
  const changed = useCompanyChanged();
  const tooLong = (max: number) => t('common:validation.maxLength', { max });
  const limitMsg = t('common:validation.inputLimit');

  const [save, busy] = useGuardedAction(async (v: Values) => {
    try {
      const next = await edit.mutateAsync({
        params: { id: company.id },
        body: {
          name: v.name.trim(),
          contactName: v.contactName?.trim() || null,
          email: v.email?.trim() || null,
          phone: v.phone?.trim() || null,
          address: v.address?.trim() || null,
        },
      });
      changed(next);
      message.success(t('common:saved'));
      onDone();
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.companyNameTaken)
        form.setFields([{ name: 'name', errors: [t('company.nameTaken')] }]);
    }
  });

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      onFinish={save}
      data-testid="company-form"
      initialValues={{
        name: company.name,
        contactName: company.contactName ?? '',
        email: company.email ?? '',
        phone: company.phone ?? '',
        address: company.address ?? '',
      }}
      className={ui.fullWidth}
    >
      <Form.Item
        name="name"
        label={t('company.name')}
        rules={[
          { required: true, whitespace: true, message: t('company.nameRequired') },
          ...schemaRules(body, 'name', { max: tooLong(companyApi.companyLimits.name), pattern: limitMsg }),
        ]}
      >
        <SafeInput data-testid="company-name" />
      </Form.Item>
      <Form.Item
        name="contactName"
        label={t('company.contactName')}
        rules={schemaRules(body, 'contactName', { max: tooLong(companyApi.companyLimits.contactName), pattern: limitMsg })}
      >
        <SafeInput />
      </Form.Item>
      <Form.Item name="email" label={t('company.email')} rules={[{ type: 'email', message: t('common:validation.email') }]}>
        <SafeInput allowChars="+'%" />
      </Form.Item>
      <Form.Item name="phone" label={t('company.phone')} rules={schemaRules(body, 'phone', { pattern: t('company.phoneRule') })}>
        <SafeInput allowChars="+" />
      </Form.Item>
      <Form.Item
        name="address"
        label={t('company.address')}
        rules={schemaRules(body, 'address', { max: tooLong(companyApi.companyLimits.address), pattern: limitMsg })}
      >
        <SafeInput />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="company-save">
          {t('common:save')}
        </Button>
        <Button onClick={onDone}>{t('common:cancel')}</Button>
      </Space>
    </Form>
  );
}
