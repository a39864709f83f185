/**
 * react-i18next with the en and es catalogues (src/locales). Error-code texts are not in the
 * catalogues: they come from the contracts' error catalogue (`codeText` in the API client).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enAccount from '../locales/en/account.json';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enDevices from '../locales/en/devices.json';
import enEvents from '../locales/en/events.json';
import enMenu from '../locales/en/menu.json';
import enOverview from '../locales/en/overview.json';
import enPages from '../locales/en/pages.json';
import enPlants from '../locales/en/plants.json';
import enWorkdata from '../locales/en/workdata.json';
import esAccount from '../locales/es/account.json';
import esAuth from '../locales/es/auth.json';
import esCommon from '../locales/es/common.json';
import esDevices from '../locales/es/devices.json';
import esEvents from '../locales/es/events.json';
import esMenu from '../locales/es/menu.json';
import esOverview from '../locales/es/overview.json';
import esPages from '../locales/es/pages.json';
import esPlants from '../locales/es/plants.json';
import esWorkdata from '../locales/es/workdata.json';
import { storedLanguage } from './language.ts';

export const resources = {
  en: {
    common: enCommon,
    auth: enAuth,
    account: enAccount,
    menu: enMenu,
    pages: enPages,
    plants: enPlants,
    overview: enOverview,
    devices: enDevices,
    events: enEvents,
    workdata: enWorkdata,
  },
  es: {
    common: esCommon,
    auth: esAuth,
    account: esAccount,
    menu: esMenu,
    pages: esPages,
    plants: esPlants,
    overview: esOverview,
    devices: esDevices,
    events: esEvents,
    workdata: esWorkdata,
  },
} as const;
export const namespaces = Object.keys(resources.en) as Array<keyof typeof resources.en>;

export function createI18n(language = storedLanguage()): I18n {
  const instance = i18next.createInstance();
  instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    ns: namespaces,
    defaultNS: 'common',
    fallbackNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
