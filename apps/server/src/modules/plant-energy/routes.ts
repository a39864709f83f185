/**
 * Plant overview routes: thin; the rules live in the files named
 * after what they compute. The report routes of the same contract file (energy aggregate,
 * generation download, forecast import) are modules/reports'.
 */
import { plantEnergyApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { deviceFor } from '../../access/resolve.ts';
import { route } from '../../http/route.ts';
import { energyBreakdown, generationUse } from './energy.ts';
import { eventsOfLastHour } from './events.ts';
import { inverterFlow, plantFlow } from './flow.ts';
import { setMasterMeter } from './master-meter.ts';
import { overviewPlant } from './plant.ts';
import { plantRealtime } from './realtime.ts';
import { plantGenerationSeries, plantPowerDay } from './series.ts';
import * as weather from './weather.ts';

export function plantEnergyRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  route(app, api.plantRealtime, async ({ caller, params }) => plantRealtime(db, await overviewPlant(db, caller, params.id)));
  route(app, api.plantPowerDay, async ({ caller, params, query }) =>
    plantPowerDay(db, await overviewPlant(db, caller, params.id), query.date),
  );
  for (const [ep, period] of [
    [api.plantPowerMonth, 'month'],
    [api.plantPowerYear, 'year'],
    [api.plantPowerTotal, 'total'],
  ] as const) {
    route(app, ep, async ({ caller, params, query }) =>
      plantGenerationSeries(db, await overviewPlant(db, caller, params.id), period, query.date),
    );
  }
  for (const [ep, period] of [
    [api.plantEnergyDay, 'day'],
    [api.plantEnergyMonth, 'month'],
    [api.plantEnergyYear, 'year'],
    [api.plantEnergyTotal, 'total'],
  ] as const) {
    route(app, ep, async ({ caller, params, query }) =>
      energyBreakdown(db, await overviewPlant(db, caller, params.id), period, query.date),
    );
  }
  route(app, api.plantEnergyFlow, async ({ caller, params }) => plantFlow(db, await overviewPlant(db, caller, params.id)));
  route(app, api.plantGenerationUse, async ({ caller, params, query }) =>
    generationUse(db, await overviewPlant(db, caller, params.id), query.period, query.date),
  );

  route(app, api.eventOneHour, ({ caller, lan }) => eventsOfLastHour(db, caller, lan));

  route(app, api.setMasterMeter, async ({ caller, params }) => {
    await setMasterMeter(db, caller, params.sn);
    // Ingest in this process reloads which meter counts (elsewhere: within its cache lifetime).
    app.deps.ingest?.forget();
    return null;
  });

  route(app, api.inverterFlow, async ({ caller, params }) => {
    const device = await deviceFor(db, caller, { sn: params.sn }, { kind: 'inverter', onPlant: true });
    return inverterFlow(db, device.id);
  });

  route(app, api.weather, ({ caller, query }) => weather.plantWeather(db, caller, query.plantId));
  route(app, api.plantWeatherRealtime, ({ caller, params }) => weather.plantWeather(db, caller, params.stationId));
  route(app, api.weatherStationRealtime, async ({ caller, params }) =>
    weather.stationWeather(db, await deviceFor(db, caller, { sn: params.sn }, { kind: 'weather', onPlant: true })),
  );
  route(app, api.weatherStationDay, async ({ caller, params, query }) =>
    weather.stationDay(db, await deviceFor(db, caller, { sn: params.sn }, { kind: 'weather', onPlant: true }), query.date),
  );
  route(app, api.weatherStationInfo, ({ caller, query }) => weather.stationInfo(db, caller, query.plantId));
  route(app, api.weatherStationProducts, ({ lan }) => weather.weatherProducts(lan));
  route(app, api.saveWeatherAuth, async ({ caller, body }) => {
    const station = await weather.attachStation(db, caller, body.plantId, body.sn);
    app.deps.ingest?.forget({ deviceSn: body.sn });
    return station;
  });
}
