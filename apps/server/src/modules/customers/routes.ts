/** Customers, customer types and agents: the platform operator's administration. */
import { customersApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as customers from './customers.service.ts';
import * as types from './types.service.ts';

export function customerRoutes(app: FastifyInstance) {
  const { db, config } = app.deps;
  route(app, api.listCustomers, ({ query }) => customers.listCustomers(db, query));
  route(app, api.customerPicks, () => customers.customerPicks(db));
  route(app, api.checkCustomer, async ({ query }) => {
    await customers.checkCustomer(db, query);
    return null;
  });
  route(app, api.customerRole, ({ params }) => customers.customerRole(db, params.customerId));
  route(app, api.createCustomer, ({ caller, body }) => customers.createCustomer(db, caller, body, config.passwordCost));
  route(app, api.editCustomer, ({ caller, params, body }) => customers.editCustomer(db, caller, params.customerId, body));
  route(app, api.deleteCustomer, ({ caller, params }) => customers.deleteCustomer(db, caller, params.id));

  route(app, api.listCustomerTypes, ({ query }) => types.listTypes(db, query));
  route(app, api.customerTypePicks, () => types.typePicks(db));
  route(app, api.getCustomerType, ({ params }) => types.getType(db, params.id));
  route(app, api.createCustomerType, ({ caller, body }) => types.createType(db, caller, body));
  route(app, api.editCustomerType, ({ caller, params, body }) => types.editType(db, caller, params.id, body));
  route(app, api.deleteCustomerType, ({ caller, params }) => types.deleteType(db, caller, params.id));
}
