/** The input-limit notices: one toast at a time per kind, not one per keystroke. */
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export type InputNotice = 'inputLimit' | 'passwordInputLimit';

export function useInputNotice(): (kind: InputNotice) => void {
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (kind: InputNotice) => {
      message.open({ type: 'warning', key: kind, content: t(`validation.${kind}`) });
    },
    [message, t],
  );
}
