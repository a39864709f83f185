/**
 * Loading, error and empty states shared by every page. The error states are a plain icon, title
 * and action rather than antd's Result, whose illustrations would ship with the first route.
 */
import { CloseCircleFilled, WarningFilled } from '@ant-design/icons';
import { Button, Empty, Spin } from 'antd';
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

/** A page-size message: an error (red cross) or a warning (amber sign), a title, a detail, an action. */
export function StateMessage({
  kind = 'error',
  title,
  detail,
  extra,
  testId,
}: {
  kind?: 'error' | 'warning';
  title: ReactNode;
  detail?: ReactNode;
  extra?: ReactNode;
  testId?: string;
}) {
  const Icon = kind === 'error' ? CloseCircleFilled : WarningFilled;
  return (
    <div className={parts.stateMessage} role={kind === 'error' ? 'alert' : undefined} data-testid={testId}>
      <Icon className={kind === 'error' ? parts.stateIconError : parts.stateIconWarning} aria-hidden />
      <div className={parts.stateTitle}>{title}</div>
      {detail && <div className={parts.stateDetail}>{detail}</div>}
      {extra && <div>{extra}</div>}
    </div>
  );
}

export function PageError({ error, onRetry }: { error?: ApiError | Error | null; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <StateMessage
      title={t('state.errorTitle')}
      detail={error?.message}
      extra={onRetry ? <Button onClick={onRetry}>{t('retry')}</Button> : undefined}
    />
  );
}

export function PageEmpty({ description, children }: { description?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  return <Empty description={description ?? t('state.empty')}>{children}</Empty>;
}
