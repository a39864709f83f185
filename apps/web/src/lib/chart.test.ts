import { describe, expect, it } from 'vitest';
import { curveTooltip, dayAxis, printColors } from './chart.ts';

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
