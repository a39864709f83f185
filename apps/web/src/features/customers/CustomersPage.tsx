/**
 * /customer/list (customer.list.view): the platform's customers — filters (name, administrator
 * account, type with its subtypes, agent) kept in the address, the server-paged list, add and
 * edit in a dialog (details, type, agent, administrator account, permissions as a tree), delete
 * after a confirmation that says what happens to the customer's gateways and accounts; what
 * the server refuses (903 while it is an agent, 4 while it holds plants) is said as it is.
 */
import { PlusOutlined } from '@ant-design/icons';
import { customersApi as api, ErrorCode } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Input, Select, Space, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { ListTable, listPagination, Titled } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { Can } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { useAddressCriteria } from '../../components/useAddressCriteria.ts';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';
import { CustomerDialog } from './CustomerDialog.tsx';
import { criteriaSearch, isFiltered, PAGE_SIZES, parseCriteria } from './criteria.ts';
import {
  type CustomerRow,
  typeLabel,
  useCustomerList,
  useCustomerPicks,
  useInvalidateCustomers,
  useTypePicks,
} from './customerQueries.ts';
import styles from './customers.module.css';

export default function CustomersPage() {
  const { t, i18n } = useTranslation('customers');
  const { modal, message } = App.useApp();
  const { criteria, update, onPage, reset } = useAddressCriteria(parseCriteria, criteriaSearch);
  const list = useCustomerList(criteria);
  const types = useTypePicks();
  const agents = useCustomerPicks();
  const invalidate = useInvalidateCustomers();
  const [dialog, setDialog] = useState<{ customer: CustomerRow | null } | null>(null);
  const [name, setName] = useState(criteria.name);
  const [account, setAccount] = useState(criteria.account);
  const [zone] = useState(browserZone);

  const confirmDelete = useCallback(
    (c: CustomerRow) =>
      modal.confirm({
        title: t('delete.title', { name: c.name }),
        content: (
          <Typography.Paragraph className={ui.flush}>
            {t('delete.text', { gateways: c.gateways, users: c.users })}
          </Typography.Paragraph>
        ),
        okText: t('delete.ok'),
        okButtonProps: { danger: true, 'data-testid': 'delete-confirm-ok' },
        cancelText: t('common:cancel'),
        onOk: async () => {
          try {
            await call(api.deleteCustomer, { params: { id: c.id }, tolerate: [ErrorCode.validation, ErrorCode.notFound] });
            message.success(t('delete.done', { name: c.name }));
          } catch (err) {
            if (err instanceof ApiError && err.tolerated && err.code !== ErrorCode.notFound)
              message.error(err.serverMessage ?? err.message);
          }
          await invalidate();
        },
      }),
    [modal, message, invalidate, t],
  );

  const columns = useMemo(
    () => [
      { title: t('fields.name'), dataIndex: 'name', key: 'name', width: 200 },
      { title: t('fields.account'), key: 'account', width: 220, render: (_: unknown, c: CustomerRow) => c.account ?? '--' },
      {
        title: t('fields.type'),
        key: 'type',
        width: 160,
        render: (_: unknown, c: CustomerRow) => c.customerType?.name ?? '--',
      },
      {
        title: t('fields.agent'),
        key: 'agent',
        width: 180,
        render: (_: unknown, c: CustomerRow) => (c.agent ? <Titled text={c.agent.name} /> : '--'),
      },
      {
        title: t('fields.contactName'),
        key: 'contact',
        width: 150,
        render: (_: unknown, c: CustomerRow) => c.contactName ?? '--',
      },
      { title: t('fields.phone'), key: 'phone', width: 150, render: (_: unknown, c: CustomerRow) => c.phone ?? '--' },
      { title: t('fields.customers'), dataIndex: 'customers', key: 'customers', width: 110, align: 'right' as const },
      { title: t('fields.gateways'), dataIndex: 'gateways', key: 'gateways', width: 110, align: 'right' as const },
      {
        title: t('fields.createdAt'),
        key: 'createdAt',
        width: 170,
        render: (_: unknown, c: CustomerRow) => formatZoned(c.createdAt, zone, i18n.language),
      },
      {
        title: t('fields.actions'),
        key: 'actions',
        width: 160,
        fixed: 'right' as const,
        render: (_: unknown, c: CustomerRow) => (
          <Space size={4}>
            <Can call={api.editCustomer}>
              <Button type="link" size="small" onClick={() => setDialog({ customer: c })} data-testid={`customer-edit-${c.id}`}>
                {t('actions.edit')}
              </Button>
            </Can>
            <Can call={api.deleteCustomer}>
              <Button type="link" size="small" danger onClick={() => confirmDelete(c)} data-testid={`customer-delete-${c.id}`}>
                {t('actions.delete')}
              </Button>
            </Can>
          </Space>
        ),
      },
    ],
    [t, i18n.language, zone, confirmDelete],
  );

  const typeOptions = (types.data ?? []).map((p) => ({ value: p.id, label: typeLabel(p, types.data ?? []) }));
  const agentOptions = (agents.data ?? []).map((a) => ({ value: a.id, label: a.name }));

  return (
    <Card data-testid="customers-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:customerList')}</PageTitle>
        <Can call={api.createCustomer}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ customer: null })} data-testid="customer-add">
            {t('actions.add')}
          </Button>
        </Can>
      </Flex>

      <Flex gap={8} wrap className={styles.filters} data-testid="customer-filters">
        <Input.Search
          allowClear
          placeholder={t('filters.name')}
          aria-label={t('filters.name')}
          value={name}
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
          onSearch={(v) => update({ name: v.trim() })}
          className={styles.filter}
          data-testid="filter-name"
        />
        <Input.Search
          allowClear
          placeholder={t('filters.account')}
          aria-label={t('filters.account')}
          value={account}
          maxLength={254}
          onChange={(e) => setAccount(e.target.value)}
          onSearch={(v) => update({ account: v.trim() })}
          className={styles.filterWide}
          data-testid="filter-account"
        />
        <Select
          allowClear
          placeholder={t('filters.type')}
          aria-label={t('filters.type')}
          options={typeOptions}
          value={criteria.customerTypeId}
          onChange={(v?: number) => update({ customerTypeId: v })}
          className={styles.filter}
          data-testid="filter-type"
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('filters.agent')}
          aria-label={t('filters.agent')}
          options={agentOptions}
          value={criteria.agentId}
          onChange={(v?: number) => update({ agentId: v })}
          className={styles.filter}
          data-testid="filter-agent"
        />
        {isFiltered(criteria) && (
          <Button
            onClick={() => {
              setName('');
              setAccount('');
              reset();
            }}
            data-testid="filter-reset"
          >
            {t('filters.reset')}
          </Button>
        )}
      </Flex>

      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<CustomerRow>
          fill
          rowKey="id"
          size="middle"
          aria-label={t('menu:customerList')}
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending || list.isFetching}
          locale={{ emptyText: isFiltered(criteria) ? t('emptyFiltered') : t('empty') }}
          data-testid="customer-table"
          pagination={listPagination({
            ...criteria,
            total: list.data?.total ?? 0,
            sizes: PAGE_SIZES,
            onPage,
            totalText: (n) => t('total', { count: n }),
          })}
        />
      )}

      {dialog && <CustomerDialog customer={dialog.customer} onClose={() => setDialog(null)} />}
    </Card>
  );
}
