/**
 * Add or edit a company account. Adding: the address is checked as it is left (104: an account
 * exists; 106: it belongs to a company), a password, the role and an optional avatar (JPG or PNG
 * by content, at most 6 MB), sent as one multipart form. Editing: the caller's own role and the
 * company administrator's role are shown but fixed ("the current role cannot be modified").
 */
import { UserOutlined } from '@ant-design/icons';
import { companyApi, EMAIL_PATTERN, ErrorCode, limits, PASSWORD_PATTERN } from '@sunfleet/contracts';
import { App, Avatar, Button, Flex, Form, Input, Modal, Radio, Select, Switch, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { imageProblem } from '../../components/imageProblem.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import { schemaRules } from '../../components/schemaRules.ts';
import type { CompanyRole, CompanyUser } from './queries.ts';

interface Values {
  account: string;
  password: string;
  name: string;
  nickname: string;
  phone: string;
  gender: 'male' | 'female' | null;
  roleId: number | null;
  enabled: boolean;
}
const fields = companyApi.AddUserFields;

export function UserDialog({
  user,
  roles,
  self,
  onClose,
  onSaved,
}: {
  user: CompanyUser | null;
  roles: readonly CompanyRole[];
  self: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('enterprise');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [avatar, setAvatar] = useState<{ file: File; preview: string } | null>(null);
  const add = useApiMutation(companyApi.addUser);
  const edit = useApiMutation(companyApi.editUser);
  const tooLong = (max: number) => t('common:validation.maxLength', { max });
  const limitMsg = t('common:validation.inputLimit');
  const roleFixed = user !== null && (user.id === self || user.kind === 'company_admin');
  const maxMb = limits.avatarBytes / 1024 / 1024;

  const accountTaken = async (account: string) => {
    if (!account || !new RegExp(EMAIL_PATTERN).test(account)) return;
    try {
      await call(companyApi.checkUser, { query: { account }, quiet: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.accountInCompany) throw new Error(t('users.inCompany'));
      if (err instanceof ApiError && err.code === ErrorCode.accountExists) throw new Error(t('users.exists'));
    }
  };

  const [save, busy] = useGuardedAction(async (v: Values) => {
    const common = {
      name: v.name?.trim() || null,
      nickname: v.nickname?.trim() || null,
      phone: v.phone?.trim() || null,
      gender: v.gender ?? null,
    };
    try {
      if (user) {
        await edit.mutateAsync({
          params: { id: user.id },
          body: { ...common, ...(roleFixed ? {} : { roleId: v.roleId ?? null }), enabled: v.enabled },
        });
      } else {
        const body = new FormData();
        body.set('account', v.account.trim());
        body.set('password', v.password);
        for (const [k, value] of Object.entries({ ...common, roleId: v.roleId })) if (value != null) body.set(k, String(value));
        if (avatar) body.set('avatar', avatar.file);
        await add.mutateAsync({ body });
      }
      message.success(t('common:saved'));
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.accountInCompany)
        form.setFields([{ name: 'account', errors: [t('users.inCompany')] }]);
      if (err instanceof ApiError && err.code === ErrorCode.accountExists)
        form.setFields([{ name: 'account', errors: [t('users.exists')] }]);
      if (err instanceof ApiError && err.code === ErrorCode.ownRoleLocked)
        form.setFields([{ name: 'roleId', errors: [t('users.ownRole')] }]);
    }
  });

  const pickAvatar = async (file: File) => {
    const problem = await imageProblem(file, limits.avatarBytes);
    if (problem) {
      message.error(problem === 'type' ? t('users.avatarType') : t('users.avatarSize', { max: maxMb }));
      return;
    }
    setAvatar({ file, preview: URL.createObjectURL(file) });
  };

  return (
    <Modal
      open
      title={user ? t('users.editTitle', { account: user.account }) : t('users.addTitle')}
      onCancel={onClose}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: busy, 'data-testid': 'user-save' }}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={save}
        data-testid="user-form"
        initialValues={{
          account: user?.account ?? '',
          password: '',
          name: user?.name ?? '',
          nickname: user?.nickname ?? '',
          phone: user?.phone ?? '',
          gender: user?.gender ?? null,
          roleId: user?.roleId ?? null,
          enabled: user?.enabled ?? true,
        }}
      >
        {user ? (
          <Form.Item label={t('users.account')}>
            <Input value={user.account} disabled />
          </Form.Item>
        ) : (
          <>
            <Flex align="center" gap={12}>
              <Avatar size={56} src={avatar?.preview} icon={<UserOutlined />} />
              <Upload
                accept=".jpg,.jpeg,.png,image/jpeg,image/png"
                showUploadList={false}
                beforeUpload={(file) => {
                  void pickAvatar(file);
                  return false;
                }}
              >
                <Button data-testid="user-avatar">{t('users.avatar')}</Button>
              </Upload>
              <Typography.Text type="secondary">{t('users.avatarHint', { max: maxMb })}</Typography.Text>
            </Flex>
            <Form.Item
              name="account"
              label={t('users.account')}
              validateTrigger="onBlur"
              rules={[
                { required: true, message: t('common:validation.emailRequired') },
                { pattern: new RegExp(EMAIL_PATTERN), message: t('common:validation.email') },
                { validator: (_, value: string) => accountTaken(value?.trim()) },
              ]}
            >
              <SafeInput allowChars="+'%" autoComplete="off" data-testid="user-account" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('users.password')}
              rules={[
                { required: true, message: t('common:validation.passwordRequired') },
                {
                  pattern: new RegExp(PASSWORD_PATTERN),
                  min: limits.password.min,
                  max: limits.password.max,
                  message: t('common:validation.password', limits.password),
                },
              ]}
            >
              <PasswordInput autoComplete="new-password" data-testid="user-password" />
            </Form.Item>
          </>
        )}
        <Form.Item
          name="name"
          label={t('users.name')}
          rules={schemaRules(fields, 'name', { max: tooLong(64), pattern: limitMsg })}
        >
          <SafeInput data-testid="user-name" />
        </Form.Item>
        <Form.Item
          name="nickname"
          label={t('users.nickname')}
          rules={schemaRules(fields, 'nickname', { max: tooLong(32), pattern: limitMsg })}
        >
          <SafeInput />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('users.phone')}
          rules={schemaRules(fields, 'phone', { pattern: t('company.phoneRule') })}
        >
          <SafeInput allowChars="+" />
        </Form.Item>
        <Form.Item name="gender" label={t('users.gender')}>
          <Radio.Group
            options={[
              { value: 'male', label: t('users.male') },
              { value: 'female', label: t('users.female') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="roleId"
          label={t('users.role')}
          extra={roleFixed ? t('users.ownRole') : undefined}
          rules={roleFixed || roles.length === 0 ? [] : [{ required: true, message: t('users.roleRequired') }]}
        >
          <Select
            disabled={roleFixed}
            placeholder={user?.kind === 'company_admin' ? t('users.admin') : t('users.pickRole')}
            options={roles.map((r) => ({ value: r.id, label: r.name }))}
            data-testid="user-role"
          />
        </Form.Item>
        {user && (
          <Form.Item name="enabled" label={t('users.state')} valuePropName="checked">
            <Switch disabled={roleFixed} checkedChildren={t('users.enabled')} unCheckedChildren={t('users.disabled')} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
