/**
 * Add or edit a customer type: name, remark, the parent of a subtype (one level: a type with
 * subtypes gets none), and what a new customer of the type is granted (a checkable tree). A name
 * taken or a parent refused shows under its field.
 */
import { customersApi as api, ErrorCode } from '@sunfleet/contracts';
import { App, Button, Flex, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { SafeInput } from '../../components/SafeInput.tsx';
import { schemaRules } from '../../components/schemaRules.ts';
import { type CustomerTypeRow, useInvalidateCustomers, useTypePicks } from './customerQueries.ts';
import { PermissionPicker } from './PermissionPicker.tsx';

interface Values {
  name: string;
  remark?: string;
  parentId?: number | null;
  permissions: string[];
}

/** `type`: the type to edit, or null to add one (under `parentId` when given). */
export function TypeDialog({
  type,
  parentId,
  onClose,
}: {
  type: CustomerTypeRow | null;
  parentId?: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('customers');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const picks = useTypePicks();
  const invalidate = useInvalidateCustomers();
  const hasSubtypes = (type?.children.length ?? 0) > 0;
  const ruleText = { max: t('rules.tooLong'), pattern: t('rules.pattern') };
  const parents = (picks.data ?? []).filter((p) => p.parentId === null && p.id !== type?.id);

  const [save, saving] = useGuardedAction(async (v: Values) => {
    const body = {
      name: v.name.trim(),
      remark: v.remark?.trim() ? v.remark.trim() : null,
      parentId: v.parentId ?? null,
      permissions: v.permissions ?? [],
    };
    try {
      if (type) await call(api.editCustomerType, { params: { id: type.id }, body, tolerate: [ErrorCode.validation] });
      else await call(api.createCustomerType, { body, tolerate: [ErrorCode.validation] });
      await invalidate();
      message.success(t(type ? 'types.saved' : 'types.added', { name: body.name }));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError && err.tolerated)) return;
      const detail = err.serverMessage ?? err.message;
      if (err.code === ErrorCode.typeHasSubtype) form.setFields([{ name: 'parentId', errors: [err.message] }]);
      else if (err.code === ErrorCode.validation && err.fields.includes('name'))
        form.setFields([{ name: 'name', errors: [t('types.nameTaken')] }]);
      else if (err.code === ErrorCode.validation && err.fields.includes('parentId'))
        form.setFields([{ name: 'parentId', errors: [t('types.parentRefused')] }]);
      else message.error(detail);
    }
  });

  return (
    <Modal
      open
      title={type ? t('types.editTitle', { name: type.name }) : t('types.addTitle')}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        data-testid="type-form"
        initialValues={{
          name: type?.name ?? '',
          remark: type?.remark ?? '',
          parentId: type ? type.parentId : (parentId ?? null),
          permissions: type?.permissions ?? [],
        }}
        onFinish={save}
      >
        <Form.Item
          name="name"
          label={t('types.name')}
          validateFirst
          rules={[
            { required: true, whitespace: true, message: t('rules.nameRequired') },
            ...schemaRules(api.CustomerTypeInput, 'name', ruleText),
          ]}
        >
          <SafeInput data-testid="type-name" />
        </Form.Item>
        <Form.Item
          name="parentId"
          label={t('types.parent')}
          extra={hasSubtypes ? t('types.parentLocked') : t('types.parentHint')}
        >
          <Select
            allowClear
            disabled={hasSubtypes}
            loading={picks.isPending}
            options={parents.map((p) => ({ value: p.id, label: p.name }))}
            data-testid="type-parent"
          />
        </Form.Item>
        <Form.Item name="remark" label={t('types.remark')} rules={schemaRules(api.CustomerTypeInput, 'remark', ruleText)}>
          <Input.TextArea rows={2} maxLength={255} showCount data-testid="type-remark" />
        </Form.Item>
        <Form.Item name="permissions" label={t('fields.permissions')} extra={t('types.permissionsHint')}>
          <PermissionPicker />
        </Form.Item>
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="type-save">
            {t('dialog.save')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
