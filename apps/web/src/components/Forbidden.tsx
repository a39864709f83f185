/** The 403 content: title, what it means, and a way back (the previous page, the start page). */
import { Button, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function Forbidden() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  // An address typed into a new tab has no page before it: then only the start page.
  const canGoBack = window.history.length > 1;
  return (
    <div data-testid="forbidden">
      <Result
        status="403"
        title={t('forbidden.title')}
        subTitle={t('forbidden.subtitle')}
        extra={
          <Flex gap={8} justify="center" wrap>
            {canGoBack && (
              <Button onClick={() => navigate(-1)} data-testid="forbidden-back">
                {t('back')}
              </Button>
            )}
            <Button type="primary" onClick={() => navigate('/', { replace: true })} data-testid="forbidden-home">
              {t('backHome')}
            </Button>
          </Flex>
        }
      />
    </div>
  );
}
