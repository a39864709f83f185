/**
 * /management/gateway (sys.gateway.view): the system administrators' gateway stock — filters
 * (SN or alias, customer, protocol, bound or not) kept in the address, the server-paged list
 * with its customer or agent, protocol, plant and state, and, for those who may edit
 * (sys.gateway.edit): create one or a batch, the import wizard, assign and set the protocol of
 * one row or the selected rows, delete (confirmed); the filtered list as .xlsx.
 */

import { ApiOutlined, DeleteOutlined, DownloadOutlined, PlusOutlined, TeamOutlined, UploadOutlined } from '@ant-design/icons';
import { gatewayProtocols, gatewayStockApi } from '@sunfleet/contracts';
import { App, Button, Card, Flex, Select, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerLanguage } from '../../api/hooks.ts';
import { CustomerSelect } from '../../components/CustomerSelect.tsx';
import { downloadFile } from '../../components/download.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { ListTable, listPagination } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { useAddressCriteria } from '../../components/useAddressCriteria.ts';
import { CreateDialog } from './CreateDialog.tsx';
import { criteriaSearch, isFiltered, KEYWORD_MAX, pageSizes, parseCriteria, serverFilters } from './criteria.ts';
import { EditDialog, type EditKind, useDeleteGateway } from './EditDialogs.tsx';
import { ProtocolSelect } from './fields.tsx';
import { ImportWizard } from './ImportWizard.tsx';
import css from './stock.module.css';
import { type StockRow, useStockList } from './stockQueries.ts';

const { STOCK_SELECTION_MAX } = gatewayStockApi;

export default function GatewayStockPage() {
  const { t, i18n } = useTranslation('gatewayStock');
  const { message } = App.useApp();
  const lan = useServerLanguage();
  const { criteria, update, onPage, reset } = useAddressCriteria(parseCriteria, criteriaSearch);
  const list = useStockList(criteria);
  const mayCall = useMayCall();
  const canEdit = mayCall(gatewayStockApi.createGateway);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<{ kind: EditKind; rows: StockRow[] } | null>(null);
  const [selected, setSelected] = useState<StockRow[]>([]);
  const confirmDelete = useDeleteGateway();

  const download = async () => {
    try {
      await downloadFile(
        gatewayStockApi.downloadGateways,
        { query: { ...serverFilters(criteria), lan } },
        `gateways-${new Date().toISOString().slice(0, 10)}.xlsx`,
      );
    } catch {
      message.error(t('actions.downloadFailed'));
    }
  };

  const dateFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }),
    [i18n.language],
  );

  const columns: TableColumnsType<StockRow> = [
    {
      key: 'sn',
      title: t('columns.gateway'),
      width: 170,
      render: (_, r) => (
        <Flex vertical className={ui.shrink}>
          <Typography.Text className={ui.mono} ellipsis={{ tooltip: r.sn }} data-testid={`stock-sn-${r.sn}`}>
            {r.sn}
          </Typography.Text>
          {r.alias && (
            <Typography.Text type="secondary" className={ui.note} ellipsis={{ tooltip: r.alias }}>
              {r.alias}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'customer',
      title: t('columns.customer'),
      width: 170,
      render: (_, r) =>
        r.company ? (
          <Typography.Text ellipsis={{ tooltip: r.company.name }} data-testid={`stock-customer-${r.sn}`}>
            {r.company.name}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('none')}</Typography.Text>
        ),
    },
    {
      key: 'protocol',
      title: t('columns.protocol'),
      width: 160,
      render: (_, r) => <span data-testid={`stock-protocol-${r.sn}`}>{gatewayProtocols(r)}</span>,
    },
    {
      key: 'plant',
      title: t('columns.plant'),
      width: 150,
      render: (_, r) => (r.plant ? r.plant.name : <Tag>{t('filters.unbound')}</Tag>),
    },
    {
      key: 'status',
      title: t('columns.status'),
      width: 100,
      render: (_, r) => <Tag color={r.status === 'online' ? 'green' : undefined}>{t(`status.${r.status}`)}</Tag>,
    },
    {
      key: 'created',
      title: t('columns.created'),
      width: 150,
      render: (_, r) => dateFormat.format(new Date(r.createdAt)),
    },
    ...(canEdit
      ? [
          {
            key: 'actions',
            title: t('columns.actions'),
            width: 112,
            fixed: 'right' as const,
            render: (_: unknown, r: StockRow) => (
              <Flex gap={2}>
                <Tooltip title={t('actions.assign')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<TeamOutlined />}
                    aria-label={`${t('actions.assign')} ${r.sn}`}
                    onClick={() => setEditing({ kind: 'assign', rows: [r] })}
                    data-testid={`stock-assign-${r.sn}`}
                  />
                </Tooltip>
                <Tooltip title={t('actions.protocol')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ApiOutlined />}
                    aria-label={`${t('actions.protocol')} ${r.sn}`}
                    onClick={() => setEditing({ kind: 'protocol', rows: [r] })}
                    data-testid={`stock-protocol-edit-${r.sn}`}
                  />
                </Tooltip>
                <Tooltip title={r.plant ? t('delete.bound') : t('actions.delete')}>
                  <Button
                    type="text"
                    size="small"
                    danger
                    disabled={r.plant !== null}
                    icon={<DeleteOutlined />}
                    aria-label={`${t('actions.delete')} ${r.sn}`}
                    onClick={() => void confirmDelete(r)}
                    data-testid={`stock-delete-${r.sn}`}
                  />
                </Tooltip>
              </Flex>
            ),
          },
        ]
      : []),
  ];

  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;

  return (
    <Card data-testid="gateway-stock-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:systemGateways')}</PageTitle>
        <Flex gap={8} wrap>
          {canEdit && (
            <>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="stock-create">
                {t('actions.create')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="stock-import">
                {t('actions.import')}
              </Button>
            </>
          )}
          <GuardedButton icon={<DownloadOutlined />} onClick={download} data-testid="stock-download">
            {t('actions.download')}
          </GuardedButton>
        </Flex>
      </Flex>

      <Flex gap={8} wrap className={ui.gapBelowSm} role="search">
        <SafeInput
          allowClear
          maxLength={KEYWORD_MAX}
          placeholder={t('filters.keyword')}
          aria-label={t('filters.keyword')}
          defaultValue={criteria.keyword}
          key={`q-${criteria.keyword}`}
          onPressEnter={(e) => update({ keyword: (e.target as HTMLInputElement).value.trim() })}
          onChange={(v) => {
            if (v === '') update({ keyword: '' });
          }}
          onBlur={(e) => update({ keyword: e.target.value.trim() })}
          className={css.keyword}
          data-testid="stock-filter-keyword"
        />
        <div className={css.customer}>
          <CustomerSelect
            className={css.full}
            value={criteria.customerId ?? null}
            onChange={(v) => update({ customerId: v ?? undefined })}
            placeholder={t('filters.customer')}
            testId="stock-filter-customer"
          />
        </div>
        <div className={css.protocol}>
          <ProtocolSelect
            value={criteria.protocol ?? null}
            onChange={(v) => update({ protocol: v ?? undefined })}
            placeholder={t('filters.anyProtocol')}
            testId="stock-filter-protocol"
          />
        </div>
        <Select
          allowClear
          placeholder={t('filters.binding')}
          aria-label={t('filters.binding')}
          value={criteria.binding}
          onChange={(v) => update({ binding: v })}
          options={(['unbound', 'bound'] as const).map((b) => ({ value: b, label: t(`filters.${b}`) }))}
          className={css.binding}
          data-testid="stock-filter-binding"
        />
        {isFiltered(criteria) && (
          <Button type="link" onClick={reset}>
            {t('filters.reset')}
          </Button>
        )}
      </Flex>

      {canEdit && selected.length > 0 && (
        <Flex align="center" gap={12} wrap className={ui.gapBelowSm} data-testid="stock-bulk-bar">
          <Typography.Text strong>{t('selected', { count: selected.length })}</Typography.Text>
          <Button
            icon={<TeamOutlined />}
            onClick={() => setEditing({ kind: 'assign', rows: selected })}
            data-testid="stock-bulk-assign"
          >
            {t('actions.assign')}
          </Button>
          <Button
            icon={<ApiOutlined />}
            onClick={() => setEditing({ kind: 'protocol', rows: selected })}
            data-testid="stock-bulk-protocol"
          >
            {t('actions.protocol')}
          </Button>
          <Button type="link" onClick={() => setSelected([])}>
            {t('clearSelection')}
          </Button>
        </Flex>
      )}

      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<StockRow>
          fill
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={list.isPending || list.isFetching}
          locale={{ emptyText: isFiltered(criteria) ? t('empty') : t('emptyStock') }}
          aria-label={t('menu:systemGateways')}
          data-testid="stock-table"
          rowSelection={
            canEdit
              ? {
                  preserveSelectedRowKeys: true,
                  selectedRowKeys: selected.map((r) => r.id),
                  onChange: (_keys, picked) => {
                    const known = new Map(selected.map((r) => [r.id, r]));
                    for (const r of picked) if (r) known.set(r.id, r);
                    setSelected(
                      _keys
                        .map((k) => known.get(Number(k)))
                        .filter((r): r is StockRow => !!r)
                        .slice(0, STOCK_SELECTION_MAX),
                    );
                  },
                }
              : undefined
          }
          pagination={listPagination({
            ...criteria,
            total,
            sizes: pageSizes,
            onPage,
            totalText: (n) => t('total', { count: n }),
          })}
        />
      )}

      <CreateDialog open={creating} onClose={() => setCreating(false)} />
      <ImportWizard open={importing} onClose={() => setImporting(false)} />
      <EditDialog
        kind={editing?.kind ?? null}
        rows={editing?.rows ?? []}
        onClose={(changed) => {
          if (changed && editing && editing.rows.length > 1) setSelected([]);
          setEditing(null);
        }}
      />
    </Card>
  );
}
