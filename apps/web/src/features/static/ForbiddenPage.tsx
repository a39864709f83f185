/** /403: no access. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StaticLayout } from './StaticLayout.tsx';

export default function ForbiddenPage() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <StaticLayout narrow>
      <Result
        status="403"
        title="403"
        subTitle={t('forbidden.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('backHome')}
          </Button>
        }
      />
    </StaticLayout>
  );
}
