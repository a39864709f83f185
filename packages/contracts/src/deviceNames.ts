/**
 * The one source of what a device is called and what state it is shown in, in en and es: the
 * inverter type names (by type register value or type key), the states a device badge shows
 * (its status, or 'off' when it is powered off; the server derives it, in one SQL expression)
 * and their counts' schema, and the gateway connection names. Server texts
 * (lists, downloads) and every web page read them from here.
 */
import Type from 'typebox';
import type { Language } from './errors.ts';
import { inverterTypeKey } from './format.ts';
import { Literals } from './schemas.ts';

export interface DeviceName {
  en: string;
  es: string;
}

/** Inverter type key (`inverterTypeKey`) → name. A type register says the phases, not string or hybrid. */
export const inverterTypeNames = {
  sellingFirst: { en: 'Selling-first hybrid', es: 'Híbrido de venta prioritaria' },
  singlePhase: { en: 'Single-phase', es: 'Monofásico' },
  micro: { en: 'Micro-inverter', es: 'Microinversor' },
  threePhaseHighVoltage: { en: 'Three-phase high-voltage', es: 'Trifásico de alta tensión' },
  singlePhaseHighVoltage: { en: 'Single-phase high-voltage', es: 'Monofásico de alta tensión' },
  threePhaseLowVoltage: { en: 'Three-phase low-voltage', es: 'Trifásico de baja tensión' },
  singlePhaseOther: { en: 'Single-phase (other)', es: 'Monofásico (otro)' },
  threePhase: { en: 'Three-phase', es: 'Trifásico' },
  '--': { en: '--', es: '--' },
} as const satisfies Record<string, DeviceName>;
export type InverterTypeKeyName = keyof typeof inverterTypeNames;

/** An inverter's type name from its type key or its type register value (null: '--'). */
export function inverterTypeName(type: string | number | null | undefined, lan: Language): string {
  const key = typeof type === 'string' && type in inverterTypeNames ? type : inverterTypeKey(type);
  return inverterTypeNames[key as InverterTypeKeyName][lan];
}

/** What a device badge shows: its status, or 'off' while it is powered off (by command or at the device). */
export const deviceStates = ['normal', 'offline', 'warning', 'fault', 'upgrading', 'off'] as const;
export type DeviceStateName = (typeof deviceStates)[number];

export const deviceStateNames = {
  normal: { en: 'Normal', es: 'Normal' },
  offline: { en: 'Offline', es: 'Desconectado' },
  warning: { en: 'Warning', es: 'Advertencia' },
  fault: { en: 'Fault', es: 'Fallo' },
  upgrading: { en: 'Upgrading', es: 'Actualizando' },
  off: { en: 'Off', es: 'Apagado' },
} as const satisfies Record<DeviceStateName, DeviceName>;

/** A device's state (`deviceStates`): what its badge shows, what its lists filter and count by. */
export const DeviceState = Literals(deviceStates, {
  description: "its status, or 'off' while powered off (offline and upgrading first)",
});

/** Devices per state (and their total): every state's count, 0 when none. */
export const DeviceCounts = Type.Object({
  total: Type.Integer(),
  normal: Type.Integer(),
  offline: Type.Integer(),
  warning: Type.Integer(),
  fault: Type.Integer(),
  upgrading: Type.Integer(),
  off: Type.Integer({ description: 'powered off' }),
});

/** Gateway connection types and their names. */
export const commTypeNames = {
  wifi: { en: 'Wi-Fi', es: 'Wi-Fi' },
  ethernet: { en: 'Ethernet', es: 'Ethernet' },
  '4g': { en: '4G', es: '4G' },
  rs485: { en: 'RS-485', es: 'RS-485' },
} as const satisfies Record<string, DeviceName>;
export type CommTypeName = keyof typeof commTypeNames;
export const commTypes = Object.keys(commTypeNames) as CommTypeName[];

/** A connection type's name; a type without a name as it is, none as null. */
export function commTypeName(type: string | null | undefined, lan: Language): string | null {
  if (type === null || type === undefined || type === '') return null;
  return type in commTypeNames ? commTypeNames[type as CommTypeName][lan] : type;
}

/**
 * A gateway's protocol as lists and downloads show it: the one set for it (in stock), else the
 * protocols of the devices behind it, comma-separated; '--' when neither.
 */
export function gatewayProtocols(g: { protocol: string | null; protocols: readonly string[] }): string {
  if (g.protocol) return g.protocol;
  return g.protocols.length > 0 ? g.protocols.join(', ') : '--';
}
