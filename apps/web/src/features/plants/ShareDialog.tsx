/**
 * Share a plant: who it is shared with, as what and since when (in the plant's zone, named), add an account as manager or
 * visitor (sharing again changes the role), end a share after a confirmation. 701 (yourself),
 * 702 (a company user), 703 (a company plant) and 4 (no such account) show under the account.
 */
import { DeleteOutlined } from '@ant-design/icons';
import { ErrorCode, plantsApi } from '@sunfleet/contracts';
import { App, Button, Flex, Form, List, Popconfirm, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { emailRules } from '../../components/formRules.ts';
import { PageError } from '../../components/PageState.tsx';
import { EmailInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { formatZoned } from '../../lib/zonedTime.ts';
import { PlantDialog, type PlantRef } from './PlantDialog.tsx';
import { useInvalidatePlants } from './plantQueries.ts';
import styles from './plants.module.css';

type ShareRole = 'manager' | 'visitor';
interface ShareValues {
  account: string;
  role: ShareRole;
}

export function ShareDialog({ plant, onClose }: { plant: PlantRef | null; onClose: () => void }) {
  const { t } = useTranslation('plants');
  return (
    <PlantDialog plant={plant} onClose={onClose} title={(p) => t('share.title', { name: p.name })} width={560}>
      {(p) => <ShareBody plant={p} />}
    </PlantDialog>
  );
}

function ShareBody({ plant }: { plant: PlantRef }) {
  const { t, i18n } = useTranslation('plants');
  const { message } = App.useApp();
  const [form] = Form.useForm<ShareValues>();
  const users = useApiQuery(plantsApi.getShareUsers, { params: { plantId: plant.id } });
  const share = useApiMutation(plantsApi.sharePlant);
  const cancel = useApiMutation(plantsApi.cancelShare);
  const invalidate = useInvalidatePlants();
  const [changing, setChanging] = useState<number | null>(null);

  const send = async (account: string, role: ShareRole) => {
    await share.mutateAsync({ params: { id: plant.id }, body: { account, role } });
    await Promise.all([users.refetch(), invalidate()]);
  };

  const [add, adding] = useGuardedAction(async (values: ShareValues) => {
    try {
      await send(values.account.trim().toLowerCase(), values.role);
      form.resetFields(['account']);
      message.success(t('share.added'));
    } catch (err) {
      if (err instanceof ApiError && err.tolerated)
        form.setFields([{ name: 'account', errors: [err.code === ErrorCode.validation ? t('share.noAccount') : err.message] }]);
    }
  });

  const changeRole = async (account: string, userId: number, role: ShareRole) => {
    setChanging(userId);
    try {
      await send(account, role);
      message.success(t('share.roleChanged'));
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    } finally {
      setChanging(null);
    }
  };

  const remove = async (userId: number) => {
    try {
      await cancel.mutateAsync({ params: { plantId: plant.id }, body: { userId } });
      await Promise.all([users.refetch(), invalidate()]);
      message.success(t('share.cancelled'));
    } catch {
      // The client has shown the error.
    }
  };

  const roleOptions = [
    { value: 'manager', label: t('roles.manager') },
    { value: 'visitor', label: t('roles.visitor') },
  ];

  return (
    <Flex vertical gap={16} data-testid="share-dialog">
      <Form<ShareValues> form={form} layout="vertical" initialValues={{ role: 'visitor' }} onFinish={add} requiredMark={false}>
        <Form.Item name="account" label={t('share.account')} rules={emailRules(t)} extra={t('share.hint')} validateFirst>
          <EmailInput placeholder={t('share.accountPlaceholder')} data-testid="share-account" />
        </Form.Item>
        <Form.Item name="role" label={t('share.role')} extra={t('share.roleHint')}>
          <Radio.Group optionType="button" options={roleOptions} data-testid="share-role" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={adding} data-testid="share-submit">
          {t('share.submit')}
        </Button>
      </Form>

      <div>
        <Typography.Title level={5} className={ui.first}>
          {t('share.current')}
        </Typography.Title>
        {users.isError ? (
          <PageError error={users.error} onRetry={() => void users.refetch()} />
        ) : (
          <List
            loading={users.isPending}
            dataSource={users.data ?? []}
            locale={{ emptyText: t('share.none') }}
            data-testid="share-users"
            renderItem={(u) => (
              <List.Item
                key={u.userId}
                data-testid={`share-user-${u.account}`}
                actions={[
                  <Select
                    key="role"
                    size="small"
                    value={u.role}
                    options={roleOptions}
                    loading={changing === u.userId}
                    onChange={(role: ShareRole) => void changeRole(u.account, u.userId, role)}
                    className={styles.shareRole}
                    aria-label={t('share.role')}
                  />,
                  <Popconfirm
                    key="cancel"
                    title={t('share.cancelConfirm', { account: u.account })}
                    okText={t('share.cancelShare')}
                    okButtonProps={{ danger: true, 'data-testid': 'share-cancel-ok' }}
                    cancelText={t('common:cancel')}
                    onConfirm={() => remove(u.userId)}
                  >
                    <Button
                      size="small"
                      danger
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={t('share.cancelShare')}
                      data-testid={`share-cancel-${u.account}`}
                    />
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  title={u.account}
                  description={
                    <Typography.Text type="secondary" className={ui.note}>
                      {t('share.since', { time: formatZoned(u.sharedAt, plant.timezone, i18n.language, { seconds: true }) })}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </div>
    </Flex>
  );
}
