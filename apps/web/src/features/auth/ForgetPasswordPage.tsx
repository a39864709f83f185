/** Reset password: e-mail, e-mailed code, new password twice → POST /anonymous/resetPwd. */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { account } from '@sunfleet/contracts';
import { Button, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { codeRules, confirmRules, emailRules, passwordRules } from '../../components/formRules.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { EmailInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { AuthLayout } from './AuthLayout.tsx';
import { useVerificationCode } from './useVerificationCode.ts';

interface Reset {
  account: string;
  code: string;
  password: string;
  confirm: string;
}

export default function ForgetPasswordPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<Reset>();
  const navigate = useNavigate();
  const { sendCode } = useVerificationCode(form, 'reset');

  const [submit, busy] = useGuardedAction(async (values: Reset) => {
    try {
      await call(account.resetPwd, { body: { account: values.account, password: values.password, code: values.code } });
      navigate('/resetSuccessful', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) form.setFields([{ name: 'code', errors: [err.message] }]);
    }
  });

  return (
    <AuthLayout title={t('resetTitle')} subtitle={t('resetSubtitle')}>
      <Form<Reset> form={form} layout="vertical" size="large" onFinish={submit} requiredMark={false} data-testid="reset-form">
        <Form.Item name="account" label={t('email')} rules={emailRules(t)}>
          <EmailInput prefix={<MailOutlined />} placeholder={t('emailPlaceholder')} data-testid="reset-email" />
        </Form.Item>
        <Form.Item name="code" label={t('code')} rules={codeRules(t)}>
          <CodeInput onSend={sendCode} />
        </Form.Item>
        <Form.Item name="password" label={t('newPassword')} rules={passwordRules(t)} extra={t('passwordHint')}>
          <PasswordInput prefix={<LockOutlined />} autoComplete="new-password" data-testid="reset-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('confirmPassword')} dependencies={['password']} rules={confirmRules(t, 'password')}>
          <PasswordInput prefix={<LockOutlined />} autoComplete="new-password" data-testid="reset-confirm" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="reset-submit">
          {t('resetSubmit')}
        </Button>
        <Flex justify="center" className={ui.gapAbove}>
          <Link to="/login">{t('backToSignIn')}</Link>
        </Flex>
      </Form>
    </AuthLayout>
  );
}
