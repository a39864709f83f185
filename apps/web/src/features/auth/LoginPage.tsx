import { useTranslation } from 'react-i18next';
import { AuthLayout } from './AuthLayout.tsx';
import { LoginForm } from './LoginForm.tsx';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  return (
    <AuthLayout title={t('signInTitle')} subtitle={t('signInSubtitle')}>
      <LoginForm />
    </AuthLayout>
  );
}
