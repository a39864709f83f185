/** Health check, the app's store pages, uploaded images, and this process's counters (Prometheus text and a JSON snapshot). */
import fs from 'node:fs';
import path from 'node:path';
import { systemApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { StoreUnavailableError, storeReachable } from '../../db/faults.ts';
import { route } from '../../http/route.ts';
import { uploadsDir } from '../users/avatar.ts';

const started = Date.now();
/** A store that has not answered `select 1` by then counts as down: an orchestrator's probe must not hang. */
const STORE_CHECK_MS = 1000;
const mime = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif' } as const;

export function systemRoutes(app: FastifyInstance) {
  const { db, dialect, config } = app.deps;

  // 200 while the store answers, 503 (error envelope) while it does not.
  route(app, api.health, async () => {
    if (!(await storeReachable(db, STORE_CHECK_MS))) throw new StoreUnavailableError();
    return { status: 'ok' as const, store: dialect, uptimeSec: Math.round((Date.now() - started) / 1000) };
  });

  route(app, api.appStores, () => config.appStores);

  const metrics = app.deps.metrics;
  if (metrics) {
    route(app, api.metrics, async ({ reply }) => {
      const text = await metrics.text();
      return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text) as never;
    });
    route(app, api.status, () => metrics.status());
  }

  route(app, api.upload, async ({ params, reply }) => {
    const file = path.join(uploadsDir(config.dataDir), params.folder, params.file);
    const stat = await fs.promises.stat(file).catch(() => null);
    // HTTP 404 as for any unknown path: an <img> or a cache must not take an error envelope for the picture.
    if (!stat?.isFile()) return reply.callNotFound() as never;
    const ext = params.file.split('.').pop() as keyof typeof mime;
    reply
      .header('content-type', mime[ext])
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .header('cache-control', 'public, max-age=31536000, immutable');
    return reply.send(fs.createReadStream(file)) as never;
  });
}
