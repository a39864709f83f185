import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../app/i18n.ts';
import es from '../locales/es/index.ts';
import { withNumberAxes } from './chart.ts';
import {
  displayedSpan,
  displayUnit,
  formatCapacity,
  formatCo2,
  formatEnergy,
  formatMeasure,
  formatMoney,
  formatNumber,
  formatRate,
  formatWatts,
  setNumberLocale,
  setTemperatureUnit,
} from './format.ts';

describe('numbers in the interface language', () => {
  it('en writes 1,234.5 and es 1.234,5, in every figure', () => {
    expect(formatNumber(1234.5, 1)).toBe('1,234.5');
    setNumberLocale('es');
    expect(formatNumber(1234.5, 1)).toBe('1.234,5');
    expect(formatCapacity(12345.678)).toBe('12.345,68 kWp');
    expect(formatWatts(4520)).toBe('4,5 kW');
    expect(formatEnergy(1_234_567_890)).toBe('1.234,6 MWh');
    expect(formatMoney(1234.5, 'EUR')).toBe('1.234,50 EUR');
    expect(formatCo2(15_432)).toBe('15,43 t');
    expect(formatRate(0.8234)).toBe('82,3 %');
    expect(formatMeasure(5.25, 'm/s', 2)).toBe('5,25 m/s');
  });

  it('the language is the one the interface was started in', () => {
    createI18n('es-ES', es);
    expect(formatNumber(0.5, 1)).toBe('0,5');
  });

  it('value axes of every chart label their ticks in the language; category axes and own labels stay', () => {
    setNumberLocale('es');
    const own = (v: number) => `${v} h`;
    const option = withNumberAxes({
      xAxis: { type: 'category', data: ['a'] },
      yAxis: [{ type: 'value', name: 'kW' }, { name: '%' }, { type: 'value', axisLabel: { formatter: own } }],
    });
    const x = option.xAxis as { axisLabel?: unknown };
    const [kw, pct, hours] = option.yAxis as Array<{ axisLabel: { formatter: (v: number) => string } }>;
    expect(x.axisLabel).toBeUndefined();
    expect(kw!.axisLabel.formatter(1234.5)).toBe('1.234,5');
    expect(pct!.axisLabel.formatter(0.5)).toBe('0,5');
    expect(hours!.axisLabel.formatter).toBe(own);
    expect(withNumberAxes({ xAxis: { type: 'value' } }).xAxis).toHaveProperty('axisLabel.formatter');
  });
});

describe('temperatures in the user unit', () => {
  it('°C measurements shown in °F after the profile says F; other units untouched', () => {
    expect(formatMeasure(25, '°C')).toBe('25.0 °C');
    setTemperatureUnit('F');
    expect(formatMeasure(25, '°C')).toBe('77.0 °F');
    expect(formatMeasure(-40, '°C')).toBe('-40.0 °F');
    expect(formatMeasure(25, 'm/s')).toBe('25.0 m/s');
    expect(displayUnit('°C')).toBe('°F');
    expect(displayUnit('V')).toBe('V');
    expect(displayedSpan(4, '°C')).toBeCloseTo(7.2);
    expect(displayedSpan(4, 'V')).toBe(4);
  });
});

describe('one set of number formatters', () => {
  it("no screen formats numbers with the contracts' formatters directly (they would ignore the language)", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !name.includes('.test.') && path !== join(__dirname, 'format.ts')) files.push(path);
      }
    };
    walk(join(__dirname, '..'));
    const direct = files.filter((f) =>
      /import\s*\{[^}]*\b(formatNumber|formatPower)\b[^}]*\}\s*from\s*'@sunfleet\/contracts'/.test(readFileSync(f, 'utf8')),
    );
    expect(direct).toEqual([]);
  });
});
