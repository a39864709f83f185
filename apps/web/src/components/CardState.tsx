/**
 * Cards that load on their own: the error line with a retry (cards fail one by one; the page
 * stays), and a live card's frame (title, the time of its data, skeleton, error).
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
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

/**
 * A card of live data filling its column: the time of the data at the right of the title, a
 * skeleton of `rows` lines while the first answer comes (in a block of `reserve`'s size when
 * given: the size of the body to come, so nothing below moves when it arrives), the error with a
 * retry when none came, else its body.
 */
export function LiveCard({
  title,
  testId,
  updated,
  updatedTestId,
  pending,
  error,
  hasData,
  onRetry,
  rows,
  reserve,
  errorTestId,
  children,
}: {
  title: ReactNode;
  testId: string;
  updated: ReactNode | null;
  updatedTestId?: string;
  pending: boolean;
  error: Error | null;
  hasData: boolean;
  onRetry: () => void;
  rows: number;
  /** A class giving the skeleton's block the body's size. */
  reserve?: string;
  errorTestId: string;
  children: () => ReactNode;
}) {
  return (
    <Card
      title={title}
      size="small"
      className={ui.fill}
      data-testid={testId}
      extra={
        updated ? (
          <Typography.Text type="secondary" className={ui.note} data-testid={updatedTestId}>
            {updated}
          </Typography.Text>
        ) : null
      }
    >
      {pending ? (
        <div className={reserve} data-testid={`${testId}-pending`}>
          <Skeleton active paragraph={{ rows }} />
        </div>
      ) : error && !hasData ? (
        <CardError error={error} onRetry={onRetry} testId={errorTestId} />
      ) : (
        children()
      )}
    </Card>
  );
}
