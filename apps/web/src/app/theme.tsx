/**
 * Theme: the host's brand (light or dark algorithm, brand colour) and, once signed in, the
 * company's theme colour (default #00cc00). Ant Design reads both through one
 * ConfigProvider; `useThemeColor().setColor` lets the shell apply the company colour.
 */
import { App as AntApp, ConfigProvider, type ThemeConfig, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { createContext, type ReactNode, useContext, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { getStoredThemeColor, getStoredUser, storeThemeColor } from '../api/session.ts';
import { paletteCssVariables } from '../lib/palette.ts';
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

export function brandTheme(brand: Brand, color: string): ThemeConfig {
  const primary = HEX.test(color) ? color : brand.primaryColor;
  return {
    algorithm: brand.dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary: primary, colorLink: primary, borderRadius: 6 },
    ...(brand.dark ? { components: darkChrome } : {}),
  };
}

/**
 * The page behind every screen takes the theme's layout colour (dark brands have dark pages); the
 * palette's meaning colours become CSS variables for the CSS modules.
 */
function BodyColours({ dark }: { dark: boolean }) {
  const { token } = theme.useToken();
  useEffect(() => {
    document.body.style.background = token.colorBgLayout;
    document.body.style.color = token.colorText;
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [token.colorBgLayout, token.colorText, dark]);
  useLayoutEffect(() => {
    for (const [name, colour] of Object.entries(paletteCssVariables)) document.documentElement.style.setProperty(name, colour);
  }, []);
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
  return (
    <ThemeColorContext.Provider value={value}>
      <ConfigProvider theme={brandTheme(brand, color)} locale={dayjsLocale(language) === 'es' ? esES : enUS}>
        <BodyColours dark={brand.dark} />
        <AntApp>{children}</AntApp>
      </ConfigProvider>
    </ThemeColorContext.Provider>
  );
}

/** Date pickers format through dayjs: its locale follows the interface language (month names). */
function dayjsLocale(language: string): 'es' | 'en' {
  const lan = language.startsWith('es') ? 'es' : 'en';
  if (dayjs.locale() !== lan) dayjs.locale(lan);
  return lan;
}
