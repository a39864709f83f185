/**
 * Signed power has one convention in every answer: grid + import / − export, battery + discharge /
 * − charge. The store keeps what the registers say (a samples column holds its field's register
 * value), so every reader turns a value into the convention here, with the one table below: day
 * curves and group power (`params.ts`, `groups.ts`), realtime field lists (`fields.ts`) and
 * operation data (`events/workdata`).
 */
import type { Language } from '@sunfleet/contracts';
import type { DeviceKind } from '../../db/schema.ts';

export type PowerFlow = 'grid' | 'battery';

/** What a register measures and how it reads against the convention (its value × sign). */
export interface SignedPower {
  flow: PowerFlow;
  sign: 1 | -1;
}

/**
 * Signed power fields by device kind and field key: the Sunfleet hybrids report grid power
 * + export (−1: turned around), meters + import, batteries + discharge.
 */
export const signedPower: Record<DeviceKind, Readonly<Record<string, SignedPower>>> = {
  inverter: {
    gridActivePower: { flow: 'grid', sign: -1 },
    gridPower: { flow: 'grid', sign: -1 },
    meterActivePower: { flow: 'grid', sign: 1 },
    meterPower: { flow: 'grid', sign: 1 },
    batteryPower: { flow: 'battery', sign: 1 },
  },
  battery: { power: { flow: 'battery', sign: 1 } },
  meter: { activePower: { flow: 'grid', sign: 1 } },
  weather: {},
};

/** The signed power a field of a device (or protocol) kind carries, if any. */
export function signedField(kind: string, key: string): SignedPower | undefined {
  const table = (signedPower as Partial<Record<string, Readonly<Record<string, SignedPower>>>>)[kind];
  return table && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A register's value in the convention (0 stays 0, never −0). */
export const inConvention = (value: number, sign: 1 | -1): number => (value === 0 ? 0 : sign * value);

/** The convention in words, as a name or a column header carries it. */
export const flowNote: Readonly<Record<PowerFlow, Readonly<Record<Language, string>>>> = {
  grid: { en: '+ import / − export', es: '+ importación / − exportación' },
  battery: { en: '+ discharge / − charge', es: '+ descarga / − carga' },
};

/** A field's name without its register's sign note ("Grid active power (+ export)" → "Grid active power"). */
export const withoutSignNote = (name: string) => name.replace(/\s*\((?:\+|−|-)[^)]*\)\s*$/u, '');

/** A signed field's name in the convention: "Grid active power (+ import / − export)". */
export const conventionName = (name: string, flow: PowerFlow, lan: Language) =>
  `${withoutSignNote(name)} (${flowNote[flow][lan]})`;
