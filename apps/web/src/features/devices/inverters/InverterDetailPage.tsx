/**
 * /device/inverter/{sn} (hidden; buttons of inverter.view): one inverter. Header with its
 * type, plant, gateway, protocol, power on/off and rename/delete; tabs (kept in `?tab=`):
 * overview (power now, energy, energy flow, identity, faults), realtime (DC input per MPPT or
 * string, AC output per phase, I–V plot, input/output day curves), charts (day curves of up
 * to 6 chosen parameters with saved profiles; month, year and total energy; generation per hour,
 * day, month or year; a micro-inverter's panels over a day), and the grid,
 * meter, battery, eps and load groups the inverter's protocol has. Realtime values refresh
 * every 10 s. An SN the caller cannot see (600) shows "not found".
 */
import { CloudUploadOutlined, ControlOutlined } from '@ant-design/icons';
import { commandsApi, devicesApi, ErrorCode, upgradesApi } from '@sunfleet/contracts';
import { Button, Flex, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { PageError, PageLoading } from '../../../components/PageState.tsx';
import { useMayCall, usePermission } from '../../../components/Permission.tsx';
import { useUpgrade } from '../../../components/UpgradeAction.tsx';
import { InverterUpgradeCard } from '../../../components/UpgradeProgress.tsx';
import { todayIn } from '../../../lib/dateNav.ts';
import { formatPower } from '../../../lib/format.ts';
import { formatZoned } from '../../../lib/zonedTime.ts';
import { AliasDialog, type AliasTarget } from '../shared/AliasDialog.tsx';
import { DebugPanel } from '../shared/DebugPanel.tsx';
import { DetailActions, DetailHeader, DetailTabs, DeviceMissing, placeFacts, StatusTag } from '../shared/DetailParts.tsx';
import { DeviceEventsCard } from '../shared/DeviceEventsCard.tsx';
import { deviceName, typeNameOf } from '../shared/format.ts';
import { useDeleteAndLeave } from '../shared/useDeleteDevice.tsx';
import { InverterChartsTab } from './InverterChartsTab.tsx';
import { InverterGroupTab } from './InverterGroupTab.tsx';
import { InverterOverviewTab } from './InverterOverviewTab.tsx';
import { InverterRealtimeTab } from './InverterRealtimeTab.tsx';
import { PowerButtons } from './PowerButtons.tsx';
import '../shared/devices.css';
import { useInverter } from './inverterQueries.ts';

const BACK = '/device/inverter';

export default function InverterDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const sn = useParams().sn ?? '';
  const navigate = useNavigate();
  const valid = new RegExp(devicesApi.SN_PATTERN).test(sn);
  const canRename = usePermission('inverter.alias');
  const canDelete = usePermission('inverter.delete');
  const canPower = usePermission('inverter.boot');
  const mayCall = useMayCall();
  const deleteAction = useDeleteAndLeave('inverter', BACK);
  const [renaming, setRenaming] = useState<AliasTarget | null>(null);
  const upgrade = useUpgrade('inverter');
  const detail = useInverter(sn, valid);

  if (!valid || (detail.error instanceof ApiError && detail.error.code === ErrorCode.inverterMissing))
    return <DeviceMissing text={t('missing.inverter')} back={BACK} backLabel={t('back.inverter')} />;
  if (detail.isPending) return <PageLoading />;
  if (detail.isError && !detail.data) return <PageError error={detail.error} onRetry={() => void detail.refetch()} />;
  const inv = detail.data;
  const timezone = inv.plant?.timezone ?? 'UTC';
  const today = todayIn(timezone);

  const groups = devicesApi.inverterGroups.filter((g) => inv.groups[g]);

  return (
    <Flex vertical gap={16} data-testid="inverter-detail-page">
      <DetailHeader
        testId="inverter-header"
        back={BACK}
        backLabel={t('back.inverter')}
        title={deviceName(inv)}
        subtitle={inv.alias ? inv.sn : null}
        tags={
          <>
            <StatusTag status={inv.state} />
            <Tag data-testid="detail-type">{typeNameOf(inv, i18n.language)}</Tag>
          </>
        }
        facts={[
          ...placeFacts(t, inv, inv.protocol.name, `${inv.gateway.sn} (${t(`gateway.${inv.gateway.status}`)})`),
          { key: 'rated', label: t('columns.ratedPower'), value: formatPower(inv.ratedPower) },
          { key: 'lastUpdate', label: t('columns.lastUpdate'), value: formatZoned(inv.lastUpdate, timezone, i18n.language) },
        ]}
        actions={
          <Flex gap={8} wrap>
            {canPower && inv.canPower && (
              <PowerButtons device={{ sn: inv.sn, name: deviceName(inv), plantName: inv.plant?.name ?? null }} />
            )}
            <Button
              icon={<ControlOutlined />}
              onClick={() => navigate(`/device/setting?sn=${encodeURIComponent(inv.sn)}`)}
              data-testid="inverter-settings"
            >
              {t('remoteSettings')}
            </Button>
            {mayCall(upgradesApi.inverterUpgrade, inv.canEdit) && (
              <Button
                icon={<CloudUploadOutlined />}
                onClick={() => upgrade.open([{ sn: inv.sn, name: deviceName(inv), plantName: inv.plant?.name ?? null }])}
                data-testid="inverter-upgrade"
              >
                {t('common:upgrade.button')}
              </Button>
            )}
            <DetailActions
              onRename={canRename && inv.canEdit ? () => setRenaming({ sn: inv.sn, alias: inv.alias }) : undefined}
              onDelete={deleteAction(inv, canDelete && inv.canDelete)}
            />
          </Flex>
        }
      />
      <InverterUpgradeCard sn={inv.sn} canOperate={inv.canEdit} />
      <DetailTabs
        testId="inverter-tabs"
        items={[
          {
            key: 'overview',
            label: t('tabs.overview'),
            children: <InverterOverviewTab inverter={inv} timezone={timezone} />,
          },
          {
            key: 'realtime',
            label: t('tabs.realtime'),
            children: <InverterRealtimeTab inverter={inv} timezone={timezone} today={today} />,
          },
          {
            key: 'charts',
            label: t('tabs.charts'),
            children: <InverterChartsTab inverter={inv} timezone={timezone} today={today} />,
          },
          ...groups.map((g) => ({
            key: g,
            label: t(`groups.${g}`),
            children: <InverterGroupTab group={g} inverter={inv} timezone={timezone} today={today} />,
          })),
          {
            key: 'events',
            label: t('tabs.events'),
            children: <DeviceEventsCard sn={inv.sn} timezone={timezone} />,
          },
          ...(mayCall(commandsApi.inverterDebug, inv.canEdit)
            ? [{ key: 'debug', label: t('tabs.debug'), children: <DebugPanel kind="inverter" sn={inv.sn} /> }]
            : []),
        ]}
      />
      <AliasDialog kind="inverter" device={renaming} onClose={() => setRenaming(null)} />
      {upgrade.dialog}
    </Flex>
  );
}
