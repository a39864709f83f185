/**
 * /device/meter/{sn} (hidden; buttons of meter.view): one meter. Header with plant, gateway,
 * protocol, master flag, "use as the plant's master meter" (meter.master and the plant's edit
 * right, not on the master already), rename and delete; the values now (power + import /
 * − export, reactive and apparent power, power factor, frequency, each phase, import and export
 * today and in total, faults, other fields) every 10 s; the day curve and the import/export bars
 * of a month, a year or all time. An SN the caller cannot see (404) shows "not found".
 */
import { devicesApi, ErrorCode } from '@sunfleet/contracts';
import { Card, Col, Flex, Row, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { PageError, PageLoading } from '../../../components/PageState.tsx';
import { usePermission } from '../../../components/Permission.tsx';
import { todayIn } from '../../../lib/dateNav.ts';
import { formatEnergy } from '../../../lib/format.ts';
import { formatZoned } from '../../../lib/zonedTime.ts';
import { AliasDialog, type AliasTarget } from '../shared/AliasDialog.tsx';
import { ChartCard, useChartState } from '../shared/ChartCard.tsx';
import {
  DetailActions,
  DetailHeader,
  DeviceMissing,
  FaultList,
  FieldList,
  PhaseTable,
  placeFacts,
  StatusTag,
  Updated,
} from '../shared/DetailParts.tsx';
import { DeviceEventsCard } from '../shared/DeviceEventsCard.tsx';
import { deviceName, formatValue } from '../shared/format.ts';
import type { EnergyKey } from '../shared/types.ts';
import { useDeleteAndLeave } from '../shared/useDeleteDevice.tsx';
import { MasterMeterButton } from './MasterMeterButton.tsx';
import { useMeterBars, useMeterDay, useMeterRealtime } from './meterQueries.ts';
import '../shared/devices.css';
import { Figure } from '../../../components/Figure.tsx';
import ui from '../../../components/ui.module.css';

const BACK = '/device/meter';
const energyKeys: EnergyKey[] = ['gridImport', 'gridExport'];

export default function MeterDetailPage() {
  const { t, i18n } = useTranslation('devices');
  const sn = useParams().sn ?? '';
  const valid = new RegExp(devicesApi.SN_PATTERN).test(sn);
  const canRename = usePermission('meter.alias');
  const canDelete = usePermission('meter.delete');
  const canSetMaster = usePermission('meter.master');
  const deleteAction = useDeleteAndLeave('meter', BACK);
  const [renaming, setRenaming] = useState<AliasTarget | null>(null);
  const now = useMeterRealtime(sn, valid);
  const timezone = now.data?.plant?.timezone ?? 'UTC';
  const today = todayIn(timezone);
  const chart = useChartState(today);
  const isDay = chart.period === 'day';
  const ready = valid && now.isSuccess;
  const day = useMeterDay(sn, chart.date, { enabled: ready && isDay, today: chart.date === today });
  const bars = useMeterBars(sn, chart.period === 'day' ? 'month' : chart.period, chart.date, ready && !isDay);

  if (!valid || (now.error instanceof ApiError && now.error.code === ErrorCode.notFound))
    return <DeviceMissing text={t('missing.meter')} back={BACK} backLabel={t('back.meter')} />;
  if (now.isPending) return <PageLoading />;
  if (now.isError && !now.data) return <PageError error={now.error} onRetry={() => void now.refetch()} />;
  const m = now.data;
  const direction = m.power === null ? null : Math.abs(m.power) < 1 ? 'idle' : m.power > 0 ? 'importing' : 'exporting';

  return (
    <Flex vertical gap={16} data-testid="meter-detail-page">
      <DetailHeader
        testId="meter-header"
        back={BACK}
        backLabel={t('back.meter')}
        title={deviceName(m)}
        subtitle={m.alias ? m.sn : null}
        tags={
          <>
            <StatusTag status={m.state} />
            {m.master && <Tag color="blue">{t('meter.master')}</Tag>}
          </>
        }
        facts={[
          ...placeFacts(t, m, m.protocol.name),
          { key: 'lastUpdate', label: t('columns.lastUpdate'), value: formatZoned(m.at, timezone, i18n.language) },
        ]}
        actions={
          <Flex gap={8} wrap>
            {canSetMaster && m.canEdit && m.plant && !m.master && <MasterMeterButton sn={m.sn} plantName={m.plant.name} />}
            <DetailActions
              onRename={canRename && m.canEdit ? () => setRenaming({ sn: m.sn, alias: m.alias }) : undefined}
              onDelete={deleteAction(m, canDelete && m.canDelete)}
            />
          </Flex>
        }
      />
      <FaultList faults={m.faults} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={t('realtime.title')}
            extra={<Updated at={m.at} timezone={timezone} />}
            className={ui.fill}
            data-testid="meter-now"
          >
            <Row gutter={[16, 16]}>
              <Col xs={12} md={8}>
                <Figure
                  label={t('realtime.power')}
                  value={formatValue(m.power === null ? null : Math.abs(m.power), 'W')}
                  hint={t('groupSign.meter')}
                  testId="meter-power"
                />
                {direction && (
                  <Typography.Text type="secondary" className={ui.note} data-testid="meter-direction">
                    {t(`direction.${direction}`)}
                  </Typography.Text>
                )}
              </Col>
              <Col xs={12} md={8}>
                <Figure label={t('realtime.reactivePower')} value={formatValue(m.reactivePower, 'var')} testId="meter-reactive" />
              </Col>
              <Col xs={12} md={8}>
                <Figure label={t('realtime.apparentPower')} value={formatValue(m.apparentPower, 'VA')} testId="meter-apparent" />
              </Col>
              <Col xs={12} md={8}>
                <Figure label={t('realtime.powerFactor')} value={formatValue(m.powerFactor, null, 3)} testId="meter-pf" />
              </Col>
              <Col xs={12} md={8}>
                <Figure label={t('realtime.frequency')} value={formatValue(m.frequency, 'Hz')} testId="meter-frequency" />
              </Col>
            </Row>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('meter.energy')} className={ui.fill} data-testid="meter-energy">
            <Row gutter={[16, 16]}>
              <Col span={12}>
                <Figure label={t('meter.importToday')} value={formatEnergy(m.importToday)} testId="meter-import-today" />
              </Col>
              <Col span={12}>
                <Figure label={t('meter.exportToday')} value={formatEnergy(m.exportToday)} testId="meter-export-today" />
              </Col>
              <Col span={12}>
                <Figure label={t('meter.importTotal')} value={formatEnergy(m.importTotal)} testId="meter-import-total" />
              </Col>
              <Col span={12}>
                <Figure label={t('meter.exportTotal')} value={formatEnergy(m.exportTotal)} testId="meter-export-total" />
              </Col>
            </Row>
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('meter.phases')}>
        <PhaseTable phases={m.phases} testId="meter-phases" />
      </Card>
      {m.fields.length > 0 && (
        <Card size="small" title={t('meter.other')}>
          <FieldList fields={m.fields} testId="meter-fields" />
        </Card>
      )}
      <ChartCard
        testId="meter-chart"
        chart={chart}
        timezone={timezone}
        day={day}
        bars={bars}
        barKeys={energyKeys}
        summary={
          day.data
            ? energyKeys.map((k) => `${t(`energy.${k}`)} ${formatValue(day.data?.energy[k] ?? 0, 'Wh')}`).join(' · ')
            : null
        }
      />
      <DeviceEventsCard sn={m.sn} timezone={timezone} />
      <AliasDialog kind="meter" device={renaming} onClose={() => setRenaming(null)} />
    </Flex>
  );
}
