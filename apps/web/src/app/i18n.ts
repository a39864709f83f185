/**
 * react-i18next with the en and es catalogues (src/locales/{en,es}/index.ts). The language is
 * chosen before start (a change reloads the page, language.ts), so only its catalogue is loaded:
 * one chunk, fetched before the first render, not part of the entry. Error-code texts are not in
 * the catalogues: they come from the contracts' error catalogue (`codeText` in the API client).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setNumberLocale } from '../lib/format.ts';
import type en from '../locales/en/index.ts';
import { storedLanguage } from './language.ts';

/** A language's catalogue: its namespaces, each a nested object of texts. */
export type Catalogue = typeof en;
export type Namespace = keyof Catalogue;

const catalogues: Record<string, () => Promise<{ default: Catalogue }>> = {
  en: () => import('../locales/en/index.ts'),
  es: () => import('../locales/es/index.ts'),
};

/** The catalogue for a stored choice: its language part when offered ("es-ES" → es), else English. */
export function catalogueLanguage(language: string): string {
  const base = language.toLowerCase().split('-')[0] ?? '';
  return base in catalogues ? base : 'en';
}

/**
 * An i18n instance over a loaded catalogue (tests pass the catalogue they imported). `language`
 * stays as stored (the server is sent its own code for it, language.ts); texts come from the
 * catalogue of `catalogueLanguage(language)`, and numbers are written in that language too.
 */
export function createI18n(language: string, catalogue: Catalogue): I18n {
  const base = catalogueLanguage(language);
  setNumberLocale(base);
  const instance = i18next.createInstance();
  instance.use(initReactI18next).init({
    resources: { [base]: catalogue },
    lng: language,
    fallbackLng: base,
    ns: Object.keys(catalogue),
    defaultNS: 'common',
    fallbackNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** The app's i18n: the stored language's catalogue, loaded. */
export async function loadI18n(stored = storedLanguage()): Promise<I18n> {
  const catalogue = (await catalogues[catalogueLanguage(stored)]!()).default;
  return createI18n(stored, catalogue);
}
