/**
 * Register: e-mail (checked with checkAccount, 103 shown inline), e-mailed code,
 * password twice, agreement → POST /anonymous/signup → signed in automatically.
 */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { account } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useServerLanguage } from '../../api/hooks.ts';
import { homePath } from '../../app/routes.tsx';
import { CodeInput } from '../../components/CodeInput.tsx';
import { codeRules, confirmRules, emailRules, passwordRules } from '../../components/formRules.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { EmailInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { AuthLayout } from './AuthLayout.tsx';
import { signIn } from './LoginForm.tsx';
import { useVerificationCode } from './useVerificationCode.ts';

interface Registration {
  account: string;
  code: string;
  password: string;
  confirm: string;
  agree: boolean;
}

export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<Registration>();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lan = useServerLanguage();
  const { sendCode, checkOnBlur } = useVerificationCode(form, 'signup');

  const [submit, busy] = useGuardedAction(async (values: Registration) => {
    try {
      await call(account.signup, { body: { account: values.account, password: values.password, code: values.code, lan } });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) form.setFields([{ name: 'code', errors: [err.message] }]);
      return;
    }
    try {
      await signIn(values.account, values.password);
      queryClient.clear();
      message.success(t('registered'));
      navigate(homePath, { replace: true });
    } catch {
      message.success(t('registeredSignIn'));
      navigate('/login', { replace: true });
    }
  });

  return (
    <AuthLayout title={t('registerTitle')} subtitle={t('registerSubtitle')}>
      <Form<Registration>
        form={form}
        layout="vertical"
        size="large"
        onFinish={submit}
        requiredMark={false}
        data-testid="register-form"
      >
        <Form.Item name="account" label={t('email')} rules={emailRules(t)} validateTrigger={['onBlur', 'onChange']}>
          <EmailInput
            prefix={<MailOutlined />}
            placeholder={t('emailPlaceholder')}
            onBlur={checkOnBlur}
            data-testid="register-email"
          />
        </Form.Item>
        <Form.Item name="code" label={t('code')} rules={codeRules(t)}>
          <CodeInput onSend={sendCode} />
        </Form.Item>
        <Form.Item name="password" label={t('password')} rules={passwordRules(t)} extra={t('passwordHint')}>
          <PasswordInput prefix={<LockOutlined />} autoComplete="new-password" data-testid="register-password" />
        </Form.Item>
        <Form.Item name="confirm" label={t('confirmPassword')} dependencies={['password']} rules={confirmRules(t, 'password')}>
          <PasswordInput prefix={<LockOutlined />} autoComplete="new-password" data-testid="register-confirm" />
        </Form.Item>
        <Form.Item
          name="agree"
          valuePropName="checked"
          rules={[{ validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('agreeRequired')))) }]}
        >
          <Checkbox data-testid="register-agree">
            {t('agreePrefix')}{' '}
            <Link to="/register/userAgreement" target="_blank" className={ui.inlineLink}>
              {t('links.agreement')}
            </Link>
          </Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t('register')}
        </Button>
        <Flex justify="center" gap={4} className={ui.gapAbove}>
          <span>{t('haveAccount')}</span>
          <Link to="/login">{t('signIn')}</Link>
        </Flex>
      </Form>
    </AuthLayout>
  );
}
