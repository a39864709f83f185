/**
 * Rename a device (an alias is at most 32 bytes of UTF-8 — "ñ" counts 2, "€" 3; an
 * empty alias clears it). The byte count shows as you type; what the server refuses (no
 * permission on the plant, validation, a device that went away) shows under the field.
 */
import { ErrorCode, limits } from '@sunfleet/contracts';
import { App, Form, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { SafeInput } from '../../../components/SafeInput.tsx';
import { renameDevice, useInvalidateDevices } from './deviceQueries.ts';
import { aliasBytes, aliasTooLong } from './format.ts';

export type AliasKind = 'inverter' | 'meter';
export interface AliasTarget {
  sn: string;
  alias: string | null;
}

export function AliasDialog({ kind, device, onClose }: { kind: AliasKind; device: AliasTarget | null; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ alias: string }>();
  const [saving, setSaving] = useState(false);
  const invalidate = useInvalidateDevices(kind);
  const alias = Form.useWatch('alias', form) ?? '';
  const bytes = aliasBytes(alias.trim());

  useEffect(() => {
    if (!device) return;
    form.resetFields();
    form.setFieldsValue({ alias: device.alias ?? '' });
  }, [device, form]);

  const save = async () => {
    if (!device) return;
    let values: { alias: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      // Codes the dialog shows itself: 2 (no edit rights on the plant), 4, 404/600 (gone).
      await renameDevice(kind, device.sn, values.alias.trim());
      await invalidate();
      message.success(t('alias.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) {
        const text = err.code === ErrorCode.validation ? t('alias.refused', { detail: err.message }) : err.message;
        form.setFields([{ name: 'alias', errors: [text] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={device !== null}
      title={device ? t('alias.title', { sn: device.sn }) : ''}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'alias-save' }}
      forceRender
      data-testid="alias-dialog"
    >
      <Form form={form} layout="vertical" onFinish={() => void save()} requiredMark={false}>
        <Form.Item
          name="alias"
          label={t('alias.label')}
          extra={
            <Typography.Text type={bytes > limits.deviceAliasBytes ? 'danger' : 'secondary'} data-testid="alias-bytes">
              {t('alias.bytes', { count: bytes, max: limits.deviceAliasBytes })}
            </Typography.Text>
          }
          rules={[
            {
              validator: (_, value: string | undefined) =>
                aliasTooLong((value ?? '').trim())
                  ? Promise.reject(new Error(t('alias.tooLong', { max: limits.deviceAliasBytes })))
                  : Promise.resolve(),
            },
          ]}
        >
          <SafeInput autoFocus allowClear placeholder={t('alias.placeholder')} data-testid="alias-input" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
