/**
 * Menu routes from the granted permission tree and the account: a route is kept when the caller
 * may open it (`access.ts`); the others are collected so that typing one shows the 403 page; a
 * catch-all 404 is appended. Pure functions, so the rule is tested without a browser.
 */
import { buttonsByPage, type GrantedPermission } from '@sunfleet/contracts';
import { matchPath } from 'react-router';
import { type CallerRights, mayOpen } from './access.ts';
import type { PageRoute } from './routes.tsx';

export function grantedNames(tree: readonly GrantedPermission[], out = new Set<string>()): Set<string> {
  for (const node of tree) {
    out.add(node.name);
    grantedNames(node.children, out);
  }
  return out;
}

/**
 * The routes the caller may open; a group the caller may not open goes with its children, and a
 * group without a page of its own goes when none of its menu entries is left (it would lead nowhere).
 */
export function filterRoutes(routes: readonly PageRoute[], caller: CallerRights): PageRoute[] {
  const kept: PageRoute[] = [];
  for (const route of routes) {
    if (!mayOpen(caller, route)) continue;
    if (!route.children) {
      kept.push(route);
      continue;
    }
    const children = filterRoutes(route.children, caller);
    if (!route.page && !children.some((c) => !c.hidden)) continue;
    kept.push({ ...route, children });
  }
  return kept;
}

export interface BuiltRoutes {
  /** The kept route tree (menu order), 404 last. */
  routes: PageRoute[];
  /** The table's other routes, flat: typed in, they show the 403 page. */
  forbidden: PageRoute[];
  /** Granted button names per page permission, for the `Permission` directive. */
  buttons: Record<string, string[]>;
  /** What `mayCall` needs: every granted name, and whether the account is read-only. */
  rights: CallerRights;
}

export function buildRoutes(
  table: readonly PageRoute[],
  tree: GrantedPermission[],
  notFound: PageRoute,
  readOnly = false,
  inCompany = true,
): BuiltRoutes {
  const rights: CallerRights = { granted: grantedNames(tree), readOnly, inCompany };
  const routes = filterRoutes(table, rights);
  const kept = new Set(flattenRoutes(routes).map((r) => r.path));
  return {
    routes: [...routes, notFound],
    forbidden: flattenRoutes(table).filter((r) => !kept.has(r.path)),
    buttons: buttonsByPage(tree),
    rights,
  };
}

/** Every route, parents before their children. */
export function flattenRoutes(routes: readonly PageRoute[], out: PageRoute[] = []): PageRoute[] {
  for (const route of routes) {
    out.push(route);
    if (route.children) flattenRoutes(route.children, out);
  }
  return out;
}

/** The first route a parent entry leads to: its first visible child with a page. */
export function firstPage(route: PageRoute): PageRoute | undefined {
  if (route.page) return route;
  for (const child of route.children ?? []) {
    if (child.hidden) continue;
    const page = firstPage(child);
    if (page) return page;
  }
  return undefined;
}

/** The route that renders `pathname` (the 404 route when nothing else matches). */
export function routeForPath(routes: readonly PageRoute[], pathname: string): PageRoute | undefined {
  const flat = flattenRoutes(routes);
  return flat.find((r) => r.path !== '*' && matchPath({ path: r.path, end: true }, pathname)) ?? flat.find((r) => r.path === '*');
}

/** The menu entry to highlight for a route, and the parent entries to open. */
export function menuSelection(
  routes: readonly PageRoute[],
  route: PageRoute | undefined,
): { selected: string[]; open: string[] } {
  if (!route) return { selected: [], open: [] };
  const key = route.menuKey ?? route.path;
  const open: string[] = [];
  const walk = (nodes: readonly PageRoute[], parents: string[]): boolean => {
    for (const node of nodes) {
      if (node.path === key) {
        open.push(...parents);
        return true;
      }
      if (node.children && walk(node.children, [...parents, node.path])) return true;
    }
    return false;
  };
  walk(routes, []);
  return { selected: [key], open };
}

/** The button permissions of a page. */
export function pageButtons(route: PageRoute | undefined, buttons: Record<string, string[]>): string[] {
  const page = route?.buttonsFrom ?? route?.permission;
  return page ? (buttons[page] ?? []) : [];
}
