/** Remote-setting routes: the group reads and writes of every family, support, jobs, history, batches. */
import { settingsApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { type BatchContext, cancelBatch, getSettingBatch, startBatch } from './batch.ts';
import { downloadHistory } from './history.ts';
import { getSettingJob, history, readSettings, revertJob, support, writeSettings } from './settings.service.ts';

export function settingRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const ctx: BatchContext = {
    db,
    get channel() {
      return app.deps.commands;
    },
    log: app.log,
  };
  const reads = new Set<unknown>();
  for (const e of api.settingGroupEndpoints) {
    if (!reads.has(e.read)) {
      reads.add(e.read);
      const group = e.read.path.endsWith(`/${e.group}/read`) ? e.group : null;
      route(app, e.read, ({ caller, params }) => readSettings(ctx, caller, e.family, group, params.sn));
    }
    route(app, e.write, ({ caller, params, body }) => writeSettings(ctx, caller, e.family, e.group, params.sn, body.values));
  }
  route(app, api.settingSupport, ({ caller, params }) => support(ctx, caller, params.sn));
  route(app, api.settingJobs, ({ caller, params, query }) => history(ctx, caller, params.sn, query.page ?? 1, query.size ?? 10));
  route(app, api.settingJobsDownload, ({ caller, params, lan, reply }) => downloadHistory(db, caller, params.sn, lan, reply));
  route(app, api.settingJob, ({ caller, params }) => getSettingJob(ctx, caller, params.id));
  route(app, api.revertSettingJob, ({ caller, params }) => revertJob(ctx, caller, params.id));
  route(app, api.settingBatch, ({ caller, body }) => startBatch(ctx, caller, body));
  route(app, api.settingBatchGet, ({ caller, params }) => getSettingBatch(ctx, caller, params.id));
  route(app, api.settingBatchCancel, ({ caller, params }) => cancelBatch(ctx, caller, params.id));
}
