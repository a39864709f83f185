/** The catch-all page inside the shell. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <div data-testid="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.subtitle')}
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('backHome')}
          </Button>
        }
      />
    </div>
  );
}
