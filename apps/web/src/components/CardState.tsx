/** A card body's error line with a retry (cards fail one by one; the page stays). */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import parts from './parts.module.css';
import ui from './ui.module.css';

export function CardError({ error, onRetry, testId }: { error: Error | null; onRetry: () => void; testId?: string }) {
  const { t } = useTranslation('overview');
  return (
    <Flex vertical align="center" gap={8} className={parts.cardError} data-testid={testId}>
      <Typography.Text type="danger">{t('state.error')}</Typography.Text>
      {error?.message && (
        <Typography.Text type="secondary" className={ui.note}>
          {error.message}
        </Typography.Text>
      )}
      <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
        {t('common:retry')}
      </Button>
    </Flex>
  );
}
