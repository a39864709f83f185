/**
 * Publish a system version or edit one: its number (checked against the others when the field is
 * left: an equal number is taken) and its release notes in Chinese and English. The server's
 * refusals land on the field they are about: 207 an equal number, 4 a number out of order.
 */
import { type DataOf, ErrorCode, versionsApi } from '@sunfleet/contracts';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { SafeInput } from '../../components/SafeInput.tsx';
import { checkVersionNumber, useSaveVersion } from './versionQueries.ts';

export type Version = DataOf<typeof versionsApi.getVersion>;
interface Values {
  number: string;
  contentZh: string;
  contentEn: string;
}

const numberPattern = new RegExp(versionsApi.VERSION_NUMBER_PATTERN);

export function VersionDialog({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The version being edited; null to publish a new one. */
  editing: Version | null;
  onClose: () => void;
  onSaved: (v: Version) => void;
}) {
  const { t } = useTranslation('versions');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const save = useSaveVersion();

  useEffect(() => {
    if (open) form.setFieldsValue(editing ? { ...editing } : { number: '', contentZh: '', contentEn: '' });
  }, [open, editing, form]);

  /** The server's refusal of a number, in the interface language: taken, or out of order next to a named version. */
  const refusal = (e: ApiError) => {
    if (e.code === ErrorCode.already) return t('form.numberTaken');
    const order = /(higher|lower) than (\S+)$/.exec(e.serverMessage ?? '');
    if (!order) return t('form.numberOutOfOrder');
    return t(order[1] === 'higher' ? 'form.numberAbove' : 'form.numberBelow', { number: order[2] });
  };

  const taken = async (number: string) => {
    try {
      await checkVersionNumber(number, editing?.id);
      return false;
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.already) return true;
      return false;
    }
  };

  const [submit, busy] = useGuardedAction(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      const saved = await save.mutateAsync({
        body: {
          ...(editing ? { id: editing.id } : {}),
          number: values.number.trim(),
          contentZh: values.contentZh,
          contentEn: values.contentEn,
        },
      });
      message.success(t('saved'));
      onSaved(saved);
    } catch (e) {
      if (e instanceof ApiError && (e.code === ErrorCode.already || e.code === ErrorCode.validation))
        form.setFields([{ name: 'number', errors: [refusal(e)] }]);
    }
  });

  return (
    <Modal
      open={open}
      title={editing ? t('form.editTitle', { number: editing.number }) : t('form.addTitle')}
      okText={t('form.save')}
      onOk={submit}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
      data-testid="version-dialog"
    >
      <Form<Values> form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="number"
          label={t('form.number')}
          extra={t('form.numberHint')}
          validateTrigger="onBlur"
          rules={[
            { required: true, whitespace: true, message: t('form.numberRequired') },
            { pattern: numberPattern, message: t('form.numberPattern') },
            {
              validator: async (_, v: string) => {
                if (v && numberPattern.test(v.trim()) && (await taken(v.trim()))) throw new Error(t('form.numberTaken'));
              },
            },
          ]}
        >
          <SafeInput maxLength={32} allowChars="" data-testid="version-number" />
        </Form.Item>
        <Form.Item
          name="contentEn"
          label={t('form.contentEn')}
          rules={[{ required: true, whitespace: true, message: t('form.contentRequired') }]}
        >
          <Input.TextArea rows={5} maxLength={versionsApi.VERSION_CONTENT_MAX} showCount data-testid="version-content-en" />
        </Form.Item>
        <Form.Item
          name="contentZh"
          label={t('form.contentZh')}
          rules={[{ required: true, whitespace: true, message: t('form.contentRequired') }]}
        >
          <Input.TextArea rows={5} maxLength={versionsApi.VERSION_CONTENT_MAX} showCount data-testid="version-content-zh" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
