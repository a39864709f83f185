/**
 * The inverter's charts: the day curves of up to 6 chosen parameters (the protocol's default
 * curves when none is chosen) with the day's energy, and the energy bars of a month, a year or
 * all time. The chosen parameters live in the query string (`?tab=charts&p=pv1Voltage,…`).
 * Below: the generation bars (hours of a day, days, months, years) and, for a micro-inverter,
 * its panels' day curves and energy. The energy bars above show every flow (load, grid,
 * battery too) so they stay beside the generation-only bars.
 */
import { Flex } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ChartCard, useChartState, useEnergyLabels } from '../shared/ChartCard.tsx';
import { formatValue, typeKeyOf } from '../shared/format.ts';
import type { EnergyKey, InverterTabProps } from '../shared/types.ts';
import { GenerationCard, PanelsCard } from './InverterGenerationCards.tsx';
import { useInverterBars, useInverterDay, useInverterParams } from './inverterQueries.ts';
import { ParamPicker } from './ParamPicker.tsx';
import { MAX_PARAMS } from './paramProfiles.ts';

const KEY = /^[A-Za-z0-9_.]{1,48}$/;
const energyKeys: EnergyKey[] = ['pv', 'load', 'gridImport', 'gridExport', 'charge', 'discharge'];

export function InverterChartsTab({ inverter: inv, timezone, today }: InverterTabProps) {
  const { t } = useTranslation('devices');
  const labels = useEnergyLabels();
  const chart = useChartState(today);
  const [search, setSearch] = useSearchParams();
  const raw = search.get('p') ?? '';
  const selected = useMemo(() => [...new Set(raw.split(',').filter((k) => KEY.test(k)))].slice(0, MAX_PARAMS), [raw]);
  const setSelected = (keys: string[]) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (keys.length) next.set('p', keys.join(','));
        else next.delete('p');
        return next;
      },
      { replace: true },
    );

  const params = useInverterParams(inv.sn);
  const isDay = chart.period === 'day';
  const day = useInverterDay(inv.sn, chart.date, selected, { enabled: isDay, today: chart.date === today });
  const barsPeriod = chart.period === 'day' ? 'month' : chart.period;
  const bars = useInverterBars(inv.sn, barsPeriod, chart.date, !isDay);

  const energy = day.data?.energy;
  // Each flow's figure on its own (the generation is the figure the overview tab shows as today's).
  const summary = energy
    ? energyKeys
        .filter((k) => k === 'pv' || energy[k] !== 0)
        .map((k, i) => (
          <span key={k}>
            {i > 0 && ' · '}
            {labels[k]} <span data-testid={`inverter-day-energy-${k}`}>{formatValue(energy[k], 'Wh')}</span>
          </span>
        ))
    : null;

  return (
    <Flex vertical gap={16}>
      <ChartCard
        testId="inverter-chart"
        chart={chart}
        timezone={timezone}
        day={day}
        bars={bars}
        barKeys={energyKeys}
        summary={<span data-testid="inverter-day-energy">{summary}</span>}
        toolbar={<ParamPicker params={params.data} selected={selected} onApply={setSelected} />}
        title={t('tabs.charts')}
      />
      <GenerationCard sn={inv.sn} timezone={timezone} today={today} />
      {typeKeyOf(inv) === 'micro' && <PanelsCard sn={inv.sn} timezone={timezone} today={today} />}
    </Flex>
  );
}
