import { render, screen } from '@testing-library/react';
import { ConfigProvider, theme } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../app/i18n.ts';
import type { ChartOption } from '../lib/chart.ts';
import en from '../locales/en/index.ts';
import es from '../locales/es/index.ts';
import { EChart } from './EChart.tsx';

// No canvas in jsdom: the instance records the options it is given.
const given: unknown[] = [];
vi.mock('./echarts.ts', () => ({
  init: () => ({
    setOption: (option: unknown) => given.push(option),
    resize: () => undefined,
    dispose: () => undefined,
  }),
}));
beforeEach(() => {
  given.length = 0;
});

function draw(option: ChartOption, { dark = false, language = 'en' } = {}) {
  const i18n = language === 'es' ? createI18n('es', es) : createI18n('en', en);
  return render(
    <I18nextProvider i18n={i18n}>
      <ConfigProvider theme={{ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm }}>
        <EChart option={option} testId="chart" />
      </ConfigProvider>
    </I18nextProvider>,
  );
}

const curve: ChartOption = {
  legend: { data: ['PV'] },
  xAxis: { type: 'value' },
  yAxis: { type: 'value' },
  series: [{ id: 'pv', name: 'PV', type: 'line', data: [[600, 1.2, 1200]] }],
};

describe('EChart', () => {
  it("greys a switched-off legend entry in the theme's disabled colour (dark theme too)", () => {
    const disabled = theme.getDesignToken({ algorithm: theme.darkAlgorithm }).colorTextDisabled;
    draw(curve, { dark: true });
    expect(screen.getByTestId('chart')).toBeTruthy();
    const legend = (given.at(-1) as { legend: Record<string, unknown> }).legend;
    expect(legend.inactiveColor).toBe(disabled);
    expect(legend.inactiveBorderColor).toBe(disabled);
    // ECharts' own grey (#cfd2d7) is as light as a dark theme's text: a switched-off entry looked shown.
    expect(legend.inactiveColor).not.toBe('#cfd2d7');
  });

  it('says "No data for this period" instead of empty axes when no series holds a value', () => {
    draw({ ...curve, series: [{ id: 'pv', name: 'PV', type: 'line', data: [[600, null, null]] }] });
    expect(screen.getByTestId('chart-empty').querySelector('.ant-empty-description')?.textContent).toBe(
      'No data for this period',
    );
    expect(screen.queryByTestId('chart')).toBeNull();
    expect(given).toHaveLength(0);
  });

  it('says it in Spanish', () => {
    draw({ ...curve, series: [] }, { language: 'es' });
    expect(screen.getByTestId('chart-empty').querySelector('.ant-empty-description')?.textContent).toBe(
      'Sin datos para este periodo',
    );
  });
});
