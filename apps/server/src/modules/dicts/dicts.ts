/**
 * Dictionaries: currencies and time zones from the runtime's Intl data (the same
 * lists the plant rules accept), plant types, and the protocols the server decodes.
 */
import { dictsApi, type Language } from '@sunfleet/contracts';
import { listProtocols } from '@sunfleet/protocols';
import { knownTimezones } from '../plants/local-day.ts';

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

/** "+05:30" → 330; "GMT" (no offset) → 0. */
function offsetMinutes(timeZone: string, at: number): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = name.match(/([+-])(\d{2}):(\d{2})/);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const formatOffset = (minutes: number) => {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

// Offsets change at DST transitions, which fall on whole quarter hours: a quarter-hour cache is exact.
let zoneCache: { slot: number; list: Array<{ id: string; offset: string; offsetMinutes: number }> } | null = null;

export function timezones(at = Date.now()) {
  const slot = Math.floor(at / 900_000);
  if (zoneCache?.slot !== slot) {
    const list = knownTimezones.map((id) => {
      const minutes = offsetMinutes(id, at);
      return { id, offset: formatOffset(minutes), offsetMinutes: minutes };
    });
    list.sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.id.localeCompare(b.id));
    zoneCache = { slot, list };
  }
  return zoneCache.list;
}

export const plantTypes = (lan: Language) =>
  Object.entries(dictsApi.plantTypeNames).map(([value, names]) => ({ value: Number(value), name: names[lan] }));

export const protocols = (lan: Language) =>
  listProtocols().map((p) => ({ id: p.id, name: p.name[lan], kind: p.kind, version: p.version }));
