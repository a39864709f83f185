import { grantedTree, type PermissionName, type PermissionNode, permissionTree } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { buildRoutes, filterRoutes, firstPage, flattenRoutes, menuSelection, pageButtons, routeForPath } from './buildRoutes.ts';
import { menuRoutes, notFoundRoute, type PageRoute } from './routes.tsx';

const paths = (routes: PageRoute[]) => flattenRoutes(routes).map((r) => r.path);
const rights = (names: string[], readOnly = false) => ({ granted: new Set(names), readOnly });
const treeOf = (names: string[]) => grantedTree(new Set(names), 'en');

/** A made-up permission name: these tables test the mechanism, not the catalogue. */
const p = (name: string) => name as PermissionName;

const table: PageRoute[] = [
  { path: '/a', titleKey: 'a', permission: p('a.view') },
  { path: '/b', titleKey: 'b', permission: p('b.view') },
  { path: '/hidden', titleKey: 'h', hidden: true },
  { path: '/hidden-with-permission', titleKey: 'h2', permission: p('never.granted'), hidden: true },
  { path: '/form', titleKey: 'f', permission: p('a.view'), hidden: true, action: { access: p('a.create'), writes: true } },
  {
    path: '/group',
    titleKey: 'g',
    permission: p('g.view'),
    children: [
      { path: '/group/x', titleKey: 'x', permission: p('x.view') },
      { path: '/group/y', titleKey: 'y', permission: p('y.view') },
    ],
  },
];

describe('filterRoutes', () => {
  it('keeps granted routes and hidden ones without a permission, drops the rest', () => {
    const kept = filterRoutes(table, rights(['a.view', 'g.view', 'y.view']));
    expect(paths(kept)).toEqual(['/a', '/hidden', '/group', '/group/y']);
  });

  it('a hidden page needs its permission too', () => {
    expect(paths(filterRoutes(table, rights(['never.granted'])))).toContain('/hidden-with-permission');
    expect(paths(filterRoutes(table, rights([])))).not.toContain('/hidden-with-permission');
  });

  it('a page that exists to make a call needs the call: granted, and not a read-only account when it writes', () => {
    expect(paths(filterRoutes(table, rights(['a.view'])))).not.toContain('/form');
    expect(paths(filterRoutes(table, rights(['a.view', 'a.create'])))).toContain('/form');
    expect(paths(filterRoutes(table, rights(['a.view', 'a.create'], true)))).not.toContain('/form');
  });

  it('drops a group whose own permission is missing, children and all', () => {
    expect(paths(filterRoutes(table, rights(['x.view'])))).toEqual(['/hidden']);
  });
});

describe('buildRoutes', () => {
  const tree = [
    {
      name: 'a.view',
      type: 0 as const,
      title: 'A',
      children: [{ name: 'a.create', type: 1 as const, title: 'Create', children: [] }],
    },
  ];

  it('appends the 404 route last and collects buttons per page', () => {
    const built = buildRoutes(table, tree, notFoundRoute);
    expect(paths(built.routes)).toEqual(['/a', '/hidden', '/form', '*']);
    expect(built.routes.at(-1)).toBe(notFoundRoute);
    expect(built.buttons).toEqual({ 'a.view': ['a.create'] });
  });

  it('lists the routes the caller may not open, for the 403 page', () => {
    expect(buildRoutes(table, tree, notFoundRoute).forbidden.map((r) => r.path)).toEqual([
      '/b',
      '/hidden-with-permission',
      '/group',
      '/group/x',
      '/group/y',
    ]);
    // The same grants on a read-only account: the writing form goes too.
    const readOnly = buildRoutes(table, tree, notFoundRoute, true);
    expect(paths(readOnly.routes)).toEqual(['/a', '/hidden', '*']);
    expect(readOnly.forbidden.map((r) => r.path)).toContain('/form');
    expect(readOnly.rights).toEqual({ granted: new Set(['a.view', 'a.create']), readOnly: true, inCompany: true });
  });

  it('the plant forms and account settings are not there for a read-only account, whatever it holds', () => {
    const all = (function collect(nodes: readonly PermissionNode[]): string[] {
      return nodes.flatMap((n) => [n.name, ...collect(n.children ?? [])]);
    })(permissionTree);
    const writer = buildRoutes(menuRoutes, treeOf(all), notFoundRoute);
    const reader = buildRoutes(menuRoutes, treeOf(all), notFoundRoute, true);
    for (const form of ['/plant-add', '/plants/edit/:id', '/edit']) {
      expect(paths(writer.routes)).toContain(form);
      expect(paths(reader.routes)).not.toContain(form);
      expect(reader.forbidden.map((r) => r.path)).toContain(form);
    }
    expect(paths(reader.routes)).toContain('/plants/overview/:id/:type');
  });

  it('an account without station.create has no plant-add page (typed: 403)', () => {
    const built = buildRoutes(menuRoutes, treeOf(['station.view', 'station.edit']), notFoundRoute);
    expect(paths(built.routes)).not.toContain('/plant-add');
    expect(built.forbidden.map((r) => r.path)).toContain('/plant-add');
    expect(paths(built.routes)).toContain('/plants/edit/:id');
  });

  it('an owner gets plants, devices and the energy hub but no admin menus', () => {
    const ownerNames = (function collect(nodes: readonly PermissionNode[]): string[] {
      return nodes.flatMap((n) => (n.owner ? [n.name, ...collect(n.children ?? [])] : []));
    })(permissionTree);
    const { routes } = buildRoutes(menuRoutes, treeOf(ownerNames), notFoundRoute);
    const visible = routes.filter((r) => !r.hidden).map((r) => r.path);
    expect(visible).toEqual(['/plants', '/device', '/energyHub', '/workdata/list']);
    expect(paths(routes)).toContain('/edit');
    expect(paths(routes)).not.toContain('/firmware/gate');
  });

  it('a platform administrator sees every menu', () => {
    const all = (function collect(nodes: readonly PermissionNode[]): string[] {
      return nodes.flatMap((n) => [n.name, ...collect(n.children ?? [])]);
    })(permissionTree);
    const { routes } = buildRoutes(menuRoutes, treeOf(all), notFoundRoute);
    expect(paths(routes)).toEqual([...paths(menuRoutes), '*']);
  });

  it('an operator holds every permission but no company: no Company menu, its pages typed are 403', () => {
    const all = (function collect(nodes: readonly PermissionNode[]): string[] {
      return nodes.flatMap((n) => [n.name, ...collect(n.children ?? [])]);
    })(permissionTree);
    const operator = buildRoutes(menuRoutes, treeOf(all), notFoundRoute, false, false);
    for (const page of ['/enterprise', '/enterprise/company', '/enterprise/user', '/enterprise/roles']) {
      expect(paths(operator.routes)).not.toContain(page);
      expect(operator.forbidden.map((r) => r.path)).toContain(page);
    }
    expect(paths(operator.routes)).toContain('/management/status');
    const admin = buildRoutes(menuRoutes, treeOf(all), notFoundRoute, false, true);
    expect(paths(admin.routes)).toContain('/enterprise/user');
  });

  it('a group none of whose menu entries is left is not in the menu (it would lead to the 404 page)', () => {
    const kept = filterRoutes(table, rights(['g.view']));
    expect(paths(kept)).not.toContain('/group');
    expect(paths(filterRoutes(table, rights(['g.view', 'y.view'])))).toContain('/group/y');
  });

  it('with no grants only hidden routes without a permission and the 404 remain', () => {
    const { routes } = buildRoutes(menuRoutes, [], notFoundRoute);
    expect(routes.every((r) => r.hidden)).toBe(true);
    expect(routes.map((r) => r.path)).toEqual([
      '/plants/overview/:id/:type',
      '/plants/transfers',
      '/plants/device/setting',
      '/edit',
      '/systemupdate',
      '*',
    ]);
  });
});

describe('navigation helpers', () => {
  const { routes, buttons } = buildRoutes(
    menuRoutes,
    treeOf(['station.view', 'station.create', 'equip.view', 'inverter.view', 'inverter.setting', 'event.view']),
    notFoundRoute,
  );

  it('highlights the plant entry on plant sub-pages and the inverter entry on device settings', () => {
    expect(menuSelection(routes, routeForPath(routes, '/plants/overview/12/1'))).toEqual({ selected: ['/plants'], open: [] });
    expect(menuSelection(routes, routeForPath(routes, '/plant-add')).selected).toEqual(['/plants']);
    expect(menuSelection(routes, routeForPath(routes, '/device/setting'))).toEqual({
      selected: ['/device/inverter'],
      open: ['/device'],
    });
    expect(menuSelection(routes, routeForPath(routes, '/plants/device/setting')).selected).toEqual(['/device/inverter']);
  });

  it('unknown paths fall to the 404 route', () => {
    expect(routeForPath(routes, '/firmware/gate')).toBe(notFoundRoute);
  });

  it('plant overview takes its buttons from the inverter page', () => {
    expect(pageButtons(routeForPath(routes, '/plants/overview/1/2'), buttons)).toEqual(['inverter.setting']);
    expect(pageButtons(routeForPath(routes, '/plants'), buttons)).toEqual(['station.create']);
  });

  it('a menu group leads to its first visible page', () => {
    const device = routes.find((r) => r.path === '/device')!;
    expect(firstPage(device)?.path).toBe('/device/inverter');
  });
});
