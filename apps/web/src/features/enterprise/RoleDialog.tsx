/**
 * Add or edit a role: its name (unique in the company: 801, checked as it is left) and its
 * permissions, checked in the tree of what the company holds (checking a button checks its page;
 * unchecking a page unchecks what is under it).
 */
import { companyRolesApi, ErrorCode, permissionsApi } from '@sunfleet/contracts';
import { App, Form, Modal, Spin, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation, useApiQuery, useServerLanguage } from '../../api/hooks.ts';
import { PageError } from '../../components/PageState.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import { schemaRules } from '../../components/schemaRules.ts';
import styles from './enterprise.module.css';
import { normalizeChecked, toggleChecked, treeData } from './permissionChecks.ts';
import { type CompanyRole, useInvalidate } from './queries.ts';

const body = companyRolesApi.addRole.body;

export function RoleDialog({ role, onClose, onSaved }: { role: CompanyRole | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('enterprise');
  const { message } = App.useApp();
  const lan = useServerLanguage();
  const tree = useApiQuery(permissionsApi.companyPermissions, { query: { lan } });
  const [form] = Form.useForm<{ name: string }>();
  const [checked, setChecked] = useState<string[] | null>(null);
  const add = useApiMutation(companyRolesApi.addRole);
  const edit = useApiMutation(companyRolesApi.editRole);
  const invalidate = useInvalidate();
  const nodes = useMemo(() => treeData(tree.data ?? []), [tree.data]);
  const current = checked ?? normalizeChecked(tree.data ?? [], role?.permissions ?? []);

  const nameTaken = async (name: string) => {
    if (!name) return;
    try {
      await call(companyRolesApi.checkRole, { query: { name, ...(role ? { id: role.id } : {}) }, quiet: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.roleExists) throw new Error(t('roles.nameTaken'));
    }
  };

  const [save, busy] = useGuardedAction(async (v: { name: string }) => {
    const input = { name: v.name.trim(), permissions: current };
    try {
      if (role) await edit.mutateAsync({ params: { id: role.id }, body: input });
      else await add.mutateAsync({ body: input });
      message.success(t('common:saved'));
      invalidate(companyRolesApi.listRoles);
      onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.roleExists)
        form.setFields([{ name: 'name', errors: [t('roles.nameTaken')] }]);
    }
  });

  return (
    <Modal
      open
      title={role ? t('roles.editTitle', { name: role.name }) : t('roles.addTitle')}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: busy, disabled: !tree.data, 'data-testid': 'role-save' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={save} initialValues={{ name: role?.name ?? '' }} data-testid="role-form">
        <Form.Item
          name="name"
          label={t('roles.name')}
          validateTrigger="onBlur"
          rules={[
            { required: true, whitespace: true, message: t('roles.nameRequired') },
            ...schemaRules(body, 'name', {
              max: t('common:validation.maxLength', { max: 32 }),
              pattern: t('common:validation.inputLimit'),
            }),
            { validator: (_, value: string) => nameTaken(value?.trim()) },
          ]}
        >
          <SafeInput data-testid="role-name" />
        </Form.Item>
        <Form.Item label={t('roles.permissions')}>
          {tree.isPending ? (
            <Spin />
          ) : tree.isError ? (
            <PageError error={tree.error} onRetry={() => void tree.refetch()} />
          ) : (
            <div className={styles.tree}>
              <Tree
                checkable
                checkStrictly
                defaultExpandAll
                selectable={false}
                treeData={nodes}
                checkedKeys={{ checked: current, halfChecked: [] }}
                onCheck={(_, info) => setChecked(toggleChecked(tree.data ?? [], current, String(info.node.key), info.checked))}
                data-testid="role-tree"
              />
            </div>
          )}
        </Form.Item>
      </Form>
    </Modal>
  );
}
