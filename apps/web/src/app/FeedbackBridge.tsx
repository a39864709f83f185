/** Wires the API client to Ant Design's toasts and dialogs (themed, translated). */
import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { configureClient } from '../api/client.ts';

export function FeedbackBridge() {
  const { message, modal } = App.useApp();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    configureClient({
      toast: (text, level) => {
        message.open({ type: level, content: text, key: text });
      },
      confirmServerDown: (text) =>
        new Promise<void>((resolve) => {
          modal.confirm({
            title: t('serverDown.title'),
            content: text,
            okText: t('serverDown.reload'),
            cancelText: t('cancel'),
            onOk: () => window.location.reload(),
            afterClose: resolve,
          });
        }),
      language: () => i18n.language,
    });
  }, [message, modal, t, i18n]);
  return null;
}
