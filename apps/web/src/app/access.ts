/**
 * May this caller use this page or button — the web's one rule, the server's three checks read
 * from the same contracts:
 *
 * 1. the call's permission (`endpoint.access`) is in the caller's granted tree;
 * 2. a call that writes (`endpoint.writes`) is not for a read-only account;
 * 3. on one plant or device, the right the server returned for that object (`canEdit`,
 *    `canManage`, `canDelete`): a visitor of a plant may look at it, not change it.
 *
 * A page about the caller's own company (`ownCompany`) is only for an account of a company: an
 * operator holds every permission but belongs to no company, and the server refuses them there.
 *
 * A button names the endpoint it calls; a page that exists to make one call (a form) names it as
 * its `action` in the route table. Pure functions, so the rule is tested without a browser.
 */
import type { Endpoint, PermissionName } from '@sunfleet/contracts';
import { permits } from '@sunfleet/contracts';
import type { PageRoute } from './routes.tsx';

export interface CallerRights {
  /** Every permission name in the caller's granted tree (pages and buttons). */
  granted: ReadonlySet<string>;
  /** A read-only account: it looks, it never writes. */
  readOnly: boolean;
  /**
   * An account of a company (its administrator or a user); an operator or an owner is in none.
   * The shell always says; left out, the account is taken as in one.
   */
  inCompany?: boolean;
}

/** What a call's rule needs from its contract. */
export type CallRule = Pick<Endpoint, 'access' | 'writes'>;

/**
 * May the caller make this call: granted, not a write by a read-only account, and — on one object —
 * the right the server returned for it (`undefined` when the call names no object).
 */
export function mayCall(caller: CallerRights, call: CallRule, objectRight?: boolean): boolean {
  if (objectRight === false) return false;
  if (call.writes && caller.readOnly) return false;
  return permits(call.access, caller.granted as ReadonlySet<PermissionName>);
}

/**
 * May the caller open this route: its page permission is granted (a hidden page may have none),
 * for a page that exists to make one call (`action`), the caller may make that call, and a page
 * about the caller's own company needs one.
 */
export function mayOpen(caller: CallerRights, route: PageRoute): boolean {
  if (route.ownCompany && caller.inCompany === false) return false;
  if (route.permission !== undefined && !caller.granted.has(route.permission)) return false;
  if (route.permission === undefined && !route.hidden) return false;
  return route.action ? mayCall(caller, route.action) : true;
}
