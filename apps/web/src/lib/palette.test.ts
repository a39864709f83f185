import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  flatten,
  gatewayStateStyle,
  levelStyle,
  luminance,
  measurementSeries,
  palette,
  paletteCssVariables,
  powerPalette,
  readableShade,
  statusStyle,
  TEXT_CONTRAST,
  textOn,
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

describe('contrast', () => {
  it('measures WCAG contrast ratios, translucent text over its background', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    // The sign-in button of the dark brand before: white on antd's dark #03b003.
    expect(contrastRatio('#ffffff', '#03b003')).toBeCloseTo(2.91, 2);
    // antd's dark description text: white at 45 % over black.
    expect(contrastRatio('rgba(255, 255, 255, 0.45)', '#000000')).toBeCloseTo(4.43, 2);
    expect(flatten('rgba(0,0,0,0.5)', '#ffffff')).toBe('#808080');
  });

  it('puts white or black text on a surface, whichever reaches 4.5:1', () => {
    expect(textOn('#03b003')).toBe('#000000');
    expect(textOn('#003366')).toBe('#ffffff');
    for (const bg of ['#00cc00', '#1677ff', '#777777', '#ff4d4f', '#ffd700', '#2f2f2f'])
      expect(contrastRatio(textOn(bg), bg)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });

  it('every #rrggbb a company may choose gets a text colour that reaches 4.5:1 on it', () => {
    const steps = ['00', '33', '66', '80', '99', 'aa', 'cc', 'ff'];
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const bg = `#${r}${g}${b}`;
          expect(contrastRatio(textOn(bg), bg), bg).toBeGreaterThanOrEqual(TEXT_CONTRAST);
        }
  });

  it('shades a colour only as far as it must to read on every background', () => {
    expect(readableShade('#000000', ['#ffffff'])).toBe('#000000');
    const onWhite = readableShade('#00cc00', ['#ffffff', '#f5f5f5']);
    expect(contrastRatio(onWhite, '#f5f5f5')).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrastRatio(onWhite, '#f5f5f5')).toBeLessThan(5);
    expect(luminance(onWhite)).toBeLessThan(luminance('#00cc00'));
    const onDark = readableShade('#dc4446', ['#000000', '#141414', '#1f1f1f']);
    expect(contrastRatio(onDark, '#1f1f1f')).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(luminance(onDark)).toBeGreaterThan(luminance('#dc4446'));
  });
});
