/**
 * /enterprise/user (company.user): the company's accounts, server-paged, searched by account,
 * name or nickname and filtered by role; added (with an avatar), edited and taken out of the
 * company after a confirmation. The caller's own role and the company administrator's are shown
 * but cannot be changed here.
 */
import { companyApi } from '@sunfleet/contracts';
import { App, Badge, Button, Card, Flex, Input, Select, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useApiQuery } from '../../api/hooks.ts';
import { useShell } from '../../app/shell/shellContext.ts';
import { ListTable, listPagination } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Can } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import styles from './enterprise.module.css';
import { type CompanyUser, useInvalidate, useRoles } from './queries.ts';
import { UserDialog } from './UserDialog.tsx';

const pageSizes = [10, 20, 50, 100];

export default function UsersPage() {
  const { t, i18n } = useTranslation('enterprise');
  const { modal, message } = App.useApp();
  const { profile } = useShell();
  const [keyword, setKeyword] = useState('');
  const [roleId, setRoleId] = useState<number | undefined>();
  const [page, setPage] = useState({ page: 1, size: 10 });
  const [dialog, setDialog] = useState<{ user: CompanyUser | null } | null>(null);
  const query = { ...page, ...(keyword ? { keyword } : {}), ...(roleId ? { roleId } : {}) };
  const list = useApiQuery(companyApi.listUsers, { query });
  const roles = useRoles();
  const remove = useApiMutation(companyApi.deleteUser);
  const invalidate = useInvalidate();
  const date = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }), [i18n.language]);

  const confirmRemove = (user: CompanyUser) =>
    modal.confirm({
      title: t('users.removeTitle', { account: user.account }),
      content: t('users.removeText'),
      okText: t('users.remove'),
      okButtonProps: { danger: true, 'data-testid': 'remove-confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        await remove.mutateAsync({ params: { id: user.id } });
        message.success(t('users.removed', { account: user.account }));
        invalidate(companyApi.listUsers, companyApi.companyInfo);
      },
    });

  const columns: TableColumnsType<CompanyUser> = [
    { key: 'account', dataIndex: 'account', title: t('users.account'), width: 240 },
    { key: 'name', title: t('users.name'), width: 160, render: (_, u) => u.name || u.nickname || '--' },
    { key: 'phone', title: t('users.phone'), width: 140, render: (_, u) => u.phone || '--' },
    {
      key: 'role',
      title: t('users.role'),
      width: 180,
      render: (_, u) =>
        u.kind === 'company_admin' ? (
          <Tag color="gold">{t('users.admin')}</Tag>
        ) : u.roleName ? (
          <Tag>{u.roleName}</Tag>
        ) : (
          <Typography.Text type="secondary">{t('users.noRole')}</Typography.Text>
        ),
    },
    {
      key: 'enabled',
      title: t('users.state'),
      width: 110,
      render: (_, u) => (
        <Badge status={u.enabled ? 'success' : 'default'} text={u.enabled ? t('users.enabled') : t('users.disabled')} />
      ),
    },
    { key: 'created', title: t('users.created'), width: 130, render: (_, u) => date.format(new Date(u.createdAt)) },
    {
      key: 'actions',
      title: t('users.actions'),
      width: 180,
      fixed: 'right',
      render: (_, u) => (
        <Space size={4}>
          <Can call={companyApi.editUser}>
            <Button type="link" size="small" onClick={() => setDialog({ user: u })} data-testid={`user-edit-${u.id}`}>
              {t('users.edit')}
            </Button>
          </Can>
          {u.kind !== 'company_admin' && u.id !== profile.id && (
            <Can call={companyApi.deleteUser}>
              <Button type="link" size="small" danger onClick={() => confirmRemove(u)} data-testid={`user-remove-${u.id}`}>
                {t('users.remove')}
              </Button>
            </Can>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card data-testid="users-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:companyUsers')}</PageTitle>
        <Can call={companyApi.addUser}>
          <Button type="primary" onClick={() => setDialog({ user: null })} data-testid="user-add">
            {t('users.add')}
          </Button>
        </Can>
      </Flex>
      <Flex gap={12} wrap className={ui.gapBelow}>
        <Input.Search
          allowClear
          placeholder={t('users.search')}
          aria-label={t('users.search')}
          maxLength={64}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage((p) => ({ ...p, page: 1 }));
          }}
          className={styles.search}
          data-testid="user-search"
        />
        <Select
          allowClear
          placeholder={t('users.anyRole')}
          aria-label={t('users.role')}
          value={roleId}
          onChange={(v) => {
            setRoleId(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
          className={styles.filter}
        />
      </Flex>
      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<CompanyUser>
          fill
          aria-label={t('menu:companyUsers')}
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending || list.isFetching}
          pagination={listPagination({
            ...page,
            total: list.data?.total ?? 0,
            sizes: pageSizes,
            onPage: (p, size) => setPage({ page: p, size }),
          })}
        />
      )}
      {dialog && (
        <UserDialog
          user={dialog.user}
          roles={roles.data ?? []}
          self={profile.id}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            invalidate(companyApi.listUsers, companyApi.companyInfo);
          }}
        />
      )}
    </Card>
  );
}
