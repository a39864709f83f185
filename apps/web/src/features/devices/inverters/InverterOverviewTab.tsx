/** The inverter's overview: power now against its rating, energy, temperature, state, the energy flow, identity and faults. */
import { Card, Col, Flex, Progress, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EnergyFlowCard } from '../../../components/EnergyFlow.tsx';
import { Figure } from '../../../components/Figure.tsx';
import ui from '../../../components/ui.module.css';
import { formatEnergy } from '../../../lib/format.ts';
import { FaultList, FieldList, Updated } from '../shared/DetailParts.tsx';
import styles from '../shared/devices.module.css';
import { formatValue } from '../shared/format.ts';
import type { InverterDetail } from '../shared/types.ts';
import { useInverterFlow } from './inverterQueries.ts';

export function InverterOverviewTab({ inverter: inv, timezone }: { inverter: InverterDetail; timezone: string }) {
  const { t } = useTranslation('devices');
  const flow = useInverterFlow(inv.sn);
  const ratio = inv.power !== null && inv.ratedPower ? Math.max(0, inv.power / inv.ratedPower) : null;

  return (
    <Flex vertical gap={16}>
      <FaultList faults={inv.faults} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={11}>
          <Card
            size="small"
            title={t('realtime.title')}
            extra={<Updated at={inv.lastUpdate} timezone={timezone} />}
            className={ui.fill}
            data-testid="inverter-summary"
          >
            <Flex vertical gap={16}>
              <Flex align="center" gap={20} wrap>
                <Progress
                  type="dashboard"
                  size={132}
                  percent={ratio === null ? 0 : Math.min(100, Math.round(ratio * 100))}
                  aria-label={`${formatValue(inv.power, 'W')} ${t('realtime.ofRated', { rated: formatValue(inv.ratedPower, 'W') })}`}
                  format={() => (
                    <Flex vertical align="center" gap={2}>
                      <Typography.Text strong className={styles.powerValue} data-testid="inverter-power">
                        {formatValue(inv.power, 'W')}
                      </Typography.Text>
                      <Typography.Text type="secondary" className={ui.note}>
                        {t('realtime.ofRated', { rated: formatValue(inv.ratedPower, 'W') })}
                      </Typography.Text>
                    </Flex>
                  )}
                />
                <Row gutter={[16, 12]} className={styles.inverterFigures}>
                  <Col span={12}>
                    <Figure label={t('realtime.todayEnergy')} value={formatEnergy(inv.todayEnergy)} testId="inverter-today" />
                  </Col>
                  <Col span={12}>
                    <Figure label={t('realtime.totalEnergy')} value={formatEnergy(inv.totalEnergy)} testId="inverter-total" />
                  </Col>
                  <Col span={12}>
                    <Figure
                      label={t('realtime.temperature')}
                      value={formatValue(inv.temperature, '°C')}
                      testId="inverter-temperature"
                    />
                  </Col>
                  <Col span={12}>
                    <Figure label={t('realtime.state')} value={inv.runningState ?? '--'} testId="inverter-state" />
                  </Col>
                  <Col span={12}>
                    <Figure label={t('realtime.mppt')} value={inv.mpptCount ?? '--'} testId="inverter-mppt" />
                  </Col>
                  <Col span={12}>
                    <Figure label={t('realtime.phases')} value={inv.phaseCount ?? '--'} testId="inverter-phases" />
                  </Col>
                </Row>
              </Flex>
            </Flex>
          </Card>
        </Col>
        <Col xs={24} xl={13}>
          <EnergyFlowCard
            data={flow.data}
            // The diagram shows a battery on storage plants only; an inverter with a battery is one.
            plantType={flow.data?.hasBattery ? 1 : 0}
            error={flow.error}
            pending={flow.isPending}
            onRetry={() => void flow.refetch()}
            timezone={timezone}
          />
        </Col>
      </Row>
      <Card size="small" title={t('info.title')} data-testid="inverter-info">
        <FieldList fields={inv.info} testId="inverter-info-fields" />
      </Card>
    </Flex>
  );
}
