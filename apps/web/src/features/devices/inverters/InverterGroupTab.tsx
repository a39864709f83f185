/**
 * One of the inverter's grid, meter, battery, eps (backup output) and load groups: the values
 * now (power with its direction, SOC, phases, today's and lifetime energy, every field the
 * protocol has), the day curves and the energy bars. Signs: grid and meter + import / − export,
 * battery + discharge / − charge.
 */
import { Card, Col, Flex, Row, Skeleton, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardError } from '../../../components/CardState.tsx';
import { Figure } from '../../../components/Figure.tsx';
import ui from '../../../components/ui.module.css';
import { formatEnergy } from '../../../lib/format.ts';
import { ChartCard, useChartState } from '../shared/ChartCard.tsx';
import { FieldList, PhaseTable, Updated } from '../shared/DetailParts.tsx';
import { formatValue } from '../shared/format.ts';
import type { EnergyKey, GroupRealtime, InverterTabProps } from '../shared/types.ts';
import { useInverterGroup } from './inverterQueries.ts';

export const groupEnergyKeys: Record<InverterGroupName, EnergyKey[]> = {
  grid: ['gridImport', 'gridExport'],
  meter: ['gridImport', 'gridExport'],
  battery: ['charge', 'discharge'],
  eps: ['load'],
  load: ['load'],
};

/** What a group's power sign means now. */
export function powerDirection(group: InverterGroupName, watts: number | null): string | null {
  if (watts === null || Math.abs(watts) < 1) return watts === null ? null : 'idle';
  if (group === 'grid' || group === 'meter') return watts > 0 ? 'importing' : 'exporting';
  if (group === 'battery') return watts > 0 ? 'discharging' : 'charging';
  return 'consuming';
}

type GroupEnergy = GroupRealtime['energy'][number];
export type InverterGroupName = GroupRealtime['group'];

export function InverterGroupTab({ group, inverter: inv, timezone, today }: InverterTabProps & { group: InverterGroupName }) {
  const { t } = useTranslation('devices');
  const params = { kind: group, sn: inv.sn };
  const chart = useChartState(today);
  const { now, day, bars } = useInverterGroup(params, chart.period, chart.date, chart.date === today);
  const g = now.data;
  const direction = g ? powerDirection(group, g.power) : null;

  return (
    <Flex vertical gap={16} data-testid={`group-${group}`}>
      <Card
        size="small"
        title={t(`groups.${group}`)}
        extra={<Updated at={g?.at} timezone={timezone} />}
        data-testid={`group-${group}-now`}
      >
        {now.isPending ? (
          <Skeleton active />
        ) : now.isError && !g ? (
          <CardError error={now.error} onRetry={() => void now.refetch()} />
        ) : g ? (
          <Flex vertical gap={16}>
            <Row gutter={[16, 12]}>
              <Col xs={12} md={6}>
                <Figure
                  label={t('realtime.power')}
                  value={formatValue(g.power === null ? null : Math.abs(g.power), 'W')}
                  hint={t(`groupSign.${group}`)}
                  testId={`group-${group}-power`}
                />
                {direction && (
                  <Typography.Text type="secondary" className={ui.note}>
                    {t(`direction.${direction}`)}
                  </Typography.Text>
                )}
              </Col>
              {g.soc !== null && (
                <Col xs={12} md={6}>
                  <Figure label={t('battery.soc')} value={formatValue(g.soc, '%')} testId={`group-${group}-soc`} />
                </Col>
              )}
              {g.energy.length > 0 && (
                <Col xs={24} md={12}>
                  <Table<GroupEnergy>
                    size="small"
                    rowKey="key"
                    pagination={false}
                    dataSource={g.energy}
                    columns={[
                      { key: 'key', title: t('energy.flow'), render: (_, e) => t(`groupEnergy.${e.key}`) },
                      { key: 'today', title: t('energy.today'), align: 'right', render: (_, e) => formatEnergy(e.today) },
                      { key: 'total', title: t('energy.total'), align: 'right', render: (_, e) => formatEnergy(e.total) },
                    ]}
                    data-testid={`group-${group}-energy`}
                  />
                </Col>
              )}
            </Row>
            {g.phases.length > 0 && <PhaseTable phases={g.phases} testId={`group-${group}-phases`} />}
            <FieldList fields={g.fields} testId={`group-${group}-fields`} columns={3} />
          </Flex>
        ) : null}
      </Card>
      <ChartCard
        testId={`group-${group}-chart`}
        chart={chart}
        timezone={timezone}
        day={day}
        bars={bars}
        barKeys={groupEnergyKeys[group]}
        summary={
          day.data
            ? groupEnergyKeys[group]
                .map((k) => `${t(`energy.${k}`)} ${formatValue(day.data?.energy?.[k] ?? 0, 'Wh')}`)
                .join(' · ')
            : null
        }
      />
    </Flex>
  );
}
