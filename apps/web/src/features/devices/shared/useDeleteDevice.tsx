/**
 * Delete a device after a confirmation. The delete is soft (history stays with the plant, and a
 * device that sends data again comes back), which the confirmation says. What the server
 * refuses shows as a message; a device already gone counts as deleted.
 */
import { ErrorCode } from '@sunfleet/contracts';
import { App, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import ui from '../../../components/ui.module.css';
import { deleteDevice, type EditableKind, useInvalidateDevices } from './deviceQueries.ts';

export interface DeletableDevice {
  id: number;
  sn: string;
  alias: string | null;
}

/** `confirmDelete(device)` resolves true when the device was deleted. */
export function useDeleteDevice(kind: EditableKind) {
  const { t } = useTranslation('devices');
  const { modal, message } = App.useApp();
  const invalidate = useInvalidateDevices(kind);

  return useCallback(
    (device: DeletableDevice) =>
      new Promise<boolean>((resolve) => {
        const name = device.alias ? `${device.alias} (${device.sn})` : device.sn;
        modal.confirm({
          title: t('delete.title', { name }),
          content: <Typography.Paragraph className={ui.flush}>{t(`delete.text.${kind}`)}</Typography.Paragraph>,
          okText: t('delete.ok'),
          okButtonProps: { danger: true, 'data-testid': 'delete-confirm-ok' },
          cancelText: t('common:cancel'),
          onCancel: () => resolve(false),
          onOk: async () => {
            try {
              await deleteDevice(kind, device);
              message.success(t('delete.done', { name }));
              await invalidate();
              resolve(true);
            } catch (err) {
              // Gone already (404/600): what the user wanted; refused (2): say why.
              if (err instanceof ApiError && (err.code === ErrorCode.notFound || err.code === ErrorCode.inverterMissing)) {
                await invalidate();
                resolve(true);
              } else {
                if (err instanceof ApiError && err.tolerated) message.error(err.message);
                resolve(false);
              }
            }
          },
        });
      }),
    [kind, modal, message, invalidate, t],
  );
}

/**
 * A detail page's delete action: confirm, delete, then back to the list. `action(device, allowed)`
 * is undefined when the account may not delete it (the header shows no button).
 */
export function useDeleteAndLeave(kind: EditableKind, back: string) {
  const confirmDelete = useDeleteDevice(kind);
  const navigate = useNavigate();
  return (device: DeletableDevice, allowed: boolean) =>
    allowed
      ? () =>
          void confirmDelete(device).then((done) => {
            if (done) navigate(back);
          })
      : undefined;
}
