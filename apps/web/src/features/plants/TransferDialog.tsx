/**
 * Offer a plant to another account (`plant/{id}/transfer?account=`, the caller's password in the
 * body): nothing changes until the recipient accepts on their transfers page; until then either
 * side may cancel. A confirmation first; 207 (that is you), 4 (no such account) and 101 (account
 * disabled) show under the account, 108 (wrong password) under the password, 704 (a request is
 * already pending) above the form.
 */
import { ErrorCode, plantsApi } from '@sunfleet/contracts';
import { Alert, App, Button, Flex, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { emailRules } from '../../components/formRules.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { EmailInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { PlantDialog, type PlantRef } from './PlantDialog.tsx';
import { useInvalidateTransfers } from './transferQueries.ts';

export function TransferDialog({
  plant,
  onClose,
  onDone,
}: {
  plant: PlantRef | null;
  onClose: () => void;
  onDone?: (id: number) => void;
}) {
  const { t } = useTranslation('plants');
  return (
    <PlantDialog plant={plant} onClose={onClose} title={(p) => t('transfer.title', { name: p.name })} width={520}>
      {(p) => (
        <TransferBody
          plant={p}
          onDone={() => {
            onDone?.(p.id);
            onClose();
          }}
        />
      )}
    </PlantDialog>
  );
}

function TransferBody({ plant, onDone }: { plant: PlantRef; onDone: () => void }) {
  const { t } = useTranslation('plants');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<{ account: string; password: string }>();
  const [pending, setPending] = useState(false);
  const transfer = useApiMutation(plantsApi.transferPlant);
  const invalidate = useInvalidateTransfers();

  const send = async (account: string, password: string) => {
    try {
      await transfer.mutateAsync({
        params: { id: plant.id },
        query: { account },
        body: { password },
        tolerate: [ErrorCode.accountDisabled],
      });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) {
        if (err.code === ErrorCode.oldPasswordWrong)
          form.setFields([{ name: 'password', errors: [t('transfer.wrongPassword')] }]);
        else if (err.code === ErrorCode.transferPending) setPending(true);
        else {
          const text =
            err.code === ErrorCode.validation
              ? t('transfer.noAccount')
              : err.code === ErrorCode.already
                ? t('transfer.self')
                : err.message;
          form.setFields([{ name: 'account', errors: [text] }]);
        }
      }
      return;
    }
    await invalidate();
    message.success(t('transfer.done', { name: plant.name, account }));
    onDone();
  };

  const [submit, busy] = useGuardedAction(async ({ account, password }: { account: string; password: string }) => {
    const target = account.trim().toLowerCase();
    await new Promise<void>((resolve) => {
      modal.confirm({
        title: t('transfer.confirmTitle'),
        content: t('transfer.confirmText', { name: plant.name, account: target }),
        okText: t('transfer.submit'),
        okButtonProps: { danger: true, 'data-testid': 'transfer-confirm-ok' },
        cancelText: t('common:cancel'),
        onOk: () => send(target, password).finally(resolve),
        onCancel: () => resolve(),
      });
    });
  });

  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} data-testid="transfer-dialog">
      <Alert type="info" showIcon title={t('transfer.warning')} className={ui.gapBelow} />
      {pending && (
        <Alert type="warning" showIcon title={t('transfer.pending')} className={ui.gapBelow} data-testid="transfer-pending" />
      )}
      <Form.Item name="account" label={t('transfer.account')} rules={emailRules(t)} validateFirst>
        <EmailInput placeholder={t('share.accountPlaceholder')} data-testid="transfer-account" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('transfer.password')}
        extra={t('transfer.passwordHint')}
        rules={[{ required: true, message: t('common:validation.passwordRequired') }]}
      >
        <PasswordInput autoComplete="current-password" data-testid="transfer-password" />
      </Form.Item>
      <Flex justify="end">
        <Button type="primary" danger htmlType="submit" loading={busy} data-testid="transfer-submit">
          {t('transfer.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
