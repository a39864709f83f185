/**
 * The plant table: one server page at a time in a list table filling the window's height; sorting on the
 * visible columns is done by the server (default createAt, order 2: newest first). Selection goes to
 * the selected-plants store, so it survives paging. Row actions follow the one rule (`useMayCall`):
 * the call granted, not a read-only account, and the row's rights from the server (`canEdit`: a
 * visitor edits nothing; `canManage`: only the owner, or the company holding a company plant,
 * deletes, shares and transfers).
 */
import { BellOutlined, DeleteOutlined, EditOutlined, ShareAltOutlined, SwapOutlined } from '@ant-design/icons';
import { plantsApi } from '@sunfleet/contracts';
import { Badge, Button, ConfigProvider, Flex, type TableColumnsType, type TableProps, Tooltip, Typography, theme } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListTable, Titled } from '../../components/ListTable.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { formatCapacity, formatEnergy, formatPower, relativeTime } from '../../lib/format.ts';
import { statusStyle } from '../../lib/statusColours.ts';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';
import { usePlantTypes } from './plantQueries.ts';
import styles from './plants.module.css';
import { type PlantRow, type PlantSort, plantSelection, type SelectionState, toSelected } from './selection.ts';

/** A selected row: a light tint of the brand colour (the brand colour itself is too strong). */
export const selectedTint = (primary: string, background: string, percent = 14) =>
  `color-mix(in srgb, ${primary} ${percent}%, ${background})`;

export interface RowActions {
  onShare(row: PlantRow): void;
  onTransfer(row: PlantRow): void;
  onDelete(row: PlantRow): void;
}

interface Props extends RowActions {
  /** Show the selection checkboxes (some bulk action is available). */
  selectable: boolean;
  rows: PlantRow[];
  total: number;
  loading: boolean;
  selection: SelectionState;
}

const sortable: ReadonlySet<string> = new Set(['name', 'capacity', 'power', 'todayEnergy', 'totalEnergy', 'lastUpdate']);

export function PlantTable({ selectable, rows, total, loading, selection, onShare, onTransfer, onDelete }: Props) {
  const { t, i18n } = useTranslation('plants');
  const navigate = useNavigate();
  const types = usePlantTypes();
  const may = useMayCall();
  const { criteria } = selection;
  const { token } = theme.useToken();
  const typeName = useMemo(() => new Map((types.data ?? []).map((x) => [x.value, x.name])), [types.data]);

  const sortOrder = (key: PlantSort) => (criteria.sort === key ? (criteria.order === 1 ? 'ascend' : 'descend') : null);
  const right = { align: 'right' as const };

  const columns: TableColumnsType<PlantRow> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('columns.name'),
      width: 150,
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrder('name'),
      ellipsis: true,
      render: (_, row) => (
        <Flex vertical className={ui.shrink}>
          <Link
            to={`/plants/overview/${row.id}/${row.type}`}
            data-testid={`plant-link-${row.id}`}
            title={row.name}
            className={styles.nameLink}
          >
            {row.name}
          </Link>
          <Typography.Text type="secondary" ellipsis={{ tooltip: true }} className={ui.note}>
            {typeName.get(row.type) ?? t(`types.${row.type}`)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('columns.status'),
      width: 124,
      render: (_, row) => (
        <Badge
          status={statusStyle[row.status].badge}
          text={<Titled text={t(`status.${row.status}`)} />}
          data-testid={`plant-status-${row.id}`}
        />
      ),
    },
    {
      key: 'capacity',
      dataIndex: 'capacity',
      title: t('columns.capacity'),
      width: 104,
      sorter: true,
      sortOrder: sortOrder('capacity'),
      ...right,
      render: (v: number) => formatCapacity(v),
    },
    {
      key: 'power',
      dataIndex: 'power',
      title: t('columns.power'),
      width: 100,
      sorter: true,
      sortOrder: sortOrder('power'),
      ...right,
      render: (v: number | null) => formatPower(v),
    },
    {
      key: 'todayEnergy',
      dataIndex: 'todayEnergy',
      title: t('columns.todayEnergy'),
      width: 92,
      sorter: true,
      sortOrder: sortOrder('todayEnergy'),
      ...right,
      render: (v: number) => formatEnergy(v),
    },
    {
      key: 'totalEnergy',
      dataIndex: 'totalEnergy',
      title: t('columns.totalEnergy'),
      width: 100,
      sorter: true,
      sortOrder: sortOrder('totalEnergy'),
      ...right,
      render: (v: number) => formatEnergy(v),
    },
    {
      key: 'lastUpdate',
      dataIndex: 'lastUpdate',
      title: t('columns.lastUpdate'),
      width: 116,
      sorter: true,
      sortOrder: sortOrder('lastUpdate'),
      render: (v: string | null) =>
        v ? (
          <Tooltip title={formatZoned(v, browserZone(), i18n.language, { seconds: true })}>
            <span>{relativeTime(v, i18n.language)}</span>
          </Tooltip>
        ) : (
          '--'
        ),
    },
    {
      key: 'owner',
      title: t('columns.owner'),
      width: 120,
      ellipsis: true,
      render: (_, row) => {
        const owner = row.owner ? (row.owner.nickname ?? row.owner.account ?? `#${row.owner.id}`) : null;
        return (
          <Flex vertical className={ui.shrink}>
            <Typography.Text ellipsis={{ tooltip: true }}>{owner ?? '--'}</Typography.Text>
            {row.company && (
              <Typography.Text type="secondary" ellipsis={{ tooltip: true }} className={ui.note}>
                {row.company.name}
              </Typography.Text>
            )}
          </Flex>
        );
      },
    },
    {
      key: 'alarms',
      dataIndex: 'alarms',
      title: (
        <Tooltip title={t('columns.alarms')}>
          <BellOutlined aria-label={t('columns.alarms')} />
        </Tooltip>
      ),
      width: 56,
      align: 'center',
      render: (v: number) =>
        v > 0 ? <Badge count={v} overflowCount={999} /> : <Typography.Text type="secondary">0</Typography.Text>,
    },
    {
      key: 'actions',
      title: t('columns.actions'),
      width: 120,
      fixed: 'right',
      render: (_, row) => {
        const action = (key: string, label: string, icon: ReactNode, onClick: () => void, danger = false) => (
          <Tooltip title={label} key={key}>
            <Button
              type="text"
              size="small"
              icon={icon}
              danger={danger}
              aria-label={label}
              onClick={onClick}
              data-testid={`plant-${key}-${row.id}`}
            />
          </Tooltip>
        );
        return (
          <Flex gap={2}>
            {may(plantsApi.editPlant, row.canEdit) &&
              action('edit', t('actions.edit'), <EditOutlined />, () => navigate(`/plants/edit/${row.id}`))}
            {may(plantsApi.sharePlant, row.canManage) &&
              action('share', t('actions.share'), <ShareAltOutlined />, () => onShare(row))}
            {may(plantsApi.transferPlant, row.canManage) &&
              action('transfer', t('actions.transfer'), <SwapOutlined />, () => onTransfer(row))}
            {may(plantsApi.deletePlant, row.canManage) &&
              action('delete', t('actions.delete'), <DeleteOutlined />, () => onDelete(row), true)}
          </Flex>
        );
      },
    },
  ];

  // The actions column only when some row has an action.
  const anyAction = rows.some(
    (row) =>
      may(plantsApi.editPlant, row.canEdit) ||
      [plantsApi.sharePlant, plantsApi.transferPlant, plantsApi.deletePlant].some((call) => may(call, row.canManage)),
  );
  const shown = anyAction ? columns : columns.filter((c) => c.key !== 'actions');

  const onChange: TableProps<PlantRow>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<PlantRow> | undefined;
      const key = String(s?.columnKey ?? '');
      if (s?.order && sortable.has(key))
        plantSelection.dispatch({ type: 'criteria', criteria: { sort: key as PlantSort, order: s.order === 'ascend' ? 1 : 2 } });
      else plantSelection.dispatch({ type: 'criteria', criteria: { sort: 'createAt', order: 2 } });
      return;
    }
    if (extra.action === 'paginate')
      plantSelection.dispatch({ type: 'page', page: pagination.current ?? 1, size: pagination.pageSize ?? selection.size });
  };

  const selectedKeys = useMemo(() => [...selection.selected.keys()], [selection.selected]);

  return (
    <ConfigProvider
      theme={{
        components: {
          Table: {
            rowSelectedBg: selectedTint(token.colorPrimary, token.colorBgContainer),
            rowSelectedHoverBg: selectedTint(token.colorPrimary, token.colorBgContainer, 20),
          },
        },
      }}
    >
      <ListTable<PlantRow>
        fill
        rowKey="id"
        size="middle"
        columns={shown}
        dataSource={rows}
        loading={loading}
        onChange={onChange}
        showSorterTooltip={false}
        locale={{ emptyText: t('empty') }}
        data-testid="plant-table"
        rowSelection={
          selectable
            ? {
                selectedRowKeys: selectedKeys,
                preserveSelectedRowKeys: true,
                fixed: true,
                columnWidth: 40,
                getCheckboxProps: (row) => ({ 'aria-label': t('select', { name: row.name }) }),
                onChange: (keys) => {
                  const now = new Set(keys.map(Number));
                  const removed = selectedKeys.filter((id) => !now.has(id));
                  const added = rows.filter((r) => now.has(r.id) && !selection.selected.has(r.id)).map((r) => toSelected(r));
                  if (removed.length) plantSelection.dispatch({ type: 'remove', ids: removed });
                  if (added.length) plantSelection.dispatch({ type: 'add', plants: added });
                },
              }
            : undefined
        }
        pagination={{
          current: selection.page,
          pageSize: selection.size,
          total,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (n) => t('total', { count: n }),
        }}
      />
    </ConfigProvider>
  );
}
