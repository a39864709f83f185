import { act, render } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Palettes, usePalette, usePrintPalette } from '../components/palette.ts';
import { contrastRatio, flatten, TEXT_CONTRAST } from '../lib/colour.ts';
import { confusable, derivePalette } from '../lib/palette.ts';
import { brands, currentBrand, defaultBrand } from './brands.ts';
import { brandPalettes, brandTheme, ThemeProvider, useThemeColor } from './theme.tsx';

describe('ThemeProvider', () => {
  it('gives charts and CSS modules the palette of the company colour, and follows a new colour at once', () => {
    document.documentElement.removeAttribute('style');
    const seen: { palettes?: Palettes; setColor?: (c: string) => void } = {};
    function Probe() {
      seen.palettes = { screen: usePalette(), print: usePrintPalette() };
      seen.setColor = useThemeColor().setColor;
      return null;
    }
    render(
      <ThemeProvider language="en">
        <Probe />
      </ThemeProvider>,
    );
    const root = document.documentElement.style;
    const first = brandPalettes(currentBrand, currentBrand.primaryColor);
    expect(seen.palettes).toEqual(first);
    expect(root.getPropertyValue('--sf-good')).toBe(first.screen.meaning.good);
    expect(root.getPropertyValue('--sf-good-strong')).toBe(first.screen.meaning.goodStrong);

    act(() => seen.setColor?.('#ff0000'));
    const red = brandPalettes(currentBrand, '#ff0000');
    expect(seen.palettes?.screen.power.pv).toBe(red.screen.power.pv);
    expect(seen.palettes?.print).toEqual(derivePalette('#ff0000', '#ffffff'));
    expect(root.getPropertyValue('--sf-bad')).toBe(red.screen.meaning.bad);
    expect(red.screen.meaning.bad).not.toBe(first.screen.meaning.bad);
  });

  describe('motion', () => {
    const matchMedia = window.matchMedia;
    afterEach(() => {
      window.matchMedia = matchMedia;
    });
    /** The system's reduced-motion setting, which `change` events then turn on or off. */
    function systemMotion(reduce: boolean) {
      const listeners = new Set<() => void>();
      const list = {
        matches: reduce,
        addEventListener: (_: string, l: () => void) => listeners.add(l),
        removeEventListener: (_: string, l: () => void) => listeners.delete(l),
      };
      window.matchMedia = vi.fn((query: string) =>
        query === '(prefers-reduced-motion: reduce)' ? list : matchMedia(query),
      ) as unknown as typeof window.matchMedia;
      return (next: boolean) => {
        list.matches = next;
        for (const l of listeners) l();
      };
    }
    function motionSeen() {
      const seen: { motion?: boolean } = {};
      function Probe() {
        seen.motion = theme.useToken().token.motion;
        return null;
      }
      render(
        <ThemeProvider language="en">
          <Probe />
        </ThemeProvider>,
      );
      return seen;
    }

    it('animates dialogs and popups for a user who did not ask for less motion', () => {
      systemMotion(false);
      expect(motionSeen().motion).toBe(true);
    });

    it('turns the animations off when the system asks for reduced motion, and follows a change of the setting', () => {
      const change = systemMotion(true);
      const seen = motionSeen();
      expect(seen.motion).toBe(false);
      act(() => change(false));
      expect(seen.motion).toBe(true);
    });
  });
});

describe("brandTheme: antd's status colours come from the palette", () => {
  const light = brands.find((b) => b.id === 'sunfleet')!;

  it.each([
    ['light', light],
    ['dark', defaultBrand],
  ] as const)('%s brand: a red company colour moves the error colour of tags and badges off its red', (_kind, brand) => {
    const standard = theme.getDesignToken(brandTheme(brand, '#00cc00'));
    const red = theme.getDesignToken(brandTheme(brand, '#ff0000'));
    expect(red.colorError).not.toBe(standard.colorError);
    // The palette's colour, shaded by the theme until it reads as text on its tag.
    expect(confusable(red.colorError, '#ff0000')).toBe(false);
    expect(confusable(standard.colorError, '#ff0000')).toBe(true);
    // …and the default colour's green "normal" is off #00cc00 too.
    expect(confusable(standard.colorSuccess, '#00cc00')).toBe(false);
  });
});

describe('brandTheme: readable text whatever the colour', () => {
  const light = brands.find((b) => b.id === 'sunfleet')!;
  const colours = ['#00cc00', '#1677ff', '#ffd700', '#ff4d4f', '#003366', '#00ffff', '#777777'];
  const cases = [defaultBrand, light].flatMap((brand) =>
    colours.map((colour) => [brand.dark ? 'dark' : 'light', colour, brand] as const),
  );

  it.each(cases)('%s brand with %s: every themed text reaches 4.5:1', (_kind, colour, brand) => {
    const config = brandTheme(brand, colour);
    const token = theme.getDesignToken(config);
    const components = config.components as {
      Button: { primaryColor: string; dangerColor: string };
      Menu: { darkItemSelectedColor: string; darkItemSelectedBg: string; itemSelectedColor: string };
      Tabs: { itemSelectedColor: string };
      Table: { colorTextDisabled: string };
    };
    const backgrounds = [token.colorBgLayout, token.colorBgContainer, token.colorBgElevated];
    const low: string[] = [];
    const need = (what: string, text: string, bg: string) => {
      const ratio = contrastRatio(text, bg);
      if (ratio < TEXT_CONTRAST) low.push(`${what} ${text} on ${bg}: ${ratio.toFixed(2)}`);
    };
    need('primary button text', components.Button.primaryColor, token.colorPrimary);
    need('selected dark menu item', components.Menu.darkItemSelectedColor, components.Menu.darkItemSelectedBg);
    // …and the title of the sub-menu holding it, on the dark menu's background.
    need('selected dark sub-menu', components.Menu.darkItemSelectedColor, '#141414');
    need('selected dark sub-menu', components.Menu.darkItemSelectedColor, '#001529');
    need('danger button text', components.Button.dangerColor, token.colorError);
    for (const bg of backgrounds) {
      need('link', token.colorLink, bg);
      need('secondary text', token.colorTextSecondary, bg);
      need('tertiary text', token.colorTextTertiary, bg);
      need('description', token.colorTextDescription, bg);
      need('placeholder', token.colorTextPlaceholder, bg);
      for (const status of ['colorError', 'colorSuccess', 'colorWarning', 'colorInfo'] as const) {
        need(status, token[status], bg);
        need(`${status} on its background`, token[status], flatten(token[`${status}Bg`], token.colorBgContainer));
      }
      need('selected menu item', components.Menu.itemSelectedColor, bg);
      need('selected tab', components.Tabs.itemSelectedColor, bg);
      need('empty table text', components.Table.colorTextDisabled, bg);
    }
    expect(low).toEqual([]);
  });
});

describe('brandTheme: worked out once per brand and colour', () => {
  it('gives the same theme object again (the shell, the sign-in pages and re-renders share it)', () => {
    const light = brands.find((b) => b.id === 'sunfleet')!;
    const first = brandTheme(light, '#1677ff');
    expect(brandTheme(light, '#1677ff')).toBe(first);
    expect(brandTheme(light, '#1677FF'.toLowerCase())).toBe(first);
    // Another colour or brand is its own theme; an invalid colour is the brand's own.
    expect(brandTheme(light, '#ff4d4f')).not.toBe(first);
    expect(brandTheme(defaultBrand, '#1677ff')).not.toBe(first);
    expect(brandTheme(light, 'nonsense')).toBe(brandTheme(light, light.primaryColor));
  });
});
