/** The caller's, the customers' and the company's permission trees. */
import { permissionsApi as api, companyGrantable, grantedTree, toLanguage } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { companyHolds } from '../../access/grants.ts';
import { route } from '../../http/route.ts';

const customerGrantable = new Set(companyGrantable);

export function permissionRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  route(app, api.myPermissions, async ({ caller, query }) =>
    grantedTree(caller.grants, toLanguage(query.lan ?? caller.user.language)),
  );
  route(app, api.customerPermissions, async ({ query, lan }) =>
    grantedTree(customerGrantable, query.lan ? toLanguage(query.lan) : lan),
  );
  route(app, api.companyPermissions, async ({ caller, query, lan }) => {
    const held = caller.user.company_id ? await companyHolds(db, caller.user.company_id) : new Set<string>();
    return grantedTree(held, query.lan ? toLanguage(query.lan) : lan);
  });
}
