/** The read side of the administrative audit log (its writes happen in each module's transactions). */
import { companyApi } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { readAudit } from './audit.service.ts';

export function auditLogRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  route(app, companyApi.adminAudit, ({ caller, query }) => readAudit(db, caller, query));
}
