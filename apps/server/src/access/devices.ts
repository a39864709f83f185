/**
 * Which gateways and devices a caller can see or operate, built on the plant scopes
 * (scopes.ts): a gateway or device bound to a plant follows that plant (see the plant, see its
 * gateways and devices; operate the plant, rename or remove its devices).
 *
 * An unbound gateway (no plant: in stock, or freed by an unbind or a plant deletion) and the
 * devices behind it belong to whoever holds the gateway: the company it was imported for
 * (`gateways.company_id`: its administrator and users see it, and operate it unless read-only),
 * the agent of that company (an agent acts for the customers it serves) and the system
 * administrators. Nobody else: an end user sees a gateway only through a plant,
 * so the previous owner of an unbound gateway no longer sees it. Once bound, the gateway
 * follows the plant only: the importing company keeps no view into a plant it has no reach to.
 *
 * Deleted gateways and devices are never visible here.
 */

import type { PermissionName } from '@sunfleet/contracts';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database, DeviceKind } from '../db/schema.ts';
import { type Caller, can } from './caller.ts';
import { companiesServedBy, plantsOperable, plantsVisible } from './scopes.ts';

type Need = 'view' | 'edit';
/**
 * How the plant scope is phrased. 'in': `plant_id in (visible plants)`, which lets the planner
 * start from the caller's plants (fast when they are few: an owner). 'exists': a correlated
 * check per device or gateway row, which lets the planner walk a sort index and stop at the
 * page, or look one object up by key (fast whatever the caller reaches: a large installer).
 * Both mean the same.
 */
export type ScopeForm = 'in' | 'exists';

const inCompany = (caller: Caller) =>
  (caller.user.kind === 'company_admin' || caller.user.kind === 'company_user') && caller.user.company_id !== null;

/** Whether the caller holds unbound gateways: system administrators and company accounts (not read-only to edit). */
function holdsUnbound(caller: Caller, need: Need) {
  if (need === 'edit' && caller.user.read_only) return false;
  return caller.user.kind === 'sysadmin' || inCompany(caller);
}

type PlantColumn = 'devices.plant_id' | 'gateways.plant_id';

/** The row's plant is one the caller can see (or operate). */
function inPlants<TB extends 'devices' | 'gateways'>(
  eb: ExpressionBuilder<Database, TB>,
  column: PlantColumn,
  caller: Caller,
  need: Need,
  form: ScopeForm,
): Expression<SqlBool> {
  const e = eb as unknown as ExpressionBuilder<Database, 'devices' | 'gateways'>;
  const scope = (p: ExpressionBuilder<Database, 'plants'>) =>
    need === 'edit' ? plantsOperable(p, caller) : plantsVisible(p, caller);
  if (form === 'exists') {
    return e.exists(
      e
        .selectFrom('plants')
        .select(sql.lit(1).as('one'))
        .whereRef('plants.id', '=', column)
        .where((p) => scope(p as unknown as ExpressionBuilder<Database, 'plants'>)),
    );
  }
  return e(
    column,
    'in',
    e
      .selectFrom('plants')
      .select('plants.id')
      .where((p) => scope(p as unknown as ExpressionBuilder<Database, 'plants'>)),
  );
}

/** Gateways the caller can see (`need` 'view') or operate ('edit'). `.where((eb) => gatewaysInScope(eb, caller))`. */
export function gatewaysInScope(
  eb: ExpressionBuilder<Database, 'gateways'>,
  caller: Caller,
  need: Need = 'view',
  form: ScopeForm = 'exists',
): Expression<SqlBool> {
  const alive = eb('gateways.deleted_at', 'is', null);
  if (need === 'edit' && caller.user.read_only) return eb.and([alive, sql<boolean>`1 = 0`]);
  if (caller.user.kind === 'sysadmin') return alive;
  const reach: Expression<SqlBool>[] = [inPlants(eb, 'gateways.plant_id', caller, need, form)];
  if (holdsUnbound(caller, need)) {
    reach.push(
      eb.and([
        eb('gateways.plant_id', 'is', null),
        eb('gateways.company_id', 'in', companiesServedBy(eb, caller.user.company_id!)),
      ]),
    );
  }
  return eb.and([alive, eb.or(reach)]);
}

/** Devices the caller can see or operate (on `devices`; deleted ones never). */
export function devicesInScope(
  eb: ExpressionBuilder<Database, 'devices'>,
  caller: Caller,
  need: Need = 'view',
  form: ScopeForm = 'exists',
): Expression<SqlBool> {
  const alive = eb('devices.deleted_at', 'is', null);
  if (need === 'edit' && caller.user.read_only) return eb.and([alive, sql<boolean>`1 = 0`]);
  if (caller.user.kind === 'sysadmin') return alive;
  const reach: Expression<SqlBool>[] = [inPlants(eb, 'devices.plant_id', caller, need, form)];
  if (holdsUnbound(caller, need)) {
    const companyGateways = eb
      .selectFrom('gateways')
      .select('gateways.id')
      .where('gateways.plant_id', 'is', null)
      .where('gateways.deleted_at', 'is', null)
      .where('gateways.company_id', 'in', companiesServedBy(eb, caller.user.company_id!));
    reach.push(eb.and([eb('devices.plant_id', 'is', null), eb('devices.gateway_id', 'in', companyGateways)]));
  }
  return eb.and([alive, eb.or(reach)]);
}

/** Shorthands for `.where((eb) => devicesVisible(eb, caller))`. */
export const devicesVisible = (eb: ExpressionBuilder<Database, 'devices'>, caller: Caller, form: ScopeForm = 'exists') =>
  devicesInScope(eb, caller, 'view', form);
export const devicesOperable = (eb: ExpressionBuilder<Database, 'devices'>, caller: Caller) => devicesInScope(eb, caller, 'edit');
export const gatewaysVisible = (eb: ExpressionBuilder<Database, 'gateways'>, caller: Caller, form: ScopeForm = 'exists') =>
  gatewaysInScope(eb, caller, 'view', form);
export const gatewaysOperable = (eb: ExpressionBuilder<Database, 'gateways'>, caller: Caller) =>
  gatewaysInScope(eb, caller, 'edit');

/**
 * The scope form for a list: 'in' when the caller reaches few plants (the planner starts from
 * them), 'exists' otherwise (the planner walks the list's order and stops at the page).
 */
export const listScopeForm = (visiblePlants: number): ScopeForm => (visiblePlants <= FEW_PLANTS ? 'in' : 'exists');
export const FEW_PLANTS = 200;

/** The permission that deletes a device of each kind (weather stations are not deleted). */
const deletePermission: Record<DeviceKind, PermissionName | null> = {
  inverter: 'inverter.delete',
  battery: 'battery.delete',
  meter: 'meter.delete',
  weather: null,
};

/**
 * 1 when the caller operates the list row's device, else 0: select it beside a row of `devices`
 * (`deviceOperableFlag(eb, caller).as('operable')`) and read it with `deviceRowRights`.
 */
export const deviceOperableFlag = (eb: ExpressionBuilder<Database, 'devices'>, caller: Caller) =>
  eb.case().when(devicesOperable(eb, caller)).then(1).else(0).end();
/** As `deviceOperableFlag`, beside a row of `gateways`. */
export const gatewayOperableFlag = (eb: ExpressionBuilder<Database, 'gateways'>, caller: Caller) =>
  eb.case().when(gatewaysOperable(eb, caller)).then(1).else(0).end();

/**
 * What the caller may do to a device a list shows: `canEdit`, operate it (rename, settings,
 * commands: not a visitor of its plant, not a read-only account; each button still needs its own
 * permission); `canDelete`, remove it (operate it, and hold the kind's delete permission).
 */
export function deviceRowRights(caller: Caller, kind: DeviceKind, operable: unknown): { canEdit: boolean; canDelete: boolean } {
  const canEdit = Number(operable) === 1;
  const permission = deletePermission[kind];
  return { canEdit, canDelete: canEdit && permission !== null && can(caller, permission) };
}
