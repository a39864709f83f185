/** Reset confirmation, with the way back to sign-in. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthLayout } from './AuthLayout.tsx';
import styles from './auth.module.css';

export default function ResetSuccessfulPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  return (
    <AuthLayout title={t('resetDoneTitle')}>
      <Result
        status="success"
        title={t('resetDone')}
        subTitle={t('resetDoneHint')}
        className={styles.resultCompact}
        extra={
          <Button type="primary" onClick={() => navigate('/login', { replace: true })} data-testid="back-to-login">
            {t('backToSignIn')}
          </Button>
        }
      />
    </AuthLayout>
  );
}
