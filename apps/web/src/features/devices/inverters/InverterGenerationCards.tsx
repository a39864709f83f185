/**
 * The inverter's generation (inverter/gen): the energy of each hour of a day, day of a month,
 * month of a year or year; and, for a micro-inverter only (inverter/genMi answers 601 for the
 * others), each panel's power curve over a day with its energy and peak power. Both are chart
 * cards of the charts tab with the page's date navigation.
 */
import { Table } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, useChartState } from '../shared/ChartCard.tsx';
import { generationEnergyBars } from '../shared/charts.ts';
import styles from '../shared/devices.module.css';
import { formatValue } from '../shared/format.ts';
import type { EnergyKey, MicroPanel } from '../shared/types.ts';
import { useInverterGeneration, useInverterPanels } from './inverterQueries.ts';

const genKeys: readonly EnergyKey[] = ['pv'];

export function GenerationCard({ sn, timezone, today }: { sn: string; timezone: string; today: string }) {
  const { t } = useTranslation('devices');
  const chart = useChartState(today);
  const gen = useInverterGeneration(sn, chart.period, chart.date, chart.date === today);
  const data = useMemo(() => (gen.data ? generationEnergyBars(gen.data) : undefined), [gen.data]);

  return (
    <ChartCard
      testId="generation-chart"
      title={t('generation.title')}
      chart={chart}
      timezone={timezone}
      day={null}
      dayBars
      bars={{ data, isPending: gen.isPending, isError: gen.isError, error: gen.error, refetch: gen.refetch }}
      barKeys={genKeys}
    />
  );
}

/** Only for a micro-inverter: the caller checks its type. */
export function PanelsCard({ sn, timezone, today }: { sn: string; timezone: string; today: string }) {
  const { t } = useTranslation('devices');
  const chart = useChartState(today);
  const day = useInverterPanels(sn, chart.date, chart.date === today);
  const panels = day.data?.panels ?? [];
  const total = panels.reduce((sum, p) => sum + p.energy, 0);

  return (
    <ChartCard
      testId="panels-chart"
      title={t('panels.title')}
      periods={['day']}
      chart={chart}
      timezone={timezone}
      day={day}
      summary={day.data ? <span data-testid="panels-energy">{`${t('panels.total')} ${formatValue(total, 'Wh')}`}</span> : null}
      footer={
        day.data && panels.length > 0 ? (
          <Table<MicroPanel>
            size="small"
            rowKey="index"
            pagination={false}
            dataSource={panels}
            className={styles.panels}
            data-testid="panels-table"
            columns={[
              { key: 'name', title: t('panels.panel'), render: (_, p) => p.name },
              {
                key: 'energy',
                title: t('panels.energy'),
                align: 'right',
                render: (_, p) => <span data-testid={`panel-energy-${p.index}`}>{formatValue(p.energy, 'Wh')}</span>,
              },
              {
                key: 'peakPower',
                title: t('panels.peakPower'),
                align: 'right',
                render: (_, p) => <span data-testid={`panel-peak-${p.index}`}>{formatValue(p.peakPower, 'W')}</span>,
              },
            ]}
          />
        ) : null
      }
    />
  );
}
