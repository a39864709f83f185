import { describe, expect, it } from 'vitest';
import {
  gatewayStateStyle,
  levelStyle,
  measurementSeries,
  palette,
  paletteCssVariables,
  powerPalette,
  statusStyle,
  workdataSeries,
} from './palette.ts';

describe('the one palette', () => {
  it('keeps the colours the portal has always shown, from antd tokens', () => {
    expect(palette).toMatchObject({
      good: '#52c41a',
      warning: '#faad14',
      bad: '#ff4d4f',
      info: '#1677ff',
      goodStrong: '#389e0d',
    });
    expect(statusStyle.fault.color).toBe('#ff4d4f');
    expect(levelStyle.info.color).toBe('#1677ff');
    expect(gatewayStateStyle.offline.color).toBe('#8c8c8c');
    expect(powerPalette).toEqual({
      pv: '#f5a623',
      load: '#1677ff',
      grid: '#9254de',
      battery: '#52c41a',
      soc: '#13c2c2',
      forecast: '#fa8c16',
    });
    expect(measurementSeries).toEqual(['#f5a623', '#1677ff', '#52c41a', '#9254de', '#13c2c2', '#eb2f96', '#fa541c', '#2f54eb']);
    expect(workdataSeries).toEqual(['#1677ff', '#f5a623', '#3fb950', '#eb2f96', '#722ed1', '#13c2c2']);
  });

  it('gives CSS modules every meaning colour as a variable, named in kebab case', () => {
    expect(paletteCssVariables).toEqual({
      '--sf-good': palette.good,
      '--sf-good-strong': palette.goodStrong,
      '--sf-warning': palette.warning,
      '--sf-bad': palette.bad,
      '--sf-info': palette.info,
      '--sf-idle': palette.idle,
      '--sf-disconnected': palette.disconnected,
      '--sf-unbound': palette.unbound,
    });
  });
});
