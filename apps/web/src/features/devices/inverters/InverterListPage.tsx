/**
 * /device/inverter (inverter.view): counts per state (off while powered off, as the badges and
 * the status filter), filters (plant, state, type, SN or alias), the server-sorted and paged list; a row opens the inverter. Rename and delete show
 * with the page's inverter.alias / inverter.delete buttons (the server still checks the plant).
 */
import { CloudUploadOutlined, ControlOutlined } from '@ant-design/icons';
import {
  type DeviceStateName,
  deviceStates,
  devicesApi,
  inverterTypeName,
  limits,
  settingsApi,
  upgradesApi,
} from '@sunfleet/contracts';
import { Button, Flex, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMayCall, usePermission } from '../../../components/Permission.tsx';
import { StatusCards } from '../../../components/StatusCards.tsx';
import { useUpgrade } from '../../../components/UpgradeAction.tsx';
import { formatEnergy, formatPower } from '../../../lib/format.ts';
import { AliasDialog, type AliasTarget } from '../shared/AliasDialog.tsx';
import { DeviceListBody } from '../shared/DeviceTable.tsx';
import { namesLanguage, stateName, typeNameOf } from '../shared/format.ts';
import { ListFrame, TwoLines } from '../shared/ListParts.tsx';
import { ListToolbar } from '../shared/ListToolbar.tsx';
import { actionsColumn, deviceColumns } from '../shared/listColumns.tsx';
import { countQuery, type ListSpec, listQuery, useListState } from '../shared/listState.ts';
import { detailPath, type InverterRow } from '../shared/types.ts';
import { useDeleteDevice } from '../shared/useDeleteDevice.tsx';
import '../shared/devices.css';
import { useInverterCounts, useInverterList } from './inverterQueries.ts';

const spec: ListSpec<(typeof devicesApi.inverterSorts)[number]> = {
  sorts: devicesApi.inverterSorts,
  defaultSort: 'sn',
  statuses: deviceStates,
  types: devicesApi.inverterTypeKeys,
};

export default function InverterListPage() {
  const { t, i18n } = useTranslation('devices');
  const navigate = useNavigate();
  const [state, update] = useListState(spec);
  const canRename = usePermission('inverter.alias');
  const canDelete = usePermission('inverter.delete');
  const confirmDelete = useDeleteDevice('inverter');
  const [renaming, setRenaming] = useState<AliasTarget | null>(null);
  // Remote settings of the selected inverters as one batch (with inverter.setting, not read-only).
  const canBatch = useMayCall()(settingsApi.settingBatch);
  // A firmware upgrade of the selected inverters as one staged rollout (inverter.upgrade, not read-only).
  const canUpgrade = useMayCall()(upgradesApi.inverterBatchUpgrade);
  const upgrade = useUpgrade('inverter');
  const [selected, setSelected] = useState<string[]>([]);

  const filters = { ...countQuery(state), ...(state.type ? { type: state.type as InverterRow['typeKey'] } : {}) };
  const counts = useInverterCounts(filters);
  const list = useInverterList({
    ...listQuery(state),
    ...filters,
    ...(state.status ? { status: state.status as DeviceStateName } : {}),
  });
  const right = { align: 'right' as const };

  const c = deviceColumns<InverterRow>(t, 'inverter');
  const columns: TableColumnsType<InverterRow> = [
    c.device,
    c.place,
    {
      key: 'type',
      title: t('columns.type'),
      width: 170,
      render: (_, row) => <TwoLines main={typeNameOf(row, i18n.language)} sub={row.protocol} />,
    },
    c.status,
    {
      key: 'power',
      title: t('columns.power'),
      width: 100,
      sorter: true,
      ...right,
      render: (_, row) => formatPower(row.power),
    },
    {
      key: 'ratedPower',
      title: t('columns.ratedPower'),
      width: 100,
      sorter: true,
      ...right,
      render: (_, row) => formatPower(row.ratedPower),
    },
    {
      key: 'todayEnergy',
      title: t('columns.todayEnergy'),
      width: 104,
      sorter: true,
      ...right,
      render: (_, row) => formatEnergy(row.todayEnergy),
    },
    c.lastUpdate,
    ...actionsColumn<InverterRow>(t, {
      rename: canRename ? (row) => setRenaming({ sn: row.sn, alias: row.alias }) : undefined,
      remove: canDelete ? (row) => void confirmDelete(row) : undefined,
    }),
  ];

  return (
    <ListFrame title={t('menu:inverters')} testId="inverter-list-page">
      <StatusCards
        counts={counts.data}
        loading={counts.isPending}
        status={state.status as DeviceStateName | undefined}
        onStatus={(status) => update({ status })}
        statusLabel={(s) => stateName(s, i18n.language)}
        allLabel={t('all.inverter')}
        statuses={deviceStates}
      />
      <ListToolbar
        state={state}
        onChange={update}
        statuses={deviceStates.map((s) => ({ value: s, label: stateName(s, i18n.language) }))}
        types={devicesApi.inverterTypeKeys.map((k) => ({ value: k, label: inverterTypeName(k, namesLanguage(i18n.language)) }))}
        typeLabel={t('filters.inverterType')}
      />
      {(canBatch || canUpgrade) && selected.length > 0 && (
        <Flex align="center" gap={12} wrap data-testid="inverter-bulk-bar">
          <Typography.Text strong data-testid="inverter-selected">
            {t('selected', { count: selected.length })}
          </Typography.Text>
          {canBatch && (
            <Button
              type="primary"
              icon={<ControlOutlined />}
              onClick={() => navigate(`/device/setting?sns=${selected.map(encodeURIComponent).join(',')}`)}
              data-testid="inverter-remote-settings"
            >
              {t('remoteSettings')}
            </Button>
          )}
          {canUpgrade && (
            <Button
              icon={<CloudUploadOutlined />}
              onClick={() => {
                const rows = new Map((list.data?.list ?? []).map((r) => [r.sn, r]));
                upgrade.open(
                  selected.map((sn) => {
                    const r = rows.get(sn);
                    return { sn, name: r?.alias || sn, plantName: r?.plant?.name ?? null };
                  }),
                );
              }}
              data-testid="inverter-upgrade-selected"
            >
              {t('common:upgrade.upgradeSelected')}
            </Button>
          )}
          <Button onClick={() => setSelected([])}>{t('clearSelection')}</Button>
        </Flex>
      )}
      <DeviceListBody<InverterRow>
        list={list}
        countTotal={counts.data?.total}
        emptyDescription={t('empty.inverter')}
        rowKey="sn"
        columns={columns}
        state={state}
        onChange={update}
        onOpen={(row) => navigate(detailPath('inverter', row.sn))}
        emptyText={t('noMatch')}
        totalText={(n) => t('total.inverter', { count: n })}
        testId="inverter-table"
        rowSelection={
          canBatch || canUpgrade
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                fixed: true,
                columnWidth: 40,
                getCheckboxProps: (row) => ({ 'aria-label': t('select', { sn: row.sn }) }),
                onChange: (keys) => setSelected(keys.map(String).slice(0, limits.settingBatchDevices)),
              }
            : undefined
        }
      />
      <AliasDialog kind="inverter" device={renaming} onClose={() => setRenaming(null)} />
      {upgrade.dialog}
    </ListFrame>
  );
}
