/** Reports: the energy report and generation downloads (.xlsx), the forecast upload; under the long statement limit. */
import { plantEnergyApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { withLongStatements } from '../../db/timeouts.ts';
import { route } from '../../http/route.ts';
import { energyReport } from './aggregate.ts';
import { importForecast, readForecastUpload } from './forecast.ts';
import { generationReport } from './generation.ts';
import { sendXlsx } from './xlsx.ts';

export function reportRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  route(app, api.energyAggregate, async ({ caller, query, lan, reply }) => {
    const { bytes, filename } = await withLongStatements(db, (conn) => energyReport(conn, caller, query, lan));
    return sendXlsx(reply, bytes, filename);
  });

  route(app, api.generationDownload, async ({ caller, query, lan, reply }) => {
    const { bytes, filename } = await withLongStatements(db, (conn) => generationReport(conn, caller, query, lan));
    return sendXlsx(reply, bytes, filename);
  });

  route(app, api.importForecast, async ({ caller, req, lan }) => {
    const upload = await readForecastUpload(req, lan);
    return withLongStatements(db, (conn) => importForecast(conn, caller, upload, lan));
  });
}
