/** Routes of system versions: thin. */
import { versionsApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as versions from './versions.service.ts';

export function versionRoutes(app: FastifyInstance) {
  const { db, dialect } = app.deps;
  route(app, api.listVersions, ({ query }) => versions.listVersions(db, query.page, query.size));
  route(app, api.versionTimeline, ({ query }) => versions.listVersions(db, query.page, query.size));
  route(app, api.currentVersion, () => versions.currentVersion(db));
  route(app, api.latestVersion, () => versions.latestVersion(db));
  route(app, api.checkVersion, async ({ query }) => {
    await versions.checkVersionNumber(db, query.number, query.id);
    return null;
  });
  route(app, api.getVersion, ({ params }) => versions.getVersion(db, params.id));
  route(app, api.saveVersion, ({ caller, body }) => versions.saveVersion(db, dialect, caller, body));
  route(app, api.deleteVersion, ({ params }) => versions.deleteVersion(db, params.id));
}
