/**
 * /device/battery/{sn} (hidden; buttons of battery.list.view): one battery system. Header with
 * plant, gateway, protocol, packs, cells and capacity, and delete; tabs (`?tab=`): overview
 * (SOC, SOH, voltage, current, power, state, capacity, hottest cell, every pack — master and
 * slaves — with faults and the other values), cells (the heat map of cell voltages or
 * temperatures), and the day curves. Realtime values refresh every 10 s; an SN the caller
 * cannot see (404) shows "not found".
 */
import { devicesApi, ErrorCode } from '@sunfleet/contracts';
import { Card, Col, Flex, Progress, Row, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { CardError } from '../../../components/CardState.tsx';
import { ListTable } from '../../../components/ListTable.tsx';
import { PageError, PageLoading } from '../../../components/PageState.tsx';
import { usePermission } from '../../../components/Permission.tsx';
import { usePalette } from '../../../components/palette.ts';
import { todayIn } from '../../../lib/dateNav.ts';
import { chargeColour } from '../../../lib/statusColours.ts';
import { formatZoned } from '../../../lib/zonedTime.ts';
import { ChartCard, useChartState } from '../shared/ChartCard.tsx';
import {
  DetailActions,
  DetailHeader,
  DetailTabs,
  DeviceMissing,
  FaultList,
  FieldList,
  placeFacts,
  StatusTag,
  Updated,
} from '../shared/DetailParts.tsx';
import { DeviceEventsCard } from '../shared/DeviceEventsCard.tsx';
import { deviceName, formatValue, formatValueRange } from '../shared/format.ts';
import type { BatteryInfo, BatteryPack, BatteryRealtime } from '../shared/types.ts';
import { useDeleteAndLeave } from '../shared/useDeleteDevice.tsx';
import { CellHeatMap } from './CellHeatMap.tsx';
import '../shared/devices.css';
import { Figure } from '../../../components/Figure.tsx';
import ui from '../../../components/ui.module.css';
import styles from '../shared/devices.module.css';
import { useBatteryDay, useBatteryInfo, useBatteryRealtime } from './batteryQueries.ts';

const BACK = '/device/battery';
const TABS = ['overview', 'cells', 'chart', 'events'] as const;

function PacksTable({ packs }: { packs: readonly BatteryPack[] }) {
  const { t } = useTranslation('devices');
  return (
    <ListTable<BatteryPack>
      size="small"
      rowKey="index"
      pagination={false}
      dataSource={[...packs]}
      data-testid="battery-packs"
      locale={{ emptyText: t('noValues') }}
      columns={[
        {
          key: 'pack',
          title: t('battery.pack'),
          width: 120,
          render: (_, p) => (
            <Flex gap={6} align="center">
              #{p.index}
              <Tag color={p.master ? 'blue' : undefined} className={ui.noGapAfter}>
                {p.master ? t('battery.master') : t('battery.slave')}
              </Tag>
            </Flex>
          ),
        },
        { key: 'sn', title: t('columns.sn'), width: 170, render: (_, p) => p.sn ?? '--' },
        { key: 'soc', title: t('battery.soc'), align: 'right', render: (_, p) => formatValue(p.soc, '%') },
        { key: 'soh', title: t('battery.soh'), align: 'right', render: (_, p) => formatValue(p.soh, '%') },
        { key: 'voltage', title: t('battery.voltage'), align: 'right', render: (_, p) => formatValue(p.voltage, 'V', 2) },
        { key: 'current', title: t('battery.current'), align: 'right', render: (_, p) => formatValue(p.current, 'A') },
        {
          key: 'cellV',
          title: t('battery.cellVoltage'),
          align: 'right',
          render: (_, p) => formatValueRange(p.cellVoltageMin, p.cellVoltageMax, 'V', 3),
        },
        {
          key: 'cellT',
          title: t('battery.cellTemperature'),
          align: 'right',
          render: (_, p) => formatValueRange(p.cellTemperatureMin, p.cellTemperatureMax, '°C'),
        },
        { key: 'cycles', title: t('battery.cycles'), align: 'right', render: (_, p) => p.cycleCount ?? '--' },
        {
          key: 'faults',
          title: t('battery.faults'),
          render: (_, p) =>
            p.faults.length ? (
              <Flex gap={4} wrap>
                {p.faults.map((f) => (
                  <Tag key={f.code} color={f.level === 'fault' ? 'error' : f.level === 'warning' ? 'warning' : 'processing'}>
                    {f.text}
                  </Tag>
                ))}
              </Flex>
            ) : (
              <Tag color="success">{t('battery.ok')}</Tag>
            ),
        },
      ]}
    />
  );
}

function BatteryOverview({ info, now, timezone }: { info: BatteryInfo; now: BatteryRealtime; timezone: string }) {
  const { t } = useTranslation('devices');
  const palette = usePalette();
  const direction = now.power === null || Math.abs(now.power) < 1 ? 'idle' : now.power > 0 ? 'discharging' : 'charging';
  return (
    <Flex vertical gap={16}>
      <FaultList faults={now.faults} />
      <Card
        size="small"
        title={t('realtime.title')}
        extra={<Updated at={now.at} timezone={timezone} />}
        data-testid="battery-now"
      >
        <Flex gap={24} wrap align="center">
          <Progress
            type="circle"
            size={120}
            percent={Math.max(0, Math.min(100, now.soc ?? 0))}
            strokeColor={chargeColour(palette, now.soc ?? 0, false)}
            aria-label={t('battery.soc')}
            format={() => (
              <Flex vertical align="center">
                <Typography.Text strong className={styles.gaugeValue} data-testid="battery-soc">
                  {formatValue(now.soc, '%')}
                </Typography.Text>
                <Typography.Text type="secondary" className={ui.note}>
                  {t('battery.soc')}
                </Typography.Text>
              </Flex>
            )}
          />
          <Row gutter={[24, 12]} className={styles.batteryFigures}>
            <Col xs={12} md={6}>
              <Figure label={t('battery.soh')} value={formatValue(now.soh, '%')} testId="battery-soh" />
            </Col>
            <Col xs={12} md={6}>
              <Figure label={t('battery.voltage')} value={formatValue(now.voltage, 'V', 2)} testId="battery-voltage" />
            </Col>
            <Col xs={12} md={6}>
              <Figure label={t('battery.current')} value={formatValue(now.current, 'A')} testId="battery-current" />
            </Col>
            <Col xs={12} md={6}>
              <Figure
                label={`${t('battery.power')} · ${t(`direction.${direction}`)}`}
                value={formatValue(now.power === null ? null : Math.abs(now.power), 'W')}
                testId="battery-power"
              />
            </Col>
            <Col xs={12} md={6}>
              <Figure label={t('battery.state')} value={now.state ?? '--'} testId="battery-state" />
            </Col>
            <Col xs={12} md={6}>
              <Figure
                label={t('battery.capacity')}
                value={`${formatValue(now.remainingCapacity, null, 1)} / ${formatValue(now.fullCapacity ?? info.fullCapacity, 'Ah')}`}
                testId="battery-capacity"
              />
            </Col>
            <Col xs={12} md={6}>
              <Figure label={t('battery.hottest')} value={formatValue(now.temperatureMax, '°C')} testId="battery-hottest" />
            </Col>
            <Col xs={12} md={6}>
              <Figure label={t('battery.packs')} value={now.packs.length || info.packs} testId="battery-pack-count" />
            </Col>
          </Row>
        </Flex>
      </Card>
      <Card size="small" title={t('battery.packsTitle')}>
        <PacksTable packs={now.packs} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('battery.system')} className={ui.fill}>
            <FieldList fields={now.fields} testId="battery-fields" columns={2} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('info.title')} className={ui.fill}>
            <FieldList fields={info.info} testId="battery-info" columns={2} />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}

export default function BatteryDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const sn = useParams().sn ?? '';
  const valid = new RegExp(devicesApi.SN_PATTERN).test(sn);
  const [search] = useSearchParams();
  const canDelete = usePermission('battery.delete');
  const deleteAction = useDeleteAndLeave('battery', BACK);
  const info = useBatteryInfo(sn, valid);
  const now = useBatteryRealtime(sn, valid && info.isSuccess);
  const timezone = info.data?.plant?.timezone ?? 'UTC';
  const today = todayIn(timezone);
  const chart = useChartState(today);
  const asked = search.get('tab') as (typeof TABS)[number] | null;
  const tab = asked && TABS.includes(asked) ? asked : 'overview';
  const day = useBatteryDay(sn, chart.date, { enabled: valid && info.isSuccess && tab === 'chart', today: chart.date === today });

  if (!valid || (info.error instanceof ApiError && info.error.code === ErrorCode.notFound))
    return <DeviceMissing text={t('missing.battery')} back={BACK} backLabel={t('back.battery')} />;
  if (info.isPending) return <PageLoading />;
  if (info.isError) return <PageError error={info.error} onRetry={() => void info.refetch()} />;
  const b = info.data;
  const status = b.state;

  const live_ = now.isPending ? (
    <Skeleton active paragraph={{ rows: 6 }} />
  ) : now.isError && !now.data ? (
    <CardError error={now.error} onRetry={() => void now.refetch()} testId="battery-error" />
  ) : null;

  return (
    <Flex vertical gap={16} data-testid="battery-detail-page">
      <DetailHeader
        testId="battery-header"
        back={BACK}
        backLabel={t('back.battery')}
        title={deviceName(b)}
        subtitle={b.alias ? b.sn : null}
        tags={<StatusTag status={status} />}
        facts={[
          ...placeFacts(t, b, b.protocol.name),
          {
            key: 'packs',
            label: t('battery.packs'),
            value: b.cellsPerPack ? t('battery.packsCells', { packs: b.packs, cells: b.cellsPerPack }) : b.packs,
          },
          { key: 'capacity', label: t('battery.fullCapacity'), value: formatValue(b.fullCapacity, 'Ah') },
          { key: 'lastUpdate', label: t('columns.lastUpdate'), value: formatZoned(b.lastUpdate, timezone, i18n.language) },
        ]}
        actions={<DetailActions onDelete={deleteAction(b, canDelete && b.canDelete)} />}
      />
      <DetailTabs
        testId="battery-tabs"
        items={[
          {
            key: 'overview',
            label: t('tabs.overview'),
            children: live_ ?? (now.data ? <BatteryOverview info={b} now={now.data} timezone={timezone} /> : null),
          },
          {
            key: 'cells',
            label: t('tabs.cells'),
            children: (
              <Card
                size="small"
                title={t('cells.title')}
                extra={<Updated at={now.data?.at} timezone={timezone} />}
                data-testid="battery-cells"
              >
                {live_ ?? (now.data ? <CellHeatMap packs={now.data.packs} cells={now.data.cells} /> : null)}
              </Card>
            ),
          },
          {
            key: 'chart',
            label: t('tabs.chart'),
            children: (
              <ChartCard
                testId="battery-chart"
                periods={['day']}
                chart={chart}
                timezone={timezone}
                day={day}
                hidden={['soh', 'voltage', 'current', 'cellTemperatureMax']}
                title={t('tabs.chart')}
              />
            ),
          },
          {
            key: 'events',
            label: t('tabs.events'),
            children: <DeviceEventsCard sn={b.sn} timezone={timezone} />,
          },
        ]}
      />
    </Flex>
  );
}
