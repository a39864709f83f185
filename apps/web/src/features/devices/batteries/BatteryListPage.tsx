/**
 * /device/battery (battery.list.view): battery systems (masters) with counts per status,
 * filters (plant, status, SN or alias), the server-sorted and paged list with SOC and SOH; the
 * pack count opens the slave packs (batteries/{id}/slave). A row opens the battery; delete
 * shows with the battery.delete button.
 */
import { devicesApi } from '@sunfleet/contracts';
import { Button, Empty, Popover, Progress, Skeleton, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListTable } from '../../../components/ListTable.tsx';
import { usePermission } from '../../../components/Permission.tsx';
import { StatusCards } from '../../../components/StatusCards.tsx';
import { formatPower } from '../../../lib/format.ts';
import { DeviceListBody } from '../shared/DeviceTable.tsx';
import { formatValue, stateName } from '../shared/format.ts';
import { ListFrame } from '../shared/ListParts.tsx';
import { ListToolbar } from '../shared/ListToolbar.tsx';
import { actionsColumn, deviceColumns } from '../shared/listColumns.tsx';
import { countQuery, type ListSpec, listQuery, useListState } from '../shared/listState.ts';
import { type BatteryPack, type BatteryRow, detailPath } from '../shared/types.ts';
import { useDeleteDevice } from '../shared/useDeleteDevice.tsx';
import '../shared/devices.css';
import { usePalette } from '../../../components/palette.ts';
import { chargeColour } from '../../../lib/statusColours.ts';
import styles from '../shared/devices.module.css';
import { useBatteryCounts, useBatteryList, useBatterySlaves } from './batteryQueries.ts';

const spec: ListSpec<(typeof devicesApi.batterySorts)[number]> = {
  sorts: devicesApi.batterySorts,
  defaultSort: 'sn',
  statuses: devicesApi.deviceStatuses,
};

/** SOC as a small bar with the value. */
export function SocBar({ value, testId }: { value: number | null; testId?: string }) {
  const { t } = useTranslation('devices');
  const palette = usePalette();
  if (value === null) return <span data-testid={testId}>--</span>;
  const color = chargeColour(palette, value);
  return (
    <Progress
      percent={Math.max(0, Math.min(100, value))}
      size="small"
      strokeColor={color}
      format={() => formatValue(value, '%')}
      aria-label={t('battery.soc')}
      className={styles.socBar}
      data-testid={testId}
    />
  );
}

function SlavePacks({ battery }: { battery: BatteryRow }) {
  const { t } = useTranslation('devices');
  const slaves = useBatterySlaves(battery.id);
  if (slaves.isPending) return <Skeleton active paragraph={{ rows: 2 }} className={styles.slavesSkeleton} />;
  if (slaves.isError) return <span>{slaves.error.message}</span>;
  if (slaves.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('battery.noSlaves')} />;
  return (
    <ListTable<BatteryPack>
      size="small"
      rowKey="index"
      pagination={false}
      dataSource={slaves.data}
      className={styles.slaves}
      data-testid={`slaves-${battery.sn}`}
      columns={[
        { key: 'index', title: t('battery.pack'), width: 60, render: (_, p) => `#${p.index}` },
        { key: 'sn', title: t('columns.sn'), render: (_, p) => p.sn ?? '--' },
        { key: 'soc', title: t('battery.soc'), align: 'right', render: (_, p) => formatValue(p.soc, '%') },
        { key: 'soh', title: t('battery.soh'), align: 'right', render: (_, p) => formatValue(p.soh, '%') },
        { key: 'voltage', title: t('battery.voltage'), align: 'right', render: (_, p) => formatValue(p.voltage, 'V', 2) },
        {
          key: 'faults',
          title: t('battery.faults'),
          render: (_, p) =>
            p.faults.length ? <Tag color="error">{p.faults.length}</Tag> : <Tag color="success">{t('battery.ok')}</Tag>,
        },
      ]}
    />
  );
}

export default function BatteryListPage() {
  const { t, i18n } = useTranslation('devices');
  const navigate = useNavigate();
  const [state, update] = useListState(spec);
  const canDelete = usePermission('battery.delete');
  const confirmDelete = useDeleteDevice('battery');
  const [openPacks, setOpenPacks] = useState<string | null>(null);

  const filters = countQuery(state);
  const counts = useBatteryCounts(filters);
  const list = useBatteryList({ ...listQuery(state), ...(state.status ? { status: state.status as BatteryRow['status'] } : {}) });
  const right = { align: 'right' as const };

  const c = deviceColumns<BatteryRow>(t, 'battery');
  const columns: TableColumnsType<BatteryRow> = [
    c.device,
    c.place,
    {
      key: 'packs',
      title: t('columns.packs'),
      width: 100,
      align: 'center',
      render: (_, row) =>
        row.packs > 1 ? (
          <Popover
            trigger="click"
            open={openPacks === row.sn}
            onOpenChange={(open) => setOpenPacks(open ? row.sn : null)}
            title={t('battery.slavesOf', { sn: row.sn })}
            content={openPacks === row.sn ? <SlavePacks battery={row} /> : null}
            destroyOnHidden
          >
            <Button size="small" data-testid={`packs-${row.sn}`}>
              {t('battery.packCount', { count: row.packs })}
            </Button>
          </Popover>
        ) : (
          t('battery.packCount', { count: row.packs })
        ),
    },
    { key: 'soc', title: t('columns.soc'), width: 140, sorter: true, render: (_, row) => <SocBar value={row.soc} /> },
    { key: 'soh', title: t('columns.soh'), width: 72, sorter: true, ...right, render: (_, row) => formatValue(row.soh, '%') },
    {
      key: 'power',
      title: t('columns.batteryPower'),
      width: 124,
      sorter: true,
      ...right,
      render: (_, row) =>
        row.power === null ? (
          '--'
        ) : (
          <span title={t(row.power < 0 ? 'battery.charging' : row.power > 0 ? 'battery.discharging' : 'battery.idle')}>
            {formatPower(row.power)}
          </span>
        ),
    },
    {
      key: 'voltage',
      title: t('columns.voltage'),
      width: 90,
      ...right,
      render: (_, row) => formatValue(row.voltage, 'V'),
    },
    c.status,
    c.lastUpdate,
    ...actionsColumn<BatteryRow>(t, { remove: canDelete ? (row) => void confirmDelete(row) : undefined }),
  ];

  return (
    <ListFrame title={t('menu:batteries')} testId="battery-list-page">
      <StatusCards
        counts={counts.data}
        loading={counts.isPending}
        status={state.status as BatteryRow['status'] | undefined}
        onStatus={(status) => update({ status })}
        statusLabel={(s) => stateName(s, i18n.language)}
        allLabel={t('all.battery')}
      />
      <ListToolbar
        state={state}
        onChange={update}
        statuses={devicesApi.deviceStatuses.map((s) => ({ value: s, label: stateName(s, i18n.language) }))}
      />
      <DeviceListBody<BatteryRow>
        list={list}
        countTotal={counts.data?.total}
        emptyDescription={t('empty.battery')}
        rowKey="sn"
        columns={columns}
        state={state}
        onChange={update}
        onOpen={(row) => navigate(detailPath('battery', row.sn))}
        emptyText={t('noMatch')}
        totalText={(n) => t('total.battery', { count: n })}
        testId="battery-table"
      />
    </ListFrame>
  );
}
