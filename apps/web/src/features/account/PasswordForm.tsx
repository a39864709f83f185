/** Change password: old, new, confirm; 108 (old password wrong) shown inline. */
import { account } from '@sunfleet/contracts';
import { App, Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { confirmRules, passwordRules } from '../../components/formRules.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirm: string;
}

export function PasswordForm({ userId }: { userId: number }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const change = useApiMutation(account.changePassword);

  const [save, busy] = useGuardedAction(async ({ oldPassword, password }: PasswordValues) => {
    try {
      await change.mutateAsync({ params: { id: userId }, body: { oldPassword, password } });
      form.resetFields();
      message.success(t('password.changed'));
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) form.setFields([{ name: 'oldPassword', errors: [err.message] }]);
    }
  });

  return (
    <Form<PasswordValues> form={form} layout="vertical" onFinish={save} data-testid="password-form">
      <Form.Item
        name="oldPassword"
        label={t('password.old')}
        rules={[{ required: true, message: t('common:validation.passwordRequired') }]}
      >
        <PasswordInput autoComplete="current-password" data-testid="password-old" />
      </Form.Item>
      <Form.Item name="password" label={t('password.new')} rules={passwordRules(t)} extra={t('auth:passwordHint')}>
        <PasswordInput autoComplete="new-password" data-testid="password-new" />
      </Form.Item>
      <Form.Item name="confirm" label={t('password.confirm')} dependencies={['password']} rules={confirmRules(t, 'password')}>
        <PasswordInput autoComplete="new-password" data-testid="password-confirm" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="password-save">
        {t('password.submit')}
      </Button>
    </Form>
  );
}
