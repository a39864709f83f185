/** Loading, error and empty states shared by every page. */
import { Button, Empty, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client.ts';
import parts from './parts.module.css';
import ui from './ui.module.css';

export function PageLoading({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <div className={`${ui.centred} ${fullPage ? parts.pageLoadingFull : parts.pageLoading}`} data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

export function PageError({ error, onRetry }: { error?: ApiError | Error | null; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('state.errorTitle')}
      subTitle={error?.message}
      extra={onRetry ? <Button onClick={onRetry}>{t('retry')}</Button> : undefined}
    />
  );
}

export function PageEmpty({ description, children }: { description?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return <Empty description={description ?? t('state.empty')}>{children}</Empty>;
}
