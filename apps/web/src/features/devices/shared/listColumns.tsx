/**
 * Columns every SN-keyed device list (inverters, batteries, meters, weather stations) shows the
 * same way: the device (SN link and alias), where it is, its status, its last update, and the row
 * actions. A page lists its own columns between them.
 */
import type { DeviceStateName } from '@sunfleet/contracts';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { DeviceCell, PlaceCell, RowActions, StatusBadge, When } from './ListParts.tsx';
import { type DetailKind, type DeviceStatus, detailPath } from './types.ts';

interface SnRow {
  sn: string;
  alias: string | null;
  status: DeviceStatus;
  /** What the badge shows: its status, or off while powered off (the server's one rule). */
  state: DeviceStateName;
  lastUpdate: string | null;
  plant: { id: number; name: string } | null;
  gateway: { id: number; sn: string; alias: string | null };
}

type Column<Row> = TableColumnsType<Row>[number];

export function deviceColumns<Row extends SnRow>(t: TFunction<'devices'>, kind: DetailKind) {
  const device: Column<Row> = {
    key: 'sn',
    title: t('columns.device'),
    width: 150,
    fixed: 'left',
    sorter: true,
    render: (_, row) => (
      <DeviceCell sn={row.sn} alias={row.alias} to={detailPath(kind, row.sn)} testId={`${kind}-link-${row.sn}`} />
    ),
  };
  const place: Column<Row> = {
    key: 'place',
    title: t('columns.place'),
    width: 170,
    render: (_, row) => <PlaceCell plant={row.plant} gateway={row.gateway} />,
  };
  const status: Column<Row> = {
    key: 'status',
    title: t('columns.status'),
    width: 104,
    sorter: true,
    render: (_, row) => <StatusBadge status={row.state} testId={`status-${row.sn}`} />,
  };
  const lastUpdate: Column<Row> = {
    key: 'lastUpdate',
    title: t('columns.lastUpdate'),
    width: 140,
    sorter: true,
    render: (_, row) => <When iso={row.lastUpdate} />,
  };
  return { device, place, status, lastUpdate };
}

/**
 * The rename and delete buttons, as a column; none when the page grants neither. Each row shows
 * a button only when the server's rights for that row allow it (`canEdit` to rename, `canDelete`
 * to delete): a visitor of a plant sees the row, not the buttons.
 */
export function actionsColumn<Row extends SnRow & { canEdit: boolean; canDelete: boolean }>(
  t: TFunction<'devices'>,
  actions: { rename?: ((row: Row) => void) | undefined; remove?: ((row: Row) => void) | undefined },
): Column<Row>[] {
  const { rename, remove } = actions;
  if (!rename && !remove) return [];
  return [
    {
      key: 'actions',
      title: t('columns.actions'),
      width: 96,
      fixed: 'right',
      render: (_, row) => (
        <RowActions
          id={row.sn}
          onRename={rename && row.canEdit ? () => rename(row) : undefined}
          onDelete={remove && row.canDelete ? () => remove(row) : undefined}
        />
      ),
    },
  ];
}
