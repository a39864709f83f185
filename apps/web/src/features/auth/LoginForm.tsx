/** The sign-in form: e-mail and password → POST /oauth/token; 101/102 shown inline. */
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { account } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { storeTokens } from '../../api/session.ts';
import { homePath } from '../../app/routes.tsx';
import { emailRules } from '../../components/formRules.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { EmailInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import styles from './auth.module.css';

interface Credentials {
  username: string;
  password: string;
}

/** Sign in and keep the tokens; resolves false on a business error the form shows. */
export async function signIn(username: string, password: string): Promise<void> {
  const tokens = await call(account.token, { body: { grant_type: 'password', username, password } });
  storeTokens(tokens);
}

export function LoginForm() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const from = (location.state as { from?: string } | null)?.from;

  const [submit, busy] = useGuardedAction(async ({ username, password }: Credentials) => {
    setError(null);
    try {
      await signIn(username, password);
      queryClient.clear();
      navigate(from && from !== '/' && from !== '/login' ? from : homePath, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) setError(err.message);
    }
  });

  return (
    <Form<Credentials> layout="vertical" size="large" onFinish={submit} requiredMark={false} data-testid="login-form">
      {error && <Alert type="error" title={error} showIcon className={ui.gapBelow} data-testid="login-error" />}
      <Form.Item name="username" label={t('email')} rules={emailRules(t)}>
        <EmailInput prefix={<MailOutlined />} placeholder={t('emailPlaceholder')} data-testid="login-email" autoFocus />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('password')}
        rules={[{ required: true, message: t('common:validation.passwordRequired') }]}
      >
        <PasswordInput
          prefix={<LockOutlined />}
          placeholder={t('passwordPlaceholder')}
          autoComplete="current-password"
          data-testid="login-password"
        />
      </Form.Item>
      <Flex justify="flex-end" className={styles.forgotRow}>
        <Link to="/forget">{t('forgotPassword')}</Link>
      </Flex>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
        {t('signIn')}
      </Button>
      <Flex justify="center" gap={4} className={ui.gapAbove}>
        <span>{t('noAccount')}</span>
        <Link to="/reg" data-testid="register-link">
          {t('register')}
        </Link>
      </Flex>
    </Form>
  );
}
