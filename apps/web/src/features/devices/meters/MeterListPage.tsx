/**
 * /device/meter (meter.view): meters with counts per status, filters (plant, status, SN or
 * alias), the server-sorted and paged list with power (+ import / − export) and today's and
 * total import and export; a row opens the meter. Rename and delete follow meter.alias and
 * meter.delete.
 */
import { devicesApi } from '@sunfleet/contracts';
import { type TableColumnsType, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { usePermission } from '../../../components/Permission.tsx';
import { StatusCards } from '../../../components/StatusCards.tsx';
import { formatEnergy } from '../../../lib/format.ts';
import { AliasDialog, type AliasTarget } from '../shared/AliasDialog.tsx';
import { DeviceListBody } from '../shared/DeviceTable.tsx';
import { formatValue, stateName } from '../shared/format.ts';
import { ListFrame, TwoLines } from '../shared/ListParts.tsx';
import { ListToolbar } from '../shared/ListToolbar.tsx';
import { actionsColumn, deviceColumns } from '../shared/listColumns.tsx';
import { countQuery, type ListSpec, listQuery, useListState } from '../shared/listState.ts';
import { detailPath, type MeterRow } from '../shared/types.ts';
import { useDeleteDevice } from '../shared/useDeleteDevice.tsx';
import '../shared/devices.css';
import ui from '../../../components/ui.module.css';
import styles from '../shared/devices.module.css';
import { useMeterCounts, useMeterList } from './meterQueries.ts';

const spec: ListSpec<(typeof devicesApi.meterSorts)[number]> = {
  sorts: devicesApi.meterSorts,
  defaultSort: 'sn',
  statuses: devicesApi.deviceStatuses,
};

/** Meter power with its direction: + import, − export. */
export function GridPower({ watts }: { watts: number | null }) {
  const { t } = useTranslation('devices');
  if (watts === null) return <span>--</span>;
  const dir = Math.abs(watts) < 1 ? 'idle' : watts > 0 ? 'importing' : 'exporting';
  return (
    <Tooltip title={t(`meter.${dir}`)}>
      <span className={dir === 'exporting' ? ui.goodStrong : undefined}>{formatValue(watts, 'W')}</span>
    </Tooltip>
  );
}

export default function MeterListPage() {
  const { t, i18n } = useTranslation('devices');
  const navigate = useNavigate();
  const [state, update] = useListState(spec);
  const canRename = usePermission('meter.alias');
  const canDelete = usePermission('meter.delete');
  const confirmDelete = useDeleteDevice('meter');
  const [renaming, setRenaming] = useState<AliasTarget | null>(null);

  const filters = countQuery(state);
  const counts = useMeterCounts(filters);
  const list = useMeterList({ ...listQuery(state), ...(state.status ? { status: state.status as MeterRow['status'] } : {}) });
  const right = { align: 'right' as const };

  const c = deviceColumns<MeterRow>(t, 'meter');
  const columns: TableColumnsType<MeterRow> = [
    {
      key: 'sn',
      title: t('columns.device'),
      width: 170,
      fixed: 'left',
      sorter: true,
      render: (_, row) => (
        <TwoLines
          main={
            <Link to={detailPath('meter', row.sn)} data-testid={`meter-link-${row.sn}`} title={row.sn}>
              {row.sn}
            </Link>
          }
          sub={
            row.alias || row.master ? (
              <>
                {row.master && (
                  <Tag color="blue" className={`${ui.tagTight} ${styles.masterTag}`}>
                    {t('meter.master')}
                  </Tag>
                )}
                {row.alias}
              </>
            ) : undefined
          }
        />
      ),
    },
    c.place,
    {
      key: 'power',
      title: t('columns.gridPower'),
      width: 120,
      sorter: true,
      ...right,
      render: (_, row) => <GridPower watts={row.power} />,
    },
    {
      key: 'importToday',
      title: t('columns.importToday'),
      width: 130,
      ...right,
      render: (_, row) => <TwoLines main={formatEnergy(row.importToday)} sub={`Σ ${formatEnergy(row.importTotal)}`} />,
    },
    {
      key: 'exportToday',
      title: t('columns.exportToday'),
      width: 130,
      ...right,
      render: (_, row) => <TwoLines main={formatEnergy(row.exportToday)} sub={`Σ ${formatEnergy(row.exportTotal)}`} />,
    },
    c.status,
    c.lastUpdate,
    ...actionsColumn<MeterRow>(t, {
      rename: canRename ? (row) => setRenaming({ sn: row.sn, alias: row.alias }) : undefined,
      remove: canDelete ? (row) => void confirmDelete(row) : undefined,
    }),
  ];

  return (
    <ListFrame title={t('menu:meters')} testId="meter-list-page">
      <StatusCards
        counts={counts.data}
        loading={counts.isPending}
        status={state.status as MeterRow['status'] | undefined}
        onStatus={(status) => update({ status })}
        statusLabel={(s) => stateName(s, i18n.language)}
        allLabel={t('all.meter')}
      />
      <ListToolbar
        state={state}
        onChange={update}
        statuses={devicesApi.deviceStatuses.map((s) => ({ value: s, label: stateName(s, i18n.language) }))}
      />
      <DeviceListBody<MeterRow>
        list={list}
        countTotal={counts.data?.total}
        emptyDescription={t('empty.meter')}
        rowKey="sn"
        columns={columns}
        state={state}
        onChange={update}
        onOpen={(row) => navigate(detailPath('meter', row.sn))}
        emptyText={t('noMatch')}
        totalText={(n) => t('total.meter', { count: n })}
        testId="meter-table"
      />
      <AliasDialog kind="meter" device={renaming} onClose={() => setRenaming(null)} />
    </ListFrame>
  );
}
