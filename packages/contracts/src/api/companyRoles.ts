/** Company roles: at most 5 per company, names unique in the company. */
import Type from 'typebox';
import { endpoint } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { IdParams, Nothing } from '../schemas.ts';
import { safeTextPattern } from '../validation.ts';

export const CompanyRole = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  permissions: Type.Array(Type.String()),
  users: Type.Integer({ description: 'company users holding this role' }),
  createdAt: Type.String({ format: 'date-time' }),
});

const RoleInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 32, pattern: safeTextPattern }),
    permissions: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 }),
  },
  { additionalProperties: false },
);

export const listRoles = endpoint({
  method: 'GET',
  path: '/api/v1/company/roles',
  access: 'company.role.list.view',
  summary: `The roles of the caller's company (at most ${limits.rolesPerCompany})`,
  data: Type.Array(CompanyRole),
});

export const checkRole = endpoint({
  method: 'GET',
  path: '/api/v1/company/role/check',
  access: 'company.role.list.view',
  summary: 'Whether a role name is free in the company: 801 if taken (id: the role being edited)',
  query: Type.Object({ name: Type.String({ minLength: 1, maxLength: 32 }), id: Type.Optional(Type.Integer()) }),
  data: Nothing,
  tolerate: [ErrorCode.roleExists],
});

export const getRole = endpoint({
  method: 'GET',
  path: '/api/v1/company/role/:id',
  access: 'company.role.list.view',
  summary: 'One role of the caller’s company',
  params: IdParams,
  data: CompanyRole,
});

export const addRole = endpoint({
  method: 'POST',
  path: '/api/v1/company/role',
  access: 'company.role.add',
  writes: true,
  encoding: 'json',
  summary: 'Add a role; 800 when the company has 5, 801 when the name is taken',
  body: RoleInput,
  data: CompanyRole,
  tolerate: [ErrorCode.roleLimit, ErrorCode.roleExists],
});

export const editRole = endpoint({
  method: 'POST',
  path: '/api/v1/company/role/:id',
  access: 'company.role.edit',
  writes: true,
  encoding: 'json',
  summary: 'Rename a role or change its permissions; 803 for the caller’s own role',
  params: IdParams,
  body: RoleInput,
  data: CompanyRole,
  tolerate: [ErrorCode.roleExists, ErrorCode.ownRoleLocked],
});

export const deleteRole = endpoint({
  method: 'POST',
  path: '/api/v1/company/role/:id/delete',
  access: 'company.role.delete',
  writes: true,
  summary:
    'Delete a role; a role that company users hold needs moveTo, the role they move to (in the same transaction); 803 for the caller’s own role',
  params: IdParams,
  query: Type.Object({ moveTo: Type.Optional(Type.Integer({ minimum: 1, description: 'the role its users move to' })) }),
  data: Nothing,
  tolerate: [ErrorCode.ownRoleLocked],
});
