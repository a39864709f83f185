/**
 * /device/gateway (gateway.view): the visible gateways — online, offline and unbound counts
 * (a card filters), filters (plant, online/offline, bound/unbound, communication, SN or alias),
 * the server-sorted and paged list with versions, communication, RSSI as signal bars, last
 * online, the customer or agent and the protocols behind it; a row opens the gateway. Those
 * who may restart gateways select rows (the ones they may operate, across pages and filters:
 * "N selected (M hidden)") and restart them as one batch.
 */
import { CloudUploadOutlined, ReloadOutlined } from '@ant-design/icons';
import { commandsApi, commTypes, devicesApi, limits, upgradesApi } from '@sunfleet/contracts';
import { Button, Flex, type TableColumnsType, Tooltip, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CountCard } from '../../../components/CountCard.tsx';
import { type RestartTarget, useGatewayRestart } from '../../../components/GatewayRestart.tsx';
import { useMayCall } from '../../../components/Permission.tsx';
import { usePalette } from '../../../components/palette.ts';
import { useUpgrade } from '../../../components/UpgradeAction.tsx';
import { useSelectionView } from '../../../components/useSelectionView.ts';
import { gatewayStateStyle } from '../../../lib/statusColours.ts';
import { DeviceListBody } from '../shared/DeviceTable.tsx';
import { commName, deviceName } from '../shared/format.ts';
import { DeviceCell, GatewayState, ListFrame, PlantLink, TwoLines, When } from '../shared/ListParts.tsx';
import { ListToolbar } from '../shared/ListToolbar.tsx';
import { countQuery, type ListSpec, type ListState, listQuery, useListState } from '../shared/listState.ts';
import { type GatewayCounts, type GatewayRow, gatewayPath } from '../shared/types.ts';
import { SignalBars } from './SignalBars.tsx';
import '../shared/devices.css';
import ui from '../../../components/ui.module.css';
import { useGatewayCounts, useGatewayList } from './gatewayQueries.ts';

const spec: ListSpec<(typeof devicesApi.gatewaySorts)[number]> = {
  sorts: devicesApi.gatewaySorts,
  defaultSort: 'sn',
  statuses: ['online', 'offline'],
  bindings: ['bound', 'unbound'],
  commTypes,
};

function GatewayCards({
  counts,
  loading,
  state,
  onChange,
}: {
  counts: GatewayCounts | undefined;
  loading: boolean;
  state: ListState<string>;
  onChange: (change: Partial<ListState<string>>) => void;
}) {
  const { t } = useTranslation('devices');
  const { token } = theme.useToken();
  const { meaning } = usePalette();
  const cards = [
    { key: 'total', color: token.colorPrimary, active: !state.status && !state.binding },
    { key: 'online', color: meaning[gatewayStateStyle.online.meaning], active: state.status === 'online' },
    { key: 'offline', color: meaning.disconnected, active: state.status === 'offline' },
    { key: 'unbound', color: meaning.unbound, active: state.binding === 'unbound' },
  ] as const;
  const pick = (key: (typeof cards)[number]['key'], active: boolean) => {
    if (key === 'total' || active) onChange({ status: undefined, binding: undefined });
    else if (key === 'unbound') onChange({ status: undefined, binding: 'unbound' });
    else onChange({ status: key, binding: undefined });
  };
  return (
    <Flex gap={12} wrap className={ui.gapBelow} role="group" aria-label={t('filters.status')}>
      {cards.map((c) => (
        <CountCard
          key={c.key}
          label={t(`gateway.cards.${c.key}`)}
          value={typeof counts?.[c.key] === 'number' ? counts[c.key] : null}
          color={c.color}
          active={c.active}
          loading={loading}
          testId={`status-card-${c.key}`}
          onClick={() => pick(c.key, c.active)}
        />
      ))}
    </Flex>
  );
}

/** The restart bar over the list: the selection's count, how many the list does not show, restart, clear. */
function RestartBar({
  selected,
  shown,
  onRestart,
  onUpgrade,
  onClear,
}: {
  selected: readonly RestartTarget[];
  shown: readonly string[];
  onRestart?: () => void;
  onUpgrade?: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('devices');
  const keys = useMemo(() => selected.map((g) => g.sn), [selected]);
  const view = useSelectionView(keys, shown);
  return (
    <Flex align="center" gap={12} wrap className={ui.gapBelowSm} data-testid="gateway-bulk-bar">
      <Typography.Text strong data-testid="gateway-selected">
        {t('gatewaysSelected', { count: view.count })}
      </Typography.Text>
      {view.hidden > 0 && (
        <Tooltip title={t('hiddenHint')}>
          <Typography.Text type="warning" data-testid="gateway-hidden">
            {t('hiddenSelected', { count: view.hidden })}
          </Typography.Text>
        </Tooltip>
      )}
      {onRestart && (
        <Button danger icon={<ReloadOutlined />} onClick={onRestart} data-testid="gateway-restart-selected">
          {t('restartSelected')}
        </Button>
      )}
      {onUpgrade && (
        <Button icon={<CloudUploadOutlined />} onClick={onUpgrade} data-testid="gateway-upgrade-selected">
          {t('common:upgrade.upgradeSelected')}
        </Button>
      )}
      <Button onClick={onClear}>{t('clearSelection')}</Button>
    </Flex>
  );
}

export default function GatewayListPage() {
  const { t, i18n } = useTranslation('devices');
  const navigate = useNavigate();
  const [state, update] = useListState(spec);
  // Restart of the selected gateways as one batch (gateway.restart, not read-only); each stays
  // selected, with its name and plant, while a filter or another page hides it.
  const canRestart = useMayCall()(commandsApi.batchRestartGateways);
  // A firmware upgrade of the selected gateways as one staged rollout (gateway.upgrade, not read-only).
  const canUpgrade = useMayCall()(upgradesApi.gatewaysBatchUpgrade);
  const [selected, setSelected] = useState<RestartTarget[]>([]);
  const restart = useGatewayRestart();
  const upgrade = useUpgrade('gateway');

  const counts = useGatewayCounts(countQuery(state));
  const list = useGatewayList({
    ...listQuery(state),
    ...(state.status ? { status: state.status as GatewayRow['status'] } : {}),
    ...(state.binding ? { binding: state.binding as 'bound' | 'unbound' } : {}),
    ...(state.commType ? { commType: state.commType } : {}),
  });

  const rows = list.data?.list;
  const shown = useMemo(() => (Array.isArray(rows) ? rows.map((r) => r.sn) : []), [rows]);
  const pick = (keys: readonly string[], picked: readonly (GatewayRow | undefined)[]) => {
    const known = new Map(selected.map((g) => [g.sn, g]));
    for (const r of picked) if (r) known.set(r.sn, { sn: r.sn, name: deviceName(r), plantName: r.plant?.name ?? null });
    setSelected(
      keys
        .map((k) => known.get(k))
        .filter((g): g is RestartTarget => g !== undefined)
        .slice(0, limits.batchRestartMax),
    );
  };

  const columns: TableColumnsType<GatewayRow> = [
    {
      key: 'sn',
      title: t('columns.gateway'),
      width: 170,
      fixed: 'left',
      sorter: true,
      render: (_, row) => <DeviceCell sn={row.sn} alias={row.alias} to={gatewayPath(row.id)} testId={`gateway-link-${row.id}`} />,
    },
    {
      key: 'plant',
      title: t('columns.plantCompany'),
      width: 180,
      render: (_, row) => (
        <Flex vertical className={ui.shrink}>
          <PlantLink plant={row.plant} />
          <Typography.Text type="secondary" ellipsis={{ tooltip: true }} className={ui.note}>
            {row.company?.name ?? '--'}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'versions',
      title: t('columns.versions'),
      width: 120,
      render: (_, row) => <TwoLines main={row.swVersion ?? '--'} sub={row.hwVersion ?? undefined} />,
    },
    {
      key: 'rssi',
      title: t('columns.connection'),
      width: 124,
      sorter: true,
      render: (_, row) => (
        <Flex vertical gap={2}>
          <span>{commName(row.commType, i18n.language)}</span>
          <SignalBars rssi={row.rssi} bars={row.signalBars} testId={`signal-${row.id}`} />
        </Flex>
      ),
    },
    {
      key: 'status',
      title: t('columns.status'),
      width: 104,
      sorter: true,
      render: (_, row) => <GatewayState status={row.status} testId={`gateway-status-${row.id}`} />,
    },
    {
      key: 'lastOnline',
      title: t('columns.lastOnline'),
      width: 140,
      sorter: true,
      render: (_, row) => <When iso={row.lastOnlineAt} />,
    },
    {
      key: 'protocols',
      title: t('columns.protocols'),
      width: 200,
      render: (_, row) => (
        <Flex vertical gap={2} className={ui.shrink}>
          <Typography.Text>{t('gateway.deviceCount', { count: row.devices })}</Typography.Text>
          {row.protocols.length > 0 && (
            <Tooltip title={row.protocols.join(', ')}>
              <Typography.Text type="secondary" ellipsis className={ui.note}>
                {row.protocols.join(', ')}
              </Typography.Text>
            </Tooltip>
          )}
        </Flex>
      ),
    },
  ];

  return (
    <ListFrame title={t('menu:gateways')} testId="gateway-list-page">
      <GatewayCards counts={counts.data} loading={counts.isPending} state={state} onChange={update} />
      <ListToolbar
        state={state}
        onChange={update}
        statuses={(['online', 'offline'] as const).map((s) => ({ value: s, label: t(`gateway.${s}`) }))}
        bindings={(['bound', 'unbound'] as const).map((b) => ({ value: b, label: t(`gateway.binding.${b}`) }))}
        commTypes={commTypes.map((c) => ({ value: c, label: commName(c, i18n.language) }))}
      />
      {(canRestart || canUpgrade) && selected.length > 0 && (
        <RestartBar
          selected={selected}
          shown={shown}
          {...(canRestart ? { onRestart: () => restart.confirm(selected) } : {})}
          {...(canUpgrade ? { onUpgrade: () => upgrade.open(selected) } : {})}
          onClear={() => setSelected([])}
        />
      )}
      <DeviceListBody<GatewayRow>
        list={list}
        countTotal={counts.data?.total}
        emptyDescription={t('empty.gateway')}
        rowKey="sn"
        columns={columns}
        state={state}
        onChange={update}
        onOpen={(row) => navigate(gatewayPath(row.id))}
        emptyText={t('noMatch')}
        totalText={(n) => t('total.gateway', { count: n })}
        testId="gateway-table"
        rowSelection={
          canRestart || canUpgrade
            ? {
                selectedRowKeys: selected.map((g) => g.sn),
                preserveSelectedRowKeys: true,
                fixed: true,
                columnWidth: 40,
                getCheckboxProps: (row) => ({ disabled: !row.canEdit, 'aria-label': t('selectGateway', { sn: row.sn }) }),
                onChange: (keys, picked) => pick(keys.map(String), picked),
              }
            : undefined
        }
      />
      {restart.dialog}
      {upgrade.dialog}
    </ListFrame>
  );
}
