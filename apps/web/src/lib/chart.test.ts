import { describe, expect, it } from 'vitest';
import {
  type ChartColors,
  curveTooltip,
  dayAxis,
  hasChartData,
  printColors as printColorsOf,
  splitSigned,
  splitSignedBand,
  themedOption,
  withLegendColors,
} from './chart.ts';
import { derivePalette } from './palette.ts';

const printColors = printColorsOf(derivePalette('#00cc00', '#ffffff'));

describe('day curves', () => {
  it('write the tooltip as the time, then each series with a value, formatted by the caller', () => {
    const text = curveTooltip(
      [
        { seriesName: 'PV', seriesId: 'pv', marker: '•', value: [605, 1.5, 1500] },
        { seriesName: 'Load', seriesId: 'load', marker: '•', value: [605, null, null] },
        { seriesName: 'SOC', seriesId: 'soc', marker: '•', value: [605, 80, 80] },
      ],
      (v, item) => (item.seriesId === 'soc' ? `${v} %` : `${v} W`),
    );
    expect(text).toBe('10:05<br/>•PV: <b>1500 W</b><br/>•SOC: <b>80 %</b>');
  });

  it('draw the day on a 00:00-24:00 axis of minutes, labelled HH:MM', () => {
    const axis = dayAxis(printColors);
    expect(axis).toMatchObject({ min: 0, max: 1440, interval: 120 });
    expect(axis.axisLabel.formatter(480)).toBe('08:00');
  });
});

describe('a chart without data', () => {
  it('is one without series, or whose series hold no value (none, null, "-")', () => {
    expect(hasChartData({})).toBe(false);
    expect(hasChartData({ series: [] })).toBe(false);
    expect(hasChartData({ series: [{ type: 'line', data: [] }] })).toBe(false);
    expect(
      hasChartData({
        series: [
          {
            type: 'line',
            data: [
              [0, null, null],
              [5, null, null],
            ],
          },
          { type: 'line', data: [null, '-', Number.NaN] },
          { type: 'line', data: [{ value: [3, null] }] },
        ],
      }),
    ).toBe(false);
  });

  it('has data when one value is there: a curve point (its y), a number, an item value, a 0 on a line', () => {
    expect(
      hasChartData({
        series: [
          {
            type: 'line',
            data: [
              [0, null, null],
              [5, 0.4, 400],
            ],
          },
        ],
      }),
    ).toBe(true);
    expect(hasChartData({ series: [{ type: 'line', data: [null, 0] }] })).toBe(true);
    expect(hasChartData({ series: { type: 'line', data: [{ value: [230.1, 4.2] }] } })).toBe(true);
  });

  it('counts a bar of 0 as nothing (a period without rows is drawn as 0)', () => {
    expect(hasChartData({ series: [{ type: 'bar', data: [{ value: 0, raw: 0 }, 0, { value: 0 }] }] })).toBe(false);
    expect(hasChartData({ series: [{ type: 'bar', data: [0, { value: 0.2, raw: 200 }] }] })).toBe(true);
  });
});

describe('legends', () => {
  const dark: ChartColors = { ...printColors, text: 'rgba(255, 255, 255, 0.85)', inactive: 'rgba(255, 255, 255, 0.25)' };

  it('grey a switched-off entry (marker, border, line and text) in the theme colour', () => {
    const option = withLegendColors({ legend: { top: 0, data: ['PV'] } }, dark);
    expect(option.legend).toEqual({
      top: 0,
      data: ['PV'],
      inactiveColor: 'rgba(255, 255, 255, 0.25)',
      inactiveBorderColor: 'rgba(255, 255, 255, 0.25)',
      textStyle: { color: 'rgba(255, 255, 255, 0.85)' },
      lineStyle: { inactiveColor: 'rgba(255, 255, 255, 0.25)' },
    });
  });

  it("mark a line with a filled circle (an empty one's centre stays white when off), a chosen symbol kept", () => {
    const option = withLegendColors(
      { legend: {}, series: [{ type: 'line' }, { type: 'line', symbol: 'none' }, { type: 'bar' }] },
      dark,
    );
    expect(option.series).toEqual([{ type: 'line', symbol: 'circle' }, { type: 'line', symbol: 'none' }, { type: 'bar' }]);
  });

  it("keep a chart's own text colour, theme every legend of a list, and leave a chart without one alone", () => {
    const two = withLegendColors({ legend: [{ textStyle: { color: '#123456', fontSize: 11 } }, {}] }, dark);
    expect(two.legend[0]).toMatchObject({ inactiveColor: dark.inactive, textStyle: { color: '#123456', fontSize: 11 } });
    expect(two.legend[1]).toMatchObject({ inactiveColor: dark.inactive, textStyle: { color: dark.text } });
    expect(withLegendColors({ series: [] }, dark)).toEqual({ series: [] });
  });

  it('come with the number axes in what every chart is drawn with', () => {
    const option = themedOption({ legend: {}, yAxis: { type: 'value' } }, printColors) as unknown as {
      legend: { inactiveColor: string };
      yAxis: { axisLabel: { formatter: (v: number) => string } };
    };
    expect(option.legend.inactiveColor).toBe(printColors.inactive);
    expect(option.yAxis.axisLabel.formatter(1234.5)).toBe('1,234.5');
  });
});

describe('signed power', () => {
  it('splits grid power into import (+) and export (−) magnitudes, a gap in both', () => {
    expect(splitSigned('grid', [1200, -300, 0, null])).toEqual([
      { direction: 'gridImport', values: [1200, 0, 0, null] },
      { direction: 'gridExport', values: [0, 300, 0, null] },
    ]);
  });

  it('splits battery power into discharge (+) and charge (−), leaving out a direction never taken', () => {
    expect(splitSigned('battery', [-500, -20, null])).toEqual([{ direction: 'charge', values: [500, 20, null] }]);
    expect(splitSigned('battery', [0, null])).toEqual([]);
  });

  it('splits a band: each direction its part, the negative one turned around', () => {
    // A point from −500 to +300 (average −100), one all import, one missing.
    expect(splitSignedBand('grid', { avg: [-100, 200, null], min: [-500, 100, null], max: [300, 400, null] })).toEqual([
      { direction: 'gridImport', avg: [0, 200, null], min: [0, 100, null], max: [300, 400, null] },
      { direction: 'gridExport', avg: [100, 0, null], min: [0, 0, null], max: [500, 0, null] },
    ]);
    // Charging reached within a point whose average is discharge: the direction stays.
    expect(splitSignedBand('battery', { avg: [300], min: [-200], max: [800] }).map((p) => [p.direction, p.avg, p.max])).toEqual([
      ['discharge', [300], [800]],
      ['charge', [0], [200]],
    ]);
  });
});
