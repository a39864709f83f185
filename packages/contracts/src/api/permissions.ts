/** Permission trees. */
import Type, { type TSchema } from 'typebox';
import { endpoint } from '../endpoint.ts';
import { LanQuery } from '../schemas.ts';

export interface PermissionTreeNode {
  name: string;
  type: 0 | 1;
  title: string;
  children: PermissionTreeNode[];
}
/** The catalogue is at most four levels deep; a bounded schema keeps the response serializer
 *  simple (no recursive $ref). */
function treeNode(depth: number): TSchema {
  return Type.Object({
    name: Type.String(),
    type: Type.Union([Type.Literal(0), Type.Literal(1)]),
    title: Type.String(),
    children: Type.Array(depth > 1 ? treeNode(depth - 1) : Type.Never(), depth > 1 ? {} : { maxItems: 0 }),
  });
}
export const PermissionTreeSchema = Type.Unsafe<PermissionTreeNode>(treeNode(5));

export const myPermissions = endpoint({
  method: 'GET',
  path: '/api/v1/permission',
  access: 'user',
  summary: 'The caller’s granted permission tree',
  query: LanQuery,
  data: Type.Array(PermissionTreeSchema),
});
export const customerPermissions = endpoint({
  method: 'GET',
  path: '/api/v1/permission/customer',
  access: 'user.producer',
  summary: 'Every permission a customer company can be granted',
  query: LanQuery,
  data: Type.Array(PermissionTreeSchema),
});
export const companyPermissions = endpoint({
  method: 'GET',
  path: '/api/v1/permission/company',
  access: 'company.role.list.view',
  summary: 'The permissions the caller’s company holds (what its roles may grant)',
  query: LanQuery,
  data: Type.Array(PermissionTreeSchema),
});
