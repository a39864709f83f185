/**
 * Dictionaries: currencies and time zones from the runtime's Intl data (the same
 * lists the plant rules accept), plant types, and the protocols the server decodes.
 */
import { dictsApi, type Language } from '@sunfleet/contracts';
import { listProtocols } from '@sunfleet/protocols';
import { zonesWithOffsets } from '../../time/index.ts';

const currencyCache = new Map<Language, Array<{ code: string; name: string; symbol: string }>>();

export function currencies(lan: Language) {
  let list = currencyCache.get(lan);
  if (!list) {
    const names = new Intl.DisplayNames([lan], { type: 'currency' });
    list = Intl.supportedValuesOf('currency').map((code) => {
      const symbol =
        new Intl.NumberFormat(lan, { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' })
          .formatToParts(0)
          .find((p) => p.type === 'currency')?.value ?? code;
      return { code, name: names.of(code) ?? code, symbol };
    });
    currencyCache.set(lan, list);
  }
  return list;
}

/** Every zone a plant may have, with its offset now, west to east. */
export const timezones = (at = Date.now()) => zonesWithOffsets(at);

export const plantTypes = (lan: Language) =>
  Object.entries(dictsApi.plantTypeNames).map(([value, names]) => ({ value: Number(value), name: names[lan] }));

export const protocols = (lan: Language) =>
  listProtocols().map((p) => ({ id: p.id, name: p.name[lan], kind: p.kind, version: p.version }));
