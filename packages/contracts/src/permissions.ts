/**
 * The permission catalogue: a tree. Type 0 = menu or page; type 1 = a button
 * (an action) under its page. Every route declares one of these names (or 'public' /
 * 'user'); the server guard enforces it and the web shell builds menus and hides buttons
 * from the caller's granted tree.
 *
 * Who may hold a permission:
 * - `platform`: only the platform operator (system administrators) — firmware, products,
 *   customers, system gateways, versions.
 * - `owner`: end users (plant owners) get these.
 * - every permission may be granted to companies (through the customer type or per
 *   company) unless it is `platform`; company roles grant a subset of their company's.
 * - `view`: a read-only permission; read-only accounts get only these.
 */
export interface PermissionNode {
  name: string;
  type: 0 | 1;
  en: string;
  es: string;
  platform?: boolean;
  owner?: boolean;
  view?: boolean;
  children?: readonly PermissionNode[];
}

/** A node that carries, as a type only, its own name and its descendants' (`PermissionName` is their union). */
declare const names: unique symbol;
type Named<Names extends string> = PermissionNode & { readonly [names]?: Names };
type NamesIn<T> = T extends Named<infer N> ? N : never;

const menu = <const N extends string, const C extends readonly Named<string>[] = []>(
  name: N,
  en: string,
  es: string,
  flags: Partial<PermissionNode>,
  children?: C,
): Named<N | NamesIn<C[number]>> => ({ ...flags, name, type: 0, en, es, view: flags.view ?? true, children: children ?? [] });
const button = <const N extends string>(name: N, en: string, es: string, flags: Partial<PermissionNode> = {}): Named<N> => ({
  ...flags,
  name,
  type: 1,
  en,
  es,
});

const O = { owner: true } as const;
const P = { platform: true } as const;

const tree = [
  menu('station.view', 'Plants', 'Plantas', O, [
    button('station.create', 'Create plant', 'Crear planta', O),
    button('station.edit', 'Edit plant', 'Editar planta', O),
    button('station.delete', 'Delete plant', 'Eliminar planta', O),
    button('station.share', 'Share plant', 'Compartir planta', O),
    button('station.transfer', 'Transfer plant', 'Transferir planta', O),
    button('station.export', 'Export report', 'Exportar informe', { ...O, view: true }),
    button('station.gateway', 'Replace gateway', 'Reemplazar pasarela', O),
  ]),
  menu('equip.view', 'Devices', 'Dispositivos', O, [
    menu('gateway.view', 'Gateways', 'Pasarelas', O, [
      button('gateway.add', 'Add gateway', 'Añadir pasarela', O),
      button('gateway.unbind', 'Unbind gateway', 'Desvincular pasarela', O),
      button('gateway.upgrade', 'Upgrade gateway', 'Actualizar pasarela', O),
      button('gateway.restart', 'Restart gateway', 'Reiniciar pasarela', O),
      button('gateway.debug', 'Debug gateway', 'Depurar pasarela', {}),
      button('gateway.setting', 'Gateway settings', 'Ajustes de pasarela', O),
    ]),
    menu('inverter.view', 'Inverters', 'Inversores', O, [
      button('inverter.alias', 'Rename inverter', 'Renombrar inversor', O),
      button('inverter.delete', 'Delete inverter', 'Eliminar inversor', O),
      button('inverter.setting', 'Remote settings', 'Ajustes remotos', O),
      button('inverter.upgrade', 'Upgrade inverter', 'Actualizar inversor', O),
      button('inverter.boot', 'Power on/off', 'Encender/apagar', O),
      button('inverter.debug', 'Debug inverter', 'Depurar inversor', {}),
      button('inverter.export', 'Export events', 'Exportar eventos', { ...O, view: true }),
    ]),
    menu('battery.list.view', 'Batteries', 'Baterías', O, [button('battery.delete', 'Delete battery', 'Eliminar batería', O)]),
    menu('meter.view', 'Meters', 'Medidores', O, [
      button('meter.alias', 'Rename meter', 'Renombrar medidor', O),
      button('meter.delete', 'Delete meter', 'Eliminar medidor', O),
      button('meter.master', 'Set master meter', 'Establecer medidor principal', O),
    ]),
    menu('weather.view', 'Weather stations', 'Estaciones meteorológicas', O),
    menu('event.view', 'Events', 'Eventos', O, [
      button('event.export', 'Export events', 'Exportar eventos', { ...O, view: true }),
    ]),
  ]),
  menu('application.center', 'Energy programmes', 'Programas de energía', O, [
    menu('energyhub.view', 'Enrolment', 'Inscripción', O, [
      button('energyhub.enroll', 'Enrol', 'Inscribir', O),
      button('energyhub.unenroll', 'Unenrol', 'Cancelar inscripción', O),
      button('energyhub.event.cancel', 'Opt out of event', 'Excluirse del evento', O),
    ]),
  ]),
  menu('firmware.management', 'Firmware', 'Firmware', P, [
    menu('firmware.gateway.view', 'Gateway firmware', 'Firmware de pasarela', P, [
      button('firmware.gateway.edit', 'Edit gateway firmware', 'Editar firmware de pasarela', P),
    ]),
    menu('firmware.inverter.view', 'Inverter firmware', 'Firmware de inversor', P, [
      button('firmware.inverter.edit', 'Edit inverter firmware', 'Editar firmware de inversor', P),
      button('product.edit', 'Edit products', 'Editar productos', P),
    ]),
  ]),
  menu('workdata.view', 'Operation data', 'Datos de operación', O, [
    button('workdata.export', 'Export operation data', 'Exportar datos de operación', { ...O, view: true }),
  ]),
  menu('company.management', 'Company', 'Empresa', {}, [
    menu('company.info', 'Company information', 'Información de la empresa', {}, [
      button('company.info.edit', 'Edit company', 'Editar empresa', {}),
    ]),
    menu('company.user', 'Company users', 'Usuarios de la empresa', {}, [
      button('company.user.add', 'Add user', 'Añadir usuario', {}),
      button('company.user.edit', 'Edit user', 'Editar usuario', {}),
      button('company.user.delete', 'Delete user', 'Eliminar usuario', {}),
    ]),
    menu('company.role.list.view', 'Roles', 'Roles', {}, [
      button('company.role.add', 'Add role', 'Añadir rol', {}),
      button('company.role.edit', 'Edit role', 'Editar rol', {}),
      button('company.role.delete', 'Delete role', 'Eliminar rol', {}),
    ]),
  ]),
  menu('user.producer', 'Customers', 'Clientes', P, [
    menu('customer.list.view', 'Customer list', 'Lista de clientes', P, [
      button('customer.edit', 'Edit customer', 'Editar cliente', P),
      button('customer.delete', 'Delete customer', 'Eliminar cliente', P),
    ]),
    menu('customer.type.list.view', 'Customer types', 'Tipos de cliente', P, [
      button('customer.type.edit', 'Edit customer type', 'Editar tipo de cliente', P),
    ]),
  ]),
  // Companies read the maintenance log of the plants they reach; the function catalogue is the operator's.
  menu('logger.management', 'Logs', 'Registros', {}, [
    menu('logger.upgrade.record', 'Maintenance log', 'Registro de mantenimiento', {}, [
      button('logger.function.edit', 'Manage maintenance functions', 'Gestionar funciones de mantenimiento', P),
    ]),
  ]),
  menu('system.management', 'System', 'Sistema', P, [
    menu('sys.gateway.view', 'System gateways', 'Pasarelas del sistema', P, [
      button('sys.gateway.edit', 'Import and edit gateways', 'Importar y editar pasarelas', P),
    ]),
    menu('system.version', 'System versions', 'Versiones del sistema', P, [
      button('system.version.edit', 'Publish versions', 'Publicar versiones', P),
    ]),
  ]),
];

/** Every permission name of the catalogue, as a type: a route naming one that does not exist does not compile. */
export type PermissionName = NamesIn<(typeof tree)[number]>;
export const permissionTree: readonly PermissionNode[] = tree;

function flatten(
  nodes: readonly PermissionNode[],
  parent: string | null,
  out: Array<PermissionNode & { parent: string | null }>,
) {
  for (const node of nodes) {
    out.push({ ...node, parent });
    if (node.children) flatten(node.children, node.name, out);
  }
  return out;
}

export const allPermissions = flatten(permissionTree, null, []) as Array<
  PermissionNode & { name: PermissionName; parent: PermissionName | null }
>;
export const permissionNames: ReadonlySet<string> = new Set(allPermissions.map((p) => p.name));
export const permissionByName: ReadonlyMap<string, (typeof allPermissions)[number]> = new Map(
  allPermissions.map((p) => [p.name, p]),
);
/** A name read from storage or input is one of the catalogue's. */
export const isPermissionName = (name: string): name is PermissionName => permissionNames.has(name);

/** The granted tree: the catalogue pruned to `granted`, in one language. A child is kept only
 *  with its parent, so a granted button under an ungranted page is not shown. */
export interface GrantedPermission {
  name: string;
  type: 0 | 1;
  title: string;
  children: GrantedPermission[];
}

export function grantedTree(
  granted: ReadonlySet<string>,
  lan: 'en' | 'es',
  nodes: readonly PermissionNode[] = permissionTree,
): GrantedPermission[] {
  return nodes
    .filter((n) => granted.has(n.name))
    .map((n) => ({ name: n.name, type: n.type, title: n[lan], children: grantedTree(granted, lan, n.children ?? []) }));
}

/** Permissions an account kind may hold at most. */
export const platformPermissions = allPermissions.map((p) => p.name);
export const companyGrantable = allPermissions.filter((p) => !p.platform).map((p) => p.name);
export const ownerPermissions = allPermissions.filter((p) => p.owner).map((p) => p.name);
export const viewOnly = (names: Iterable<PermissionName>): PermissionName[] =>
  [...names].filter((n) => permissionByName.get(n)?.view);

/** Buttons (type 1) granted under each page, for the web's permission directive. */
export function buttonsByPage(tree: GrantedPermission[], out: Record<string, string[]> = {}): Record<string, string[]> {
  for (const node of tree) {
    if (node.type === 0) out[node.name] = node.children.filter((c) => c.type !== 0).map((c) => c.name);
    buttonsByPage(node.children, out);
  }
  return out;
}
