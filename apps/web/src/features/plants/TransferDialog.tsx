/**
 * Transfer a plant to another account (`plant/{id}/transfer?account=`): the devices and
 * history go with it, every share ends and the plant leaves this account's list. A confirmation
 * first; 207 (that is you), 4 (no such account) and 101 (account disabled) show under the field.
 */
import { plantsApi } from '@sunfleet/contracts';
import { Alert, App, Button, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { emailRules } from '../../components/formRules.ts';
import { EmailInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { PlantDialog, type PlantRef } from './PlantDialog.tsx';
import { useInvalidatePlants } from './plantQueries.ts';
import { plantSelection } from './selection.ts';

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
  const [form] = Form.useForm<{ account: string }>();
  const transfer = useApiMutation(plantsApi.transferPlant);
  const invalidate = useInvalidatePlants();

  const send = async (account: string) => {
    try {
      await transfer.mutateAsync({ params: { id: plant.id }, query: { account }, tolerate: [101] });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) {
        const text = err.code === 4 ? t('transfer.noAccount') : err.code === 207 ? t('transfer.self') : err.message;
        form.setFields([{ name: 'account', errors: [text] }]);
      }
      return;
    }
    plantSelection.dispatch({ type: 'remove', ids: [plant.id] });
    await invalidate();
    message.success(t('transfer.done', { name: plant.name, account }));
    onDone();
  };

  const [submit, busy] = useGuardedAction(async ({ account }: { account: string }) => {
    const target = account.trim().toLowerCase();
    await new Promise<void>((resolve) => {
      modal.confirm({
        title: t('transfer.confirmTitle'),
        content: t('transfer.confirmText', { name: plant.name, account: target }),
        okText: t('transfer.submit'),
        okButtonProps: { danger: true, 'data-testid': 'transfer-confirm-ok' },
        cancelText: t('common:cancel'),
        onOk: () => send(target).finally(resolve),
        onCancel: () => resolve(),
      });
    });
  });

  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} data-testid="transfer-dialog">
      <Alert type="warning" showIcon title={t('transfer.warning')} className={ui.gapBelow} />
      <Form.Item name="account" label={t('transfer.account')} rules={emailRules(t)} validateFirst>
        <EmailInput placeholder={t('share.accountPlaceholder')} data-testid="transfer-account" />
      </Form.Item>
      <Flex justify="end">
        <Button type="primary" danger htmlType="submit" loading={busy} data-testid="transfer-submit">
          {t('transfer.submit')}
        </Button>
      </Flex>
    </Form>
  );
}
