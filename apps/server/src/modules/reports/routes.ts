/** Reports: the energy report and generation downloads (.xlsx), the forecast upload. */
import { plantEnergyApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { energyReport } from './aggregate.ts';
import { importForecast, readForecastUpload } from './forecast.ts';
import { generationReport } from './generation.ts';
import { sendXlsx } from './xlsx.ts';

export function reportRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  route(app, api.energyAggregate, async ({ caller, query, lan, reply }) => {
    const { bytes, filename } = await energyReport(db, caller, query, lan);
    return sendXlsx(reply, bytes, filename);
  });

  route(app, api.generationDownload, async ({ caller, query, lan, reply }) => {
    const { bytes, filename } = await generationReport(db, caller, query, lan);
    return sendXlsx(reply, bytes, filename);
  });

  route(app, api.importForecast, async ({ caller, req, lan }) =>
    importForecast(db, caller, await readForecastUpload(req, lan), lan),
  );
}
