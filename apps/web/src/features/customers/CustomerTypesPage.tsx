/**
 * /customer/type (customer.type.list.view): customer types with their subtypes as a tree table
 * (paged over the types; a name search finds a type by a subtype too), remark, how many
 * customers hold each; add a type or a subtype, edit, delete after a confirmation. A type with
 * a subtype is not deleted: the server's message says so (1007), as does one customers hold.
 */
import { PlusOutlined } from '@ant-design/icons';
import { customersApi as api, ErrorCode } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Input, Space, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { ListTable, listPagination } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Can } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { PAGE_SIZES } from './criteria.ts';
import { type CustomerTypeRow, useInvalidateCustomers } from './customerQueries.ts';
import styles from './customers.module.css';
import { TypeDialog } from './TypeDialog.tsx';

type Row = CustomerTypeRow & { children?: Row[] };

export default function CustomerTypesPage() {
  const { t } = useTranslation('customers');
  const { modal, message } = App.useApp();
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [page, setPage] = useState({ page: 1, size: 20 });
  const list = useApiQuery(api.listCustomerTypes, { query: { ...page, ...(name ? { name } : {}) } });
  const invalidate = useInvalidateCustomers();
  const [dialog, setDialog] = useState<{ type: CustomerTypeRow | null; parentId?: number } | null>(null);

  // A subtype row carries no `children` key, so the tree table draws no expander on it.
  const rows = useMemo<Row[]>(
    () =>
      (list.data?.list ?? []).map((type) => ({
        ...type,
        children: type.children.length > 0 ? (type.children as unknown as Row[]) : undefined,
      })) as Row[],
    [list.data],
  );
  // Every type opens on its subtypes; the ones the user closes stay closed.
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const expanded = useMemo(() => rows.filter((r) => r.children && !collapsed.has(r.id)).map((r) => r.id), [rows, collapsed]);
  const onExpand = (open: boolean, r: Row) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (open) next.delete(r.id);
      else next.add(r.id);
      return next;
    });

  const confirmDelete = useCallback(
    (type: Row) =>
      modal.confirm({
        title: t('types.deleteTitle', { name: type.name }),
        content: <Typography.Paragraph className={ui.flush}>{t('types.deleteText')}</Typography.Paragraph>,
        okText: t('delete.ok'),
        okButtonProps: { danger: true, 'data-testid': 'delete-confirm-ok' },
        cancelText: t('common:cancel'),
        onOk: async () => {
          try {
            await call(api.deleteCustomerType, { params: { id: type.id }, tolerate: [ErrorCode.validation, ErrorCode.notFound] });
            message.success(t('types.deleted', { name: type.name }));
          } catch (err) {
            if (err instanceof ApiError && err.tolerated && err.code !== ErrorCode.notFound)
              message.error({ content: err.code === ErrorCode.validation ? t('types.inUse') : err.message, key: 'type-delete' });
          }
          await invalidate();
        },
      }),
    [modal, message, invalidate, t],
  );

  const columns = useMemo(
    () => [
      { title: t('types.name'), dataIndex: 'name', key: 'name', width: 240 },
      {
        title: t('types.remark'),
        key: 'remark',
        width: 280,
        render: (_: unknown, r: Row) => r.remark ?? '--',
      },
      { title: t('types.customers'), dataIndex: 'customers', key: 'customers', width: 120, align: 'right' as const },
      {
        title: t('fields.permissions'),
        key: 'permissions',
        width: 120,
        align: 'right' as const,
        render: (_: unknown, r: Row) => r.permissions.length,
      },
      {
        title: t('fields.actions'),
        key: 'actions',
        width: 240,
        fixed: 'right' as const,
        render: (_: unknown, r: Row) => (
          <Can call={api.editCustomerType}>
            <Space size={4}>
              {r.parentId === null && (
                <Button
                  type="link"
                  size="small"
                  onClick={() => setDialog({ type: null, parentId: r.id })}
                  data-testid={`type-add-sub-${r.id}`}
                >
                  {t('types.addSubtype')}
                </Button>
              )}
              <Button
                type="link"
                size="small"
                onClick={() => setDialog({ type: withChildren(r) })}
                data-testid={`type-edit-${r.id}`}
              >
                {t('actions.edit')}
              </Button>
              <Button type="link" size="small" danger onClick={() => confirmDelete(r)} data-testid={`type-delete-${r.id}`}>
                {t('actions.delete')}
              </Button>
            </Space>
          </Can>
        ),
      },
    ],
    [t, confirmDelete],
  );

  return (
    <Card data-testid="customer-types-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:customerTypes')}</PageTitle>
        <Can call={api.createCustomerType}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ type: null })} data-testid="type-add">
            {t('types.add')}
          </Button>
        </Can>
      </Flex>
      <Flex gap={8} className={styles.filters}>
        <Input.Search
          allowClear
          placeholder={t('types.search')}
          aria-label={t('types.search')}
          value={search}
          maxLength={32}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(v) => {
            setName(v.trim());
            setPage((p) => ({ ...p, page: 1 }));
          }}
          className={styles.filterWide}
          data-testid="type-search"
        />
      </Flex>
      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<Row>
          fill
          rowKey="id"
          size="middle"
          aria-label={t('menu:customerTypes')}
          columns={columns}
          dataSource={rows}
          loading={list.isPending || list.isFetching}
          expandable={{ expandedRowKeys: expanded, onExpand }}
          locale={{ emptyText: name ? t('emptyFiltered') : t('types.empty') }}
          data-testid="type-table"
          pagination={listPagination({
            ...page,
            total: list.data?.total ?? 0,
            sizes: PAGE_SIZES,
            totalText: (n) => t('types.total', { count: n }),
            onPage: (p, size) => setPage({ page: p, size }),
          })}
        />
      )}
      {dialog && <TypeDialog type={dialog.type} parentId={dialog.parentId} onClose={() => setDialog(null)} />}
    </Card>
  );
}

/** The row as the dialog wants it: a type with its subtypes (a subtype has none). */
function withChildren(r: Row): CustomerTypeRow {
  return { ...r, children: r.children ?? [] } as CustomerTypeRow;
}
