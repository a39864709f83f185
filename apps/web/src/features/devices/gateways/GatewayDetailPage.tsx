/**
 * /device/gateway/{id} (hidden; buttons of gateway.view): one gateway — identity, versions,
 * communication and signal, plant and customer or agent, upload interval, protocols; the devices
 * behind it (each opens its page); and its connection history of the last 30 days (a time line
 * of online and offline periods and the list of periods). Refreshes every 10 s; a gateway the
 * caller cannot see (305) shows "not found".
 */
import { CloudUploadOutlined, ReloadOutlined } from '@ant-design/icons';
import { commandsApi, devicesApi, ErrorCode, upgradesApi } from '@sunfleet/contracts';
import { Button, Card, Descriptions, Flex, Table, Tag, Tooltip, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useGatewayRestart } from '../../../components/GatewayRestart.tsx';
import { PageError, PageLoading } from '../../../components/PageState.tsx';
import { useMayCall } from '../../../components/Permission.tsx';
import { usePalette } from '../../../components/palette.ts';
import { useUpgrade } from '../../../components/UpgradeAction.tsx';
import { formatRate } from '../../../lib/format.ts';
import { gatewayStateStyle } from '../../../lib/statusColours.ts';
import { formatZoned, withZone } from '../../../lib/zonedTime.ts';
import { DebugPanel } from '../shared/DebugPanel.tsx';
import { DetailHeader, DeviceMissing } from '../shared/DetailParts.tsx';
import { DeviceEventsCard } from '../shared/DeviceEventsCard.tsx';
import { commName, deviceName, formatDuration } from '../shared/format.ts';
import { GatewayState, StatusBadge, When } from '../shared/ListParts.tsx';
import { type DetailKind, detailPath, type GatewayDetail, plantPath } from '../shared/types.ts';
import { GatewaySettings } from './GatewaySettings.tsx';
import { onlineShare, type Segment, timeline } from './history.ts';
import { SignalBars } from './SignalBars.tsx';
import '../shared/devices.css';
import ui from '../../../components/ui.module.css';
import { useGateway } from './gatewayQueries.ts';

const BACK = '/device/gateway';
type BehindDevice = GatewayDetail['deviceList'][number];
type Period = GatewayDetail['history'][number];

function HistoryBar({ segments, timezone }: { segments: Segment[]; timezone: string }) {
  const { t, i18n } = useTranslation('devices');
  const { token } = theme.useToken();
  const { meaning } = usePalette();
  const colour = {
    online: meaning[gatewayStateStyle.online.meaning],
    offline: meaning.disconnected,
    unknown: token.colorFillSecondary,
  };
  return (
    <Flex vertical gap={4}>
      <div className="sf-history-bar" role="img" aria-label={t('gateway.historyBar')} data-testid="history-bar">
        {segments.map((s) => (
          <Tooltip
            key={`${s.from}-${s.state}`}
            title={`${t(`gateway.history.${s.state}`)}: ${formatZoned(s.from, timezone, i18n.language, { label: false })} – ${formatZoned(s.to, timezone, i18n.language)} (${formatDuration((s.to - s.from) / 1000)})`}
          >
            <div
              style={{ flex: `${s.share} 0 0`, minWidth: s.share > 0 ? 2 : 0, background: colour[s.state] }}
              data-state={s.state}
            />
          </Tooltip>
        ))}
      </div>
      <Flex justify="space-between">
        <Typography.Text type="secondary" className={ui.note}>
          {t('gateway.daysAgo', { count: devicesApi.GATEWAY_HISTORY_DAYS })}
        </Typography.Text>
        <Typography.Text type="secondary" className={ui.note}>
          {t('gateway.now')}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}

export default function GatewayDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const raw = useParams().id ?? '';
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
  const detail = useGateway(id);
  const history = detail.data?.history;
  const segments = useMemo(() => timeline(history ?? []), [history]);
  const mayCall = useMayCall();
  const restart = useGatewayRestart();
  const upgrade = useUpgrade('gateway');

  if (id === 0 || (detail.error instanceof ApiError && detail.error.code === ErrorCode.gatewayMissing))
    return <DeviceMissing text={t('missing.gateway')} back={BACK} backLabel={t('back.gateway')} />;
  if (detail.isPending) return <PageLoading />;
  if (detail.isError && !detail.data) return <PageError error={detail.error} onRetry={() => void detail.refetch()} />;
  const g = detail.data;
  const timezone = g.plant?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const share = onlineShare(segments);
  const canRestart = mayCall(commandsApi.restartGateways, g.canEdit);
  const canUpgrade = mayCall(upgradesApi.gatewayUpgrade, g.canEdit);
  const canDebug = mayCall(commandsApi.gatewayDebug, g.canEdit);
  const canSet = mayCall(commandsApi.gatewaySettingSwitch, g.canEdit);

  return (
    <Flex vertical gap={16} data-testid="gateway-detail-page">
      <DetailHeader
        testId="gateway-header"
        back={BACK}
        backLabel={t('back.gateway')}
        title={deviceName(g)}
        subtitle={g.alias ? g.sn : null}
        tags={
          <>
            <Tag color={gatewayStateStyle[g.status].tag} data-testid="detail-status">
              {t(`gateway.${g.status}`)}
            </Tag>
            <SignalBars rssi={g.rssi} bars={g.signalBars} testId="detail-signal" />
          </>
        }
        facts={[
          {
            key: 'plant',
            label: t('columns.plant'),
            value: g.plant ? <Link to={plantPath(g.plant.id)}>{g.plant.name}</Link> : t('unbound'),
          },
          { key: 'company', label: t('columns.company'), value: g.company?.name ?? '--' },
          { key: 'lastOnline', label: t('columns.lastOnline'), value: formatZoned(g.lastOnlineAt, timezone, i18n.language) },
        ]}
        actions={
          canRestart || canUpgrade ? (
            <Flex gap={8} wrap>
              {canUpgrade && (
                <Button
                  icon={<CloudUploadOutlined />}
                  onClick={() => upgrade.open([{ sn: g.sn, id: g.id, name: deviceName(g), plantName: g.plant?.name ?? null }])}
                  data-testid="gateway-upgrade"
                >
                  {t('common:upgrade.button')}
                </Button>
              )}
              {canRestart && (
                <Button
                  danger
                  icon={<ReloadOutlined />}
                  onClick={() => restart.confirm([{ sn: g.sn, name: deviceName(g), plantName: g.plant?.name ?? null }])}
                  data-testid="gateway-restart"
                >
                  {t('common:restart.button')}
                </Button>
              )}
            </Flex>
          ) : undefined
        }
      />
      <Card size="small" title={t('info.title')} data-testid="gateway-info">
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, sm: 2, lg: 3 }}
          items={[
            { key: 'sn', label: t('columns.sn'), children: g.sn },
            { key: 'alias', label: t('columns.alias'), children: g.alias ?? '--' },
            { key: 'status', label: t('columns.status'), children: <GatewayState status={g.status} /> },
            { key: 'sw', label: t('gateway.swVersion'), children: g.swVersion ?? '--' },
            { key: 'hw', label: t('gateway.hwVersion'), children: g.hwVersion ?? '--' },
            {
              key: 'comm',
              label: t('columns.commType'),
              children: commName(g.commType, i18n.language),
            },
            { key: 'rssi', label: t('columns.rssi'), children: <SignalBars rssi={g.rssi} bars={g.signalBars} /> },
            { key: 'interval', label: t('gateway.uploadInterval'), children: formatDuration(g.uploadInterval) },
            { key: 'lastSeen', label: t('gateway.lastSeen'), children: formatZoned(g.lastSeenAt, timezone, i18n.language) },
            { key: 'created', label: t('gateway.created'), children: formatZoned(g.createdAt, timezone, i18n.language) },
            {
              key: 'protocols',
              label: t('columns.protocols'),
              span: 2,
              children: g.protocols.length ? (
                <Flex gap={4} wrap>
                  {g.protocols.map((p) => (
                    <Tag key={p}>{p}</Tag>
                  ))}
                </Flex>
              ) : (
                '--'
              ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('gateway.devicesTitle', { count: g.deviceList.length })} data-testid="gateway-devices">
        <Table<BehindDevice>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={g.deviceList}
          locale={{ emptyText: t('gateway.noDevices') }}
          columns={[
            {
              key: 'sn',
              title: t('columns.sn'),
              render: (_, d) => (
                <Link to={detailPath(d.kind as DetailKind, d.sn)} data-testid={`behind-${d.sn}`}>
                  {d.sn}
                </Link>
              ),
            },
            { key: 'kind', title: t('columns.kind'), render: (_, d) => <Tag>{t(`kinds.${d.kind}`)}</Tag> },
            { key: 'alias', title: t('columns.alias'), render: (_, d) => d.alias ?? '--' },
            { key: 'protocol', title: t('columns.protocol'), dataIndex: 'protocol' },
            { key: 'status', title: t('columns.status'), render: (_, d) => <StatusBadge status={d.state} /> },
            { key: 'lastUpdate', title: t('columns.lastUpdate'), render: (_, d) => <When iso={d.lastUpdate} zone={timezone} /> },
          ]}
        />
      </Card>
      <Card
        size="small"
        title={t('gateway.historyTitle', { count: devicesApi.GATEWAY_HISTORY_DAYS })}
        extra={
          share !== null ? (
            <Typography.Text type="secondary" data-testid="online-share">
              {t('gateway.onlineShare', { value: formatRate(share) })}
            </Typography.Text>
          ) : null
        }
        data-testid="gateway-history"
      >
        <Flex vertical gap={12}>
          <HistoryBar segments={segments} timezone={timezone} />
          <Table<Period>
            size="small"
            rowKey={(p) => `${p.state}-${p.from}`}
            dataSource={g.history}
            pagination={g.history.length > 10 ? { pageSize: 10, size: 'small' } : false}
            locale={{ emptyText: t('gateway.noHistory') }}
            data-testid="history-table"
            columns={[
              {
                key: 'state',
                title: t('columns.status'),
                render: (_, p) => <GatewayState status={p.state} />,
              },
              {
                key: 'from',
                title: withZone(t('gateway.from'), timezone),
                render: (_, p) => formatZoned(p.from, timezone, i18n.language, { label: false }),
              },
              {
                key: 'to',
                title: withZone(t('gateway.to'), timezone),
                render: (_, p) =>
                  p.to ? (
                    formatZoned(p.to, timezone, i18n.language, { label: false })
                  ) : (
                    <Tag color="processing">{t('gateway.ongoing')}</Tag>
                  ),
              },
              { key: 'duration', title: t('gateway.duration'), align: 'right', render: (_, p) => formatDuration(p.durationS) },
            ]}
          />
          <Typography.Text type="secondary" className={ui.note}>
            {t(`gateway.source.${g.historySource}`)} {t('gateway.tzNote', { timezone })}
          </Typography.Text>
        </Flex>
      </Card>
      {canSet && <GatewaySettings sn={g.sn} uploadInterval={g.uploadInterval} onChanged={() => void detail.refetch()} />}
      {canDebug && <DebugPanel kind="gateway" sn={g.sn} />}
      <DeviceEventsCard sn={g.sn} timezone={timezone} />
      {restart.dialog}
      {upgrade.dialog}
    </Flex>
  );
}
