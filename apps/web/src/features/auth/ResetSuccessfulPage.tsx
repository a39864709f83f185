/** Reset confirmation, with the way back to sign-in. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from './AuthLayout.tsx';

export default function ResetSuccessfulPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <AuthLayout title={t('resetDoneTitle')}>
      <Result
        status="success"
        title={t('resetDone')}
        subTitle={t('resetDoneHint')}
        style={{ padding: '8px 0' }}
        extra={
          <Button type="primary" onClick={() => navigate('/login', { replace: true })} data-testid="back-to-login">
            {t('backToSignIn')}
          </Button>
        }
      />
    </AuthLayout>
  );
}
