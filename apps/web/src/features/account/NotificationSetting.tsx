/**
 * Abnormal-event e-mail notifications: switching on needs a code e-mailed to the
 * address (`GET user/notify/code`, then `POST user/notify` with it); switching off does not.
 */
import { account, type DataOf } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Flex, Form, Modal, Skeleton, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { endpointKey, useApiMutation, useApiQuery } from '../../api/hooks.ts';
import type { UserProfile } from '../../app/shell/shellContext.ts';
import { CodeInput } from '../../components/CodeInput.tsx';
import { codeRules, emailRules } from '../../components/formRules.ts';
import { PageError } from '../../components/PageState.tsx';
import { EmailInput } from '../../components/SafeInput.tsx';

interface EnableValues {
  email: string;
  code: string;
}
type NotifySettings = DataOf<typeof account.getNotify>;

export function NotificationSetting({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useApiQuery(account.getNotify, {});
  const save = useApiMutation(account.setNotify);
  const [enabling, setEnabling] = useState(false);
  const [form] = Form.useForm<EnableValues>();

  const store = (next: NotifySettings) => queryClient.setQueryData(endpointKey(account.getNotify, {}), next);

  if (settings.isPending) return <Skeleton active paragraph={{ rows: 1 }} />;
  if (settings.isError) return <PageError error={settings.error} onRetry={() => void settings.refetch()} />;

  const switchOff = async () => {
    try {
      store(await save.mutateAsync({ body: { enable: false } }));
      message.success(t('notify.off'));
    } catch {
      // Reported by the client.
    }
  };

  const sendCode = async () => {
    try {
      const { email } = await form.validateFields(['email']);
      await call(account.notifyCode, { query: { email } });
      message.success(t('auth:codeSent', { email }));
      return true;
    } catch {
      return false;
    }
  };

  const confirmEnable = async () => {
    const { email, code } = await form.validateFields();
    try {
      store(await save.mutateAsync({ body: { enable: true, email, code } }));
      setEnabling(false);
      message.success(t('notify.on'));
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) form.setFields([{ name: 'code', errors: [err.message] }]);
    }
  };

  return (
    <>
      <Flex justify="space-between" align="center" gap={16}>
        <div>
          <Typography.Text strong>{t('notify.label')}</Typography.Text>
          <br />
          <Typography.Text type="secondary">
            {settings.data.enabled ? t('notify.sendingTo', { email: settings.data.email ?? profile.account }) : t('notify.hint')}
          </Typography.Text>
        </div>
        <Switch
          checked={settings.data.enabled}
          loading={save.isPending}
          onChange={(on) => (on ? setEnabling(true) : void switchOff())}
          aria-label={t('notify.label')}
          data-testid="notify-switch"
        />
      </Flex>
      <Modal
        open={enabling}
        title={t('notify.enableTitle')}
        okText={t('notify.enable')}
        cancelText={t('common:cancel')}
        confirmLoading={save.isPending}
        onOk={() => void confirmEnable().catch(() => {})}
        onCancel={() => setEnabling(false)}
        destroyOnHidden
      >
        <Form<EnableValues>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ email: settings.data.email ?? profile.account }}
        >
          <Form.Item name="email" label={t('notify.email')} rules={emailRules(t)}>
            <EmailInput />
          </Form.Item>
          <Form.Item name="code" label={t('auth:code')} rules={codeRules(t)}>
            <CodeInput onSend={sendCode} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
