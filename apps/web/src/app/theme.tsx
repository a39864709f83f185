/**
 * Theme: the host's brand (light or dark algorithm, brand colour) and, once signed in, the
 * company's theme colour (default #00cc00). Ant Design reads both through one
 * ConfigProvider; `useThemeColor().setColor` lets the shell apply the company colour. The palette
 * derived from the colour (chart series, status colours) reaches charts through `usePalette`,
 * antd's status tags and badges through the status tokens it seeds, and CSS modules as variables.
 * A user who asks the system for reduced motion gets dialogs, menus and popups without their
 * opening and closing animations.
 */
import { App as AntApp, ConfigProvider, type ThemeConfig, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { getStoredThemeColor, getStoredUser, storeThemeColor } from '../api/session.ts';
import { PaletteContext, type Palettes } from '../components/palette.ts';
import { contrastRatio, flatten, readableShade, TEXT_CONTRAST, textOn } from '../lib/colour.ts';
import { derivePalette, paletteCssVariables } from '../lib/palette.ts';
import { useReducedMotion } from '../lib/reducedMotion.ts';
import { type Brand, currentBrand } from './brands.ts';

interface ThemeColor {
  color: string;
  setColor(color: string): void;
  brand: Brand;
}
const ThemeColorContext = createContext<ThemeColor>({
  color: currentBrand.primaryColor,
  setColor: () => {},
  brand: currentBrand,
});
export const useThemeColor = () => useContext(ThemeColorContext);

const HEX = /^#[0-9a-f]{6}$/i;

/** Neutral side menu for dark brands (Ant Design's dark menu is navy). */
const darkChrome = {
  Layout: { siderBg: '#141414', triggerBg: '#1f1f1f' },
  Menu: { darkItemBg: '#141414', darkSubMenuItemBg: '#0c0c0c', darkPopupBg: '#1f1f1f' },
};

interface BrandLook {
  config: ThemeConfig;
  palettes: Palettes;
}
const looks = new WeakMap<Brand, Map<string, BrandLook>>();

/**
 * The theme and palettes of a brand with a primary colour, worked out once per brand and colour for
 * the page's life (the contrast search derives antd's tokens several times: a noticeable part of
 * the first render), so the shell, the sign-in pages and every re-render share one object.
 */
function brandLook(brand: Brand, color: string): BrandLook {
  const primary = HEX.test(color) ? color.toLowerCase() : brand.primaryColor;
  let byColour = looks.get(brand);
  if (!byColour) {
    byColour = new Map();
    looks.set(brand, byColour);
  }
  let look = byColour.get(primary);
  if (!look) {
    look = deriveBrandLook(brand, primary);
    byColour.set(primary, look);
  }
  return look;
}

/** The antd theme of a brand with a primary colour (status tokens seeded from its palette). */
export const brandTheme = (brand: Brand, color: string): ThemeConfig => brandLook(brand, color).config;
/** The palettes of a brand with a primary colour: series shaded for its chart background, and for white. */
export const brandPalettes = (brand: Brand, color: string): Palettes => brandLook(brand, color).palettes;

function deriveBrandLook(brand: Brand, primary: string): BrandLook {
  const algorithm = brand.dark ? theme.darkAlgorithm : theme.defaultAlgorithm;
  // Charts are drawn on cards: the container background.
  const chartBackground = theme.getDesignToken({ algorithm }).colorBgContainer;
  const palettes = { screen: derivePalette(primary, chartBackground), print: derivePalette(primary, '#ffffff') };
  const { good, warning, bad, info } = palettes.screen.meaning;
  const readable = readableColours(algorithm, {
    colorPrimary: primary,
    colorLink: primary,
    borderRadius: 6,
    colorSuccess: good,
    colorWarning: warning,
    colorError: bad,
    colorInfo: info,
  });
  return { palettes, config: deriveConfig(brand, algorithm, readable) };
}

function deriveConfig(brand: Brand, algorithm: Algorithm, readable: ReturnType<typeof readableColours>): ThemeConfig {
  return {
    algorithm,
    token: readable.token,
    components: {
      ...readable.components,
      ...(brand.dark ? { Layout: darkChrome.Layout, Menu: { ...readable.components.Menu, ...darkChrome.Menu } } : {}),
    },
  };
}

type Algorithm = typeof theme.defaultAlgorithm;
type StatusSeed = 'colorError' | 'colorSuccess' | 'colorWarning' | 'colorInfo';
type SeedKey = 'colorLink' | StatusSeed;
const seedKeys: readonly SeedKey[] = ['colorLink', 'colorError', 'colorSuccess', 'colorWarning', 'colorInfo'];
type Seed = { colorPrimary: string; colorLink: string; borderRadius: number } & Partial<Record<StatusSeed, string>>;

/**
 * Every text the theme colours reaches 4.5:1 against what it sits on, whatever the brand or company
 * colour: text on a primary or danger surface (buttons, the selected menu item) is white or black,
 * whichever reads better; coloured and secondary text (links, selected tabs and menu items,
 * descriptions, placeholders, status colours of tags and alerts) is shaded until it reads on the page, card and popup
 * backgrounds and on the light fills (tags, selected rows).
 */
export function readableColours(algorithm: Algorithm, seed: Seed) {
  const token = theme.getDesignToken({ algorithm, token: seed });
  const base = token.colorBgContainer;
  const backgrounds = [
    token.colorBgLayout,
    base,
    token.colorBgElevated,
    flatten(token.colorFillSecondary, base),
    flatten(token.controlItemBgActive, base),
  ];
  const shade = (colour: string) => readableShade(colour, backgrounds);
  // Link and status colours are seeds: the algorithm derives the shown colour from them, so a
  // seed is shaded a little further each round until the derived colour reads, also on its own
  // light background (status tags and alerts). Each shown colour follows only its own seed, so
  // one run of the algorithm (its map tokens; the alias tokens are not needed) checks every seed
  // still searching at once.
  const searches = seedKeys.map((key) => ({
    key,
    from: token[key],
    on: key === 'colorLink' ? backgrounds : [...backgrounds, flatten(token[`${key}Bg`], base)],
    min: TEXT_CONTRAST,
    found: null as { seed: string; shown: string } | null,
  }));
  for (;;) {
    const open = searches.filter((s) => !s.found && s.min < 21);
    if (!open.length) break;
    const candidates = Object.fromEntries(open.map((s) => [s.key, readableShade(s.from, s.on, s.min)]));
    const shown = algorithm({ ...theme.defaultSeed, ...seed, ...candidates });
    for (const s of open) {
      if (s.on.every((bg) => contrastRatio(shown[s.key], bg) >= TEXT_CONTRAST))
        s.found = { seed: candidates[s.key]!, shown: shown[s.key] };
      else s.min += 0.25;
    }
  }
  const readable = Object.fromEntries(searches.map((s) => [s.key, s.found ?? { seed: s.from, shown: token[s.key] }])) as Record<
    SeedKey,
    { seed: string; shown: string }
  >;
  // A shaded status seed would also shade its light background: that stays as first derived.
  const readableStatus = (key: StatusSeed) => ({
    [key]: readable[key].seed,
    [`${key}Bg`]: token[`${key}Bg`],
    [`${key}Border`]: token[`${key}Border`],
  });
  const link = readable.colorLink;
  const error = readable.colorError;
  const onPrimary = textOn(token.colorPrimary);
  const selected = shade(token.colorPrimary);
  return {
    token: {
      ...seed,
      colorLink: link.seed,
      ...readableStatus('colorError'),
      ...readableStatus('colorSuccess'),
      ...readableStatus('colorWarning'),
      ...readableStatus('colorInfo'),
      colorTextSecondary: shade(token.colorTextSecondary),
      colorTextTertiary: shade(token.colorTextTertiary),
      colorTextDescription: shade(token.colorTextDescription),
      colorTextPlaceholder: shade(token.colorTextPlaceholder),
    },
    components: {
      Button: { primaryColor: onPrimary, dangerColor: textOn(error.shown) },
      // The dark menu paints its selected item's text also on a selected sub-menu's title (on the
      // menu's own dark background): white text there, on the primary shaded until white reads.
      Menu: {
        darkItemSelectedColor: '#ffffff',
        darkItemSelectedBg: readableShade(token.colorPrimary, ['#ffffff']),
        itemSelectedColor: selected,
      },
      Tabs: { itemSelectedColor: selected },
      // The "no data" line of an empty table is drawn in the disabled colour, yet it is text to read.
      Table: { colorTextDisabled: shade(token.colorTextDisabled) },
    },
  };
}

/**
 * The page behind every screen takes the theme's layout colour (dark brands have dark pages); the
 * palette's meaning colours become CSS variables for the CSS modules.
 */
function BodyColours({ dark, meaning }: { dark: boolean; meaning: Record<string, string> }) {
  const { token } = theme.useToken();
  useEffect(() => {
    document.body.style.background = token.colorBgLayout;
    document.body.style.color = token.colorText;
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [token.colorBgLayout, token.colorText, dark]);
  useLayoutEffect(() => {
    for (const [name, colour] of Object.entries(meaning)) document.documentElement.style.setProperty(name, colour);
  }, [meaning]);
  return null;
}

export function ThemeProvider({ language, children }: { language: string; children: ReactNode }) {
  const brand = currentBrand;
  const [color, setColorState] = useState(() => (getStoredUser() && getStoredThemeColor()) || brand.primaryColor);
  const value = useMemo<ThemeColor>(
    () => ({
      color,
      brand,
      setColor: (next) => {
        storeThemeColor(next);
        setColorState(next);
      },
    }),
    [color],
  );
  const look = useMemo(() => brandLook(brand, color), [color]);
  const reducedMotion = useReducedMotion();
  const config = useMemo<ThemeConfig>(
    () => (reducedMotion ? { ...look.config, token: { ...look.config.token, motion: false } } : look.config),
    [look, reducedMotion],
  );
  const cssVariables = useMemo(() => paletteCssVariables(look.palettes.screen), [look]);
  return (
    <ThemeColorContext.Provider value={value}>
      <PaletteContext.Provider value={look.palettes}>
        <ConfigProvider theme={config} locale={dayjsLocale(language) === 'es' ? esES : enUS}>
          <BodyColours dark={brand.dark} meaning={cssVariables} />
          <AntApp>{children}</AntApp>
        </ConfigProvider>
      </PaletteContext.Provider>
    </ThemeColorContext.Provider>
  );
}

/** Date pickers format through dayjs: its locale follows the interface language (month names). */
function dayjsLocale(language: string): 'es' | 'en' {
  const lan = language.startsWith('es') ? 'es' : 'en';
  if (dayjs.locale() !== lan) dayjs.locale(lan);
  return lan;
}
