import { defaultThemeColor } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { contrastRatio, flatten, hueDistance, luminance, oklch, readableShade, TEXT_CONTRAST, textOn } from './colour.ts';
import {
  ACHROMATIC,
  confusable,
  derivePalette,
  GRAPHIC_CONTRAST,
  GREY_LIGHTNESS_GUARD,
  meaningBase,
  type Palette,
  paletteCssVariables,
  SERIES_HUE_STEP,
  STATUS_HUE_GUARD,
} from './palette.ts';
import { chargeColour } from './statusColours.ts';

/** Chart backgrounds: antd's light and dark container colours. */
const LIGHT = '#ffffff';
const DARK = '#141414';

/** Every distinct series colour of a palette, the generation series first. */
const seriesOf = (p: Palette) => [
  ...new Set([
    p.power.pv,
    ...Object.values(p.power),
    ...Object.values(p.flow),
    ...p.measurement,
    ...p.workdata,
    p.generation.income,
  ]),
];
/** The statuses whose meaning no series may take. */
const statuses = ['good', 'warning', 'bad', 'info', 'unbound', 'idle'] as const;

/** 8 steps a channel: 512 company colours, greys and the corners of the cube among them. */
const sweep = (() => {
  const steps = ['00', '24', '49', '6d', '92', 'b6', 'db', 'ff'];
  return steps.flatMap((r) => steps.flatMap((g) => steps.map((b) => `#${r}${g}${b}`)));
})();

describe('derivePalette: the default company colour', () => {
  it("keeps antd's status colours, but moves 'normal' off the green of #00cc00", () => {
    for (const background of [LIGHT, DARK]) {
      const { meaning } = derivePalette(defaultThemeColor, background);
      expect(meaning).toMatchObject({
        warning: '#faad14',
        bad: '#ff4d4f',
        info: '#1677ff',
        idle: '#8c8c8c',
        unbound: '#722ed1',
      });
      // #52c41a is 4° from #00cc00: a generation series would read as "normal".
      expect(confusable('#00cc00', '#52c41a')).toBe(true);
      expect(meaning.good).not.toBe('#52c41a');
      expect(confusable(meaning.good, '#00cc00')).toBe(false);
      // A lost connection (#ff7a45) is 11° from the forecast series' orange: it moves too, within its range.
      expect(meaning.disconnected).not.toBe('#ff7a45');
    }
  });

  it('draws generation in the company colour itself where it reads (the dark brand), shaded to 3:1 on white', () => {
    expect(derivePalette('#00cc00', DARK).power.pv).toBe('#00cc00');
    const light = derivePalette('#00cc00', LIGHT);
    expect(contrastRatio(light.power.pv, LIGHT)).toBeGreaterThanOrEqual(GRAPHIC_CONTRAST);
    expect(hueDistance(oklch(light.power.pv).h, oklch('#00cc00').h)).toBeLessThan(2);
    expect(light.generation.energy).toBe(light.power.pv);
  });
});

describe('derivePalette: every company colour', () => {
  const cases = sweep.flatMap((company) =>
    [LIGHT, DARK].map((background) => ({ company, background, p: derivePalette(company, background) })),
  );

  it('series reach 3:1 against the chart background, light and dark', () => {
    const low = cases.flatMap(({ company, background, p }) =>
      seriesOf(p)
        .filter((s) => contrastRatio(s, background) < GRAPHIC_CONTRAST)
        .map((s) => `${company} on ${background}: ${s} ${contrastRatio(s, background).toFixed(2)}`),
    );
    expect(low).toEqual([]);
  });

  it('series stay apart in hue: the ring is SERIES_HUE_STEP° apart (a degree lost to rounding at most … and gamut)', () => {
    const close: string[] = [];
    for (const { company, background, p } of cases) {
      const coloured = seriesOf(p)
        .map(oklch)
        .filter((s) => s.c >= ACHROMATIC);
      for (const [i, a] of coloured.entries())
        for (const b of coloured.slice(i + 1))
          if (hueDistance(a.h, b.h) < SERIES_HUE_STEP - 5)
            close.push(`${company} on ${background}: ${a.h.toFixed(0)}° ${b.h.toFixed(0)}°`);
    }
    expect(close).toEqual([]);
  });

  it('every series and status keeps its own distinct colour in one chart (the eight of the power curve)', () => {
    for (const { p } of cases) {
      expect(new Set(Object.values(p.power).concat(Object.values(p.flow))).size).toBe(8);
      expect(new Set(p.measurement).size).toBe(8);
      expect(new Set(p.workdata).size).toBe(6);
      expect(p.generation.income).not.toBe(p.generation.energy);
    }
  });

  it('statuses keep their hue family and stay coloured (idle stays grey)', () => {
    const off: string[] = [];
    for (const { company, p } of cases)
      for (const name of ['good', 'goodStrong', 'warning', 'bad', 'info', 'disconnected', 'unbound'] as const) {
        const { h, c } = oklch(p.meaning[name]);
        const { from, to } = meaningBase[name];
        if (h < from - 1 || h > to + 1 || c < 0.06)
          off.push(`${company} ${name} ${p.meaning[name]}: ${h.toFixed(0)}° chroma ${c.toFixed(3)}`);
      }
    expect(off).toEqual([]);
    for (const { p } of cases) expect(oklch(p.meaning.idle).c).toBeLessThan(0.01);
  });

  it('no series can be read as a status (the rule of `confusable`)', () => {
    const mixed: string[] = [];
    for (const { company, background, p } of cases)
      for (const s of seriesOf(p))
        for (const name of statuses)
          if (confusable(s, p.meaning[name])) mixed.push(`${company} on ${background}: ${s} reads as ${name} ${p.meaning[name]}`);
    expect(mixed).toEqual([]);
  });

  it('text on every series and status colour is black or white at 4.5:1', () => {
    for (const { p } of cases)
      for (const colour of [...seriesOf(p), ...Object.values(p.meaning)])
        expect(contrastRatio(textOn(colour), colour), colour).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });
});

describe("derivePalette: company colours of a status's hue", () => {
  it.each([
    ['red', '#ff0000', 'bad'],
    ['antd red', '#ff4d4f', 'bad'],
    ['dark red', '#a8071a', 'bad'],
    ['orange', '#ff9900', 'warning'],
    ['amber', '#faad14', 'warning'],
    ['green', '#00cc00', 'good'],
    ['antd green', '#52c41a', 'good'],
    ['blue', '#1677ff', 'info'],
  ] as const)(
    '%s (%s): generation is the company colour, and %s moves away from it within its family',
    (_name, company, status) => {
      for (const background of [LIGHT, DARK]) {
        const p = derivePalette(company, background);
        const generation = oklch(p.power.pv);
        expect(hueDistance(generation.h, oklch(company).h)).toBeLessThan(3);
        // Without the move the status would sit on the company colour's hue.
        expect(confusable(company, meaningBase[status].colour)).toBe(true);
        expect(confusable(p.power.pv, p.meaning[status])).toBe(false);
        expect(hueDistance(generation.h, oklch(p.meaning[status]).h)).toBeGreaterThanOrEqual(STATUS_HUE_GUARD);
      }
    },
  );

  it('antd orange (#fa8c16) is 18° from amber: not confusable, warning keeps its colour and stays apart', () => {
    const p = derivePalette('#fa8c16', DARK);
    expect(p.power.pv).toBe('#fa8c16');
    expect(p.meaning.warning).toBe(derivePalette('#fa8c16', LIGHT).meaning.warning);
    expect(confusable(p.power.pv, p.meaning.warning)).toBe(false);
  });

  it('a grey company colour: a grey generation series, and idle moved off its lightness', () => {
    for (const company of ['#8c8c8c', '#808080', '#999999']) {
      const p = derivePalette(company, LIGHT);
      expect(oklch(p.power.pv).c).toBeLessThan(ACHROMATIC);
      expect(Math.abs(oklch(p.power.pv).l - oklch(p.meaning.idle).l)).toBeGreaterThanOrEqual(GREY_LIGHTNESS_GUARD);
    }
  });

  it('statuses take their lightness from the company colour: a dark one gives darker statuses', () => {
    const dark = derivePalette('#003366', LIGHT).meaning;
    const standard = derivePalette(defaultThemeColor, LIGHT).meaning;
    for (const name of ['warning', 'bad', 'info'] as const) expect(oklch(dark[name]).l).toBeLessThan(oklch(standard[name]).l);
  });
});

describe('confusable', () => {
  it('coloured: by hue; grey: by lightness; a grey is never a colour', () => {
    expect(confusable('#ff0000', '#ff4d4f')).toBe(true);
    expect(confusable('#ff0000', '#52c41a')).toBe(false);
    expect(confusable('#8c8c8c', '#999999')).toBe(true);
    expect(confusable('#8c8c8c', '#333333')).toBe(false);
    expect(confusable('#8c8c8c', '#ff4d4f')).toBe(false);
  });
});

describe('palette parts', () => {
  it('gives CSS modules every meaning colour as a variable, named in kebab case', () => {
    const p = derivePalette('#1677ff', LIGHT);
    expect(paletteCssVariables(p)).toEqual({
      '--sf-good': p.meaning.good,
      '--sf-good-strong': p.meaning.goodStrong,
      '--sf-warning': p.meaning.warning,
      '--sf-bad': p.meaning.bad,
      '--sf-info': p.meaning.info,
      '--sf-idle': p.meaning.idle,
      '--sf-disconnected': p.meaning.disconnected,
      '--sf-unbound': p.meaning.unbound,
    });
  });

  it('colours a charge gauge by the palette: bad below 20 %, warning below 50 % when asked, good above', () => {
    const p = derivePalette('#ff0000', LIGHT);
    expect([chargeColour(p, 10), chargeColour(p, 30), chargeColour(p, 30, false), chargeColour(p, 80)]).toEqual([
      p.meaning.bad,
      p.meaning.warning,
      p.meaning.good,
      p.meaning.good,
    ]);
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
