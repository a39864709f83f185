/** Company administration routes. */
import { companyRolesApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as roles from './roles.service.ts';

export function companyRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  route(app, api.listRoles, ({ caller }) => roles.listRoles(db, caller));
  route(app, api.checkRole, async ({ caller, query }) => {
    await roles.checkRoleName(db, caller, query.name, query.id);
    return null;
  });
  route(app, api.getRole, ({ caller, params }) => roles.getRole(db, caller, params.id));
  route(app, api.addRole, ({ caller, body }) => roles.addRole(db, caller, body));
  route(app, api.editRole, ({ caller, params, body }) => roles.editRole(db, caller, params.id, body));
  route(app, api.deleteRole, ({ caller, params }) => roles.deleteRole(db, caller, params.id));
}
