/**
 * Assign gateways to a customer or agent (a company id; empty takes them off), set their
 * protocol (empty clears it), delete one after a confirmation (refused while it is bound to a
 * plant: the server's 301, explained).
 */

import { ErrorCode, gatewayStockApi } from '@sunfleet/contracts';
import { App, type ButtonProps, Form, Modal, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { CustomerSelect } from '../../components/CustomerSelect.tsx';
import ui from '../../components/ui.module.css';
import { ProtocolSelect } from './fields.tsx';
import css from './stock.module.css';
import { type StockRow, useInvalidateStock } from './stockQueries.ts';

export type EditKind = 'assign' | 'protocol';

export function EditDialog({
  kind,
  rows,
  onClose,
}: {
  kind: EditKind | null;
  rows: readonly Pick<StockRow, 'id' | 'sn' | 'company' | 'protocol'>[];
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation('gatewayStock');
  const { message } = App.useApp();
  const invalidate = useInvalidateStock();
  const [busy, setBusy] = useState(false);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [protocol, setProtocol] = useState<string | null>(null);
  const one = rows.length === 1 ? rows[0]! : null;
  // The fields start from the row's values as the dialog opens, not once its opening animation
  // ends: a choice made during the animation is kept.
  const [openedAs, setOpenedAs] = useState<EditKind | null>(null);
  if (kind !== openedAs) {
    setOpenedAs(kind);
    setCustomerId(one?.company?.id ?? null);
    setProtocol(one?.protocol ?? null);
  }
  const names = { sn: one?.sn ?? '', count: rows.length };

  const save = async () => {
    setBusy(true);
    const ids = rows.map((r) => r.id);
    try {
      const result =
        kind === 'assign'
          ? await call(gatewayStockApi.assignGateways, { body: { ids, customerId } })
          : await call(gatewayStockApi.updateProtocol, { body: { ids, protocol } });
      message.success(t(`${kind}.done`, { count: result.updated }));
      await invalidate();
      onClose(true);
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={kind !== null}
      title={kind ? t(`${kind}.title`, names) : ''}
      okText={kind ? t(`${kind}.submit`) : ''}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: busy, 'data-testid': 'stock-edit-ok' } as ButtonProps}
      onOk={save}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form layout="vertical">
        {kind === 'assign' && (
          <Form.Item label={t('assign.customer')} extra={t('assign.customerHint')}>
            <CustomerSelect
              className={css.full}
              value={customerId}
              onChange={setCustomerId}
              testId="stock-assign-customer"
              ariaLabel={t('assign.customer')}
            />
          </Form.Item>
        )}
        {kind === 'protocol' && (
          <Form.Item label={t('protocol.label')}>
            <ProtocolSelect
              value={protocol}
              onChange={setProtocol}
              testId="stock-protocol-select"
              ariaLabel={t('protocol.label')}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** `confirmDelete(row)`: asks, deletes, says what happened; resolves true when deleted. */
export function useDeleteGateway() {
  const { t } = useTranslation('gatewayStock');
  const { modal, message } = App.useApp();
  const invalidate = useInvalidateStock();
  return useCallback(
    (row: Pick<StockRow, 'id' | 'sn'>) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: t('delete.title', { sn: row.sn }),
          content: <Typography.Paragraph className={ui.flush}>{t('delete.text')}</Typography.Paragraph>,
          okText: t('delete.ok'),
          okButtonProps: { danger: true, 'data-testid': 'stock-delete-ok' },
          cancelText: t('common:cancel'),
          onCancel: () => resolve(false),
          onOk: async () => {
            try {
              await call(gatewayStockApi.deleteGateway, { params: { id: row.id } });
              message.success(t('delete.done', { sn: row.sn }));
              await invalidate();
              resolve(true);
            } catch (err) {
              if (err instanceof ApiError && err.code === ErrorCode.gatewayUsed)
                message.error(`${err.message}: ${t('delete.bound')}`);
              else if (err instanceof ApiError && err.code === ErrorCode.gatewayMissing) await invalidate();
              resolve(false);
            }
          },
        });
      }),
    [modal, message, t, invalidate],
  );
}
