/**
 * The palette of the company colour as the theme provides it (app/theme.tsx): `usePalette` for the
 * screen (series shaded for the brand's chart background), `usePrintPalette` for what is drawn on
 * white (the PDF). Without a theme provider (tests), the default company colour on white.
 */
import { defaultThemeColor } from '@sunfleet/contracts';
import { createContext, useContext } from 'react';
import { derivePalette, type Palette } from '../lib/palette.ts';

export interface Palettes {
  screen: Palette;
  print: Palette;
}

const onWhite = derivePalette(defaultThemeColor, '#ffffff');
export const PaletteContext = createContext<Palettes>({ screen: onWhite, print: onWhite });

export const usePalette = (): Palette => useContext(PaletteContext).screen;
export const usePrintPalette = (): Palette => useContext(PaletteContext).print;
