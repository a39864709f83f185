/**
 * The contracts' device names (deviceNames.ts) in the interface language, for every page that
 * names a device's state: the device pages, the plant overview, the settings page.
 */
import { type DeviceStateName, deviceStateNames, type Language } from '@sunfleet/contracts';

/** The contracts' language of an interface language (their names are in en and es). */
export const namesLanguage = (language: string): Language => (language.toLowerCase().startsWith('es') ? 'es' : 'en');

/** The name of a device state (its status, or off) from the contracts. */
export const stateName = (state: DeviceStateName, language: string) => deviceStateNames[state][namesLanguage(language)];
