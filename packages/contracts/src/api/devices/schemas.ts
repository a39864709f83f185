/** Schema helpers the device contracts share (not part of the API). */
import Type, { type TProperties } from 'typebox';
import { endpoint, PageQuery } from '../../endpoint.ts';
import { ErrorCode } from '../../errors.ts';
import { limits } from '../../limits.ts';
import { Day, Id, Instant, Literals, Nothing, Nullable, SnParams } from '../../schemas.ts';
import { AliasInput, AliasResult, DeviceState, DeviceStatus, GatewayRef, PlantRef } from './common.ts';

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

/**
 * A device list's query: a page, the kind's filters (by default the shared ones), a state (`status`:
 * as the badges show it, 'off' for powered off), a sort (default SN) and an order.
 */
export function deviceListQuery<const Sorts extends readonly string[], Filters extends TProperties = typeof deviceFilters>(
  sorts: Sorts,
  filters: Filters = deviceFilters as unknown as Filters,
) {
  return Type.Object({
    ...PageQuery,
    ...filters,
    status: Type.Optional(DeviceState),
    sort: Type.Optional(Sort(sorts, 'sn')),
    order: Type.Optional(ListOrder),
  });
}

export const DateQuery = Type.Object({ date: Type.Optional(Day) });
/** Who a device on a detail page is and where: id, SN, alias, status, state (as its badge shows), plant, gateway, protocol (id and name). */
export function deviceIdentity() {
  return {
    id: Type.Integer(),
    sn: Type.String(),
    alias: Nullable(Type.String()),
    status: DeviceStatus,
    state: DeviceState,
    plant: Nullable(PlantRef),
    gateway: GatewayRef,
    protocol: Type.Object({ id: Type.String(), name: Type.String() }),
  };
}

/** What the caller may do to a listed device, worked out by the server per row. */
export const deviceRowRights = {
  canEdit: Type.Boolean({
    description: 'operate it: rename, settings, commands, each with its button permission (not a visitor, not read-only)',
  }),
  canDelete: Type.Boolean({ description: 'delete it: operate it and hold the kind’s delete permission' }),
};

/**
 * A row of an SN-keyed device list: who it is and where (SN, alias, plant, gateway, protocol),
 * the kind's own figures, its status as stored and its state as its badge shows it, its times,
 * and what the caller may do to it.
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
    state: DeviceState,
    lastUpdate: Nullable(Instant),
    createdAt: Instant,
    ...deviceRowRights,
  });
}

/**
 * Renaming a device of `kind` (alias ≤ the alias limit in bytes; empty clears it) and removing it
 * from the lists (its history stays; it comes back if it sends data again), both with edit
 * rights on its plant. `missing` is the code an unknown or foreign SN answers.
 */
export function aliasAndDelete<const Kind extends 'inverter' | 'meter', const Missing extends number>(
  kind: Kind,
  noun: string,
  missing: Missing,
) {
  return {
    alias: endpoint({
      method: 'POST',
      path: `/api/v1/${kind}/:sn/alias`,
      access: `${kind}.alias`,
      writes: true,
      summary: `Rename ${noun} (alias ≤ ${limits.deviceAliasBytes} bytes; empty clears it); needs edit rights on its plant`,
      params: SnParams,
      body: AliasInput,
      data: AliasResult,
      tolerate: [ErrorCode.validation, missing],
    }),
    remove: endpoint({
      method: 'POST',
      path: `/api/v1/${kind}/:sn/delete`,
      access: `${kind}.delete`,
      writes: true,
      summary: `Remove ${noun} from the lists (history stays; it comes back if it sends data again); needs edit rights on its plant`,
      params: SnParams,
      data: Nothing,
      tolerate: [missing],
    }),
  };
}
