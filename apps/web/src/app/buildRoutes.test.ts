import { grantedTree, type PermissionName, type PermissionNode, permissionTree } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import { buildRoutes, filterRoutes, firstPage, flattenRoutes, menuSelection, pageButtons, routeForPath } from './buildRoutes.ts';
import { menuRoutes, notFoundRoute, type PageRoute } from './routes.tsx';

const paths = (routes: PageRoute[]) => flattenRoutes(routes).map((r) => r.path);
const treeOf = (names: string[]) => grantedTree(new Set(names), 'en');

/** A made-up permission name: these tables test the mechanism, not the catalogue. */
const p = (name: string) => name as PermissionName;

const table: PageRoute[] = [
  { path: '/a', titleKey: 'a', permission: p('a.view') },
  { path: '/b', titleKey: 'b', permission: p('b.view') },
  { path: '/hidden', titleKey: 'h', hidden: true },
  { path: '/hidden-with-permission', titleKey: 'h2', permission: p('never.granted'), hidden: true },
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
  it('keeps granted and hidden routes and drops the rest', () => {
    const kept = filterRoutes(table, new Set(['a.view', 'g.view', 'y.view']));
    expect(paths(kept)).toEqual(['/a', '/hidden', '/hidden-with-permission', '/group', '/group/y']);
  });

  it('drops a group whose own permission is missing, children and all', () => {
    expect(paths(filterRoutes(table, new Set(['x.view'])))).toEqual(['/hidden', '/hidden-with-permission']);
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
    expect(paths(built.routes)).toEqual(['/a', '/hidden', '/hidden-with-permission', '*']);
    expect(built.routes.at(-1)).toBe(notFoundRoute);
    expect(built.buttons).toEqual({ 'a.view': ['a.create'] });
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

  it('with no grants only hidden routes and the 404 remain', () => {
    const { routes } = buildRoutes(menuRoutes, [], notFoundRoute);
    expect(routes.every((r) => r.hidden)).toBe(true);
    expect(routes.map((r) => r.path)).toEqual([
      '/plant-add',
      '/plants/overview/:id/:type',
      '/plants/edit/:id',
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
