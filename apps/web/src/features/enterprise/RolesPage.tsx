/**
 * /enterprise/roles (company.role.list.view): the company's roles (at most 5), each a set of
 * permissions picked from what the company holds. Deleting a role that accounts hold asks which
 * role they move to; the server moves them and deletes the role in one transaction.
 */
import { companyRolesApi, limits } from '@sunfleet/contracts';
import { Alert, App, Button, Card, Flex, Form, Modal, Select, Space, type TableColumnsType, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/hooks.ts';
import { useShell } from '../../app/shell/shellContext.ts';
import { ListTable } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Can } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { type CompanyRole, useInvalidate, useRoles } from './queries.ts';
import { RoleDialog } from './RoleDialog.tsx';

export default function RolesPage() {
  const { t, i18n } = useTranslation('enterprise');
  const { profile } = useShell();
  const roles = useRoles();
  const [dialog, setDialog] = useState<{ role: CompanyRole | null } | null>(null);
  const [removing, setRemoving] = useState<CompanyRole | null>(null);
  const date = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }), [i18n.language]);
  const list = roles.data ?? [];
  const full = list.length >= limits.rolesPerCompany;
  // Role names are unique in the company: the profile's role name is the caller's own role (803).
  const own = (r: CompanyRole) => profile.kind === 'company_user' && profile.role === r.name;

  const columns: TableColumnsType<CompanyRole> = [
    { key: 'name', dataIndex: 'name', title: t('roles.name'), width: 200 },
    { key: 'permissions', title: t('roles.permissions'), width: 140, render: (_, r) => r.permissions.length },
    { key: 'users', dataIndex: 'users', title: t('roles.users'), width: 120 },
    { key: 'created', title: t('roles.created'), width: 140, render: (_, r) => date.format(new Date(r.createdAt)) },
    {
      key: 'actions',
      title: t('roles.actions'),
      width: 180,
      fixed: 'right',
      render: (_, r) =>
        own(r) ? (
          <Typography.Text type="secondary">{t('roles.ownRole')}</Typography.Text>
        ) : (
          <Space size={4}>
            <Can call={companyRolesApi.editRole}>
              <Button type="link" size="small" onClick={() => setDialog({ role: r })} data-testid={`role-edit-${r.id}`}>
                {t('roles.edit')}
              </Button>
            </Can>
            <Can call={companyRolesApi.deleteRole}>
              <Button type="link" size="small" danger onClick={() => setRemoving(r)} data-testid={`role-delete-${r.id}`}>
                {t('roles.delete')}
              </Button>
            </Can>
          </Space>
        ),
    },
  ];

  return (
    <Card data-testid="roles-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:roles')}</PageTitle>
        <Can call={companyRolesApi.addRole}>
          <Button
            type="primary"
            disabled={full || roles.isPending}
            onClick={() => setDialog({ role: null })}
            data-testid="role-add"
          >
            {t('roles.add')}
          </Button>
        </Can>
      </Flex>
      {full && (
        <Alert
          type="info"
          showIcon
          className={ui.gapBelow}
          message={t('roles.full', { max: limits.rolesPerCompany })}
          data-testid="roles-full"
        />
      )}
      {roles.isError && !roles.data ? (
        <PageError error={roles.error} onRetry={() => void roles.refetch()} />
      ) : (
        <ListTable<CompanyRole>
          aria-label={t('menu:roles')}
          rowKey="id"
          columns={columns}
          dataSource={list}
          loading={roles.isPending || roles.isFetching}
          pagination={false}
        />
      )}
      {dialog && <RoleDialog role={dialog.role} onClose={() => setDialog(null)} onSaved={() => setDialog(null)} />}
      {removing && <DeleteRole role={removing} roles={list} onClose={() => setRemoving(null)} />}
    </Card>
  );
}

function DeleteRole({ role, roles, onClose }: { role: CompanyRole; roles: readonly CompanyRole[]; onClose: () => void }) {
  const { t } = useTranslation('enterprise');
  const { message } = App.useApp();
  const [moveTo, setMoveTo] = useState<number | undefined>();
  const remove = useApiMutation(companyRolesApi.deleteRole);
  const invalidate = useInvalidate();
  const others = roles.filter((r) => r.id !== role.id);
  const needsTarget = role.users > 0;
  const blocked = needsTarget && others.length === 0;

  const run = async () => {
    try {
      await remove.mutateAsync({ params: { id: role.id }, query: needsTarget ? { moveTo } : {} });
      message.success(t('roles.deleted', { name: role.name }));
      invalidate(companyRolesApi.listRoles);
      onClose();
    } catch {
      // The client has shown the error.
    }
  };

  return (
    <ConfirmDialog
      title={t('roles.deleteTitle', { name: role.name })}
      okText={t('roles.delete')}
      okDisabled={blocked || (needsTarget && !moveTo)}
      busy={remove.isPending}
      onOk={run}
      onCancel={onClose}
    >
      {!needsTarget && <Typography.Paragraph>{t('roles.deleteText')}</Typography.Paragraph>}
      {needsTarget && blocked && <Alert type="warning" showIcon message={t('roles.noTarget', { count: role.users })} />}
      {needsTarget && !blocked && (
        <Form layout="vertical">
          <Typography.Paragraph>{t('roles.moveText', { count: role.users })}</Typography.Paragraph>
          <Form.Item label={t('roles.moveTo')} required>
            <Select
              value={moveTo}
              onChange={setMoveTo}
              placeholder={t('roles.pickTarget')}
              options={others.map((r) => ({ value: r.id, label: r.name }))}
              data-testid="role-move-to"
            />
          </Form.Item>
        </Form>
      )}
    </ConfirmDialog>
  );
}

function ConfirmDialog(props: {
  title: string;
  okText: string;
  okDisabled: boolean;
  busy: boolean;
  onOk: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  return (
    <Modal
      open
      title={props.title}
      okText={props.okText}
      cancelText={t('cancel')}
      okButtonProps={{ danger: true, disabled: props.okDisabled, loading: props.busy, 'data-testid': 'role-delete-ok' }}
      onOk={props.onOk}
      onCancel={props.onCancel}
    >
      {props.children}
    </Modal>
  );
}
