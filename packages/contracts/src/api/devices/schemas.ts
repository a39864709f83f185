/** Schema helpers the device contracts share (not part of the API). */
import Type, { type TProperties } from 'typebox';
import { Day, Id, Instant, Literals, Nullable } from '../../schemas.ts';
import { DeviceStatus, GatewayRef, PlantRef } from './common.ts';

export const W = (description = 'W') => Nullable(Type.Number({ description }));
export const Num = (description: string) => Nullable(Type.Number({ description }));
export const Wh = (description = 'Wh') => Type.Number({ description });

/** 1 ascending, 2 descending (as the plant list); device lists default to ascending. */
export const ListOrder = Type.Union([Type.Literal(1), Type.Literal(2)], { default: 1, description: '1 ascending, 2 descending' });
export const Sort = <const T extends readonly string[]>(values: T, fallback: T[number]) =>
  Literals(values, { default: fallback });

/** Filters every device list shares. `keyword` matches anywhere in the SN or the alias. */
export const deviceFilters = {
  plantId: Type.Optional(Id),
  gatewayId: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: 32, description: 'part of the SN or alias, case-insensitive' })),
};

export const DateQuery = Type.Object({ date: Type.Optional(Day) });
/**
 * A row of an SN-keyed device list: who it is and where (SN, alias, plant, gateway, protocol),
 * the kind's own figures, then its status and times.
 */
export function deviceListItem<Figures extends TProperties>(figures: Figures) {
  return Type.Object({
    id: Type.Integer(),
    sn: Type.String(),
    alias: Nullable(Type.String()),
    plant: Nullable(PlantRef),
    gateway: GatewayRef,
    protocol: Type.String(),
    ...figures,
    status: DeviceStatus,
    lastUpdate: Nullable(Instant),
    createdAt: Instant,
  });
}
