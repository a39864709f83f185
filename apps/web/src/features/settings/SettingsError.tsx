/**
 * A refusal or a failed job in the words of the settings screens: offline (1001), no answer in
 * time (1), group not supported (601), refused by the device (1008, with its reason), a value
 * refused (4, naming the field), no permission (2), not found (600/404).
 */
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { errorKind } from './form.ts';

export function SettingsError({
  code,
  message,
  hint,
  action,
}: {
  code: number | null;
  message?: string | null;
  /** What the screen knows better than the code's hint (e.g. why a batch has no group). */
  hint?: string | null;
  action?: ReactNode;
}) {
  const { t } = useTranslation('settings');
  const kind = errorKind(code);
  // The server's text adds what the title cannot say: the device's reason, the field refused.
  const detail = kind === 'refused' || kind === 'invalid' || kind === 'other' ? message : null;
  return (
    <Alert
      type={kind === 'offline' || kind === 'timeout' ? 'warning' : 'error'}
      showIcon
      title={t(`errors.${kind}`)}
      description={hint || detail || t(`errors.${kind}Hint`)}
      action={action}
      data-testid={`settings-error-${kind}`}
    />
  );
}

/** The code and text of whatever a call rejected with. */
export function errorOf(err: unknown): { code: number | null; message: string | null } {
  // A device's refusal keeps its reason: the server's own text, not the catalogue's.
  if (err instanceof ApiError) return { code: err.code, message: err.serverMessage ?? err.message };
  return { code: null, message: err instanceof Error ? err.message : null };
}
