/** Routes of the devices area (inverters, meters and batteries, gateways read side, weather lists): thin. */
import { devicesApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as batteries from './batteries.ts';
import { deleteDevice, setAlias } from './edit.ts';
import * as gateways from './gateways.ts';
import * as inverters from './inverters.ts';
import { batteryItem, deviceCounts, inverterItem, listDevices, meterItem, weatherItem } from './list.ts';
import * as meters from './meters.ts';
import { closeReader } from './offload.repo.ts';
import * as profiles from './profiles.ts';

export function deviceRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  app.addHook('onClose', () => closeReader(db));

  // Gateways
  route(app, api.listGateways, ({ caller, query }) => gateways.listGateways(db, caller, query));
  route(app, api.gatewayCount, ({ caller, query }) => gateways.gatewayCounts(db, caller, query));
  route(app, api.getGateway, ({ caller, params }) => gateways.gatewayDetail(db, caller, params.id));

  // Inverters: lists, alias, delete
  route(app, api.listInverters, ({ caller, query }) => listDevices(db, caller, 'inverter', query, inverterItem));
  route(app, api.inverterCount, ({ caller, query }) => deviceCounts(db, caller, 'inverter', query));
  route(app, api.inverterAlias, ({ caller, params, body }) => setAlias(app, caller, 'inverter', params.sn, body.alias));
  route(app, api.deleteInverter, ({ caller, params }) => deleteDevice(app, caller, 'inverter', { sn: params.sn }));

  // Inverters: parameter picker and profiles
  route(app, api.inverterParams, ({ caller, query, lan }) => profiles.inverterParams(db, caller, query.sn, lan));
  route(app, api.inverterParamProfiles, ({ caller }) => profiles.listProfiles(db, caller));
  route(app, api.saveInverterParamProfiles, ({ caller, body }) => profiles.saveProfiles(db, caller, body.profiles));

  // Inverters: detail, realtime, charts
  route(app, api.getInverter, ({ caller, params, lan }) => inverters.inverterDetail(db, caller, params.sn, lan));
  route(app, api.inverterInputRealtime, ({ caller, params }) => inverters.inputRealtime(db, caller, params.sn));
  route(app, api.inverterOutputRealtime, ({ caller, params }) => inverters.outputRealtime(db, caller, params.sn));
  route(app, api.inverterPvIv, ({ caller, params }) => inverters.pvIv(db, caller, params.sn));
  route(app, api.inverterInputDay, ({ caller, params, query, lan }) =>
    inverters.inputDay(db, caller, params.sn, query.date, lan),
  );
  route(app, api.inverterOutputDay, ({ caller, params, query, lan }) =>
    inverters.outputDay(db, caller, params.sn, query.date, lan),
  );
  route(app, api.inverterDay, ({ caller, params, query, lan }) => inverters.inverterDay(db, caller, params.sn, query, lan));
  route(app, api.inverterMonth, ({ caller, params, query }) =>
    inverters.inverterBars(db, caller, params.sn, 'month', query.date),
  );
  route(app, api.inverterYear, ({ caller, params, query }) => inverters.inverterBars(db, caller, params.sn, 'year', query.date));
  route(app, api.inverterTotal, ({ caller, params, query }) =>
    inverters.inverterBars(db, caller, params.sn, 'total', query.date),
  );
  route(app, api.inverterGen, ({ caller, params, query }) =>
    inverters.inverterGeneration(db, caller, params.sn, query.period ?? 'day', query.date),
  );
  route(app, api.inverterGenMi, ({ caller, params, query, lan }) =>
    inverters.microGeneration(db, caller, params.sn, query.date, lan),
  );

  // Inverters: grid, meter, battery, eps and load groups
  route(app, api.inverterGroupRealtime, ({ caller, params, lan }) =>
    inverters.groupRealtime(db, caller, params.kind, params.sn, lan),
  );
  route(app, api.inverterGroupDay, ({ caller, params, query, lan }) =>
    inverters.groupDay(db, caller, params.kind, params.sn, query.date, lan),
  );
  route(app, api.inverterGroupMonth, ({ caller, params, query }) =>
    inverters.groupBars(db, caller, params.kind, params.sn, 'month', query.date),
  );
  route(app, api.inverterGroupYear, ({ caller, params, query }) =>
    inverters.groupBars(db, caller, params.kind, params.sn, 'year', query.date),
  );
  route(app, api.inverterGroupTotal, ({ caller, params, query }) =>
    inverters.groupBars(db, caller, params.kind, params.sn, 'total', query.date),
  );

  // Batteries
  route(app, api.listBatteries, ({ caller, query }) => listDevices(db, caller, 'battery', query, batteryItem));
  route(app, api.batteryCount, ({ caller, query }) => deviceCounts(db, caller, 'battery', query));
  route(app, api.batterySlaves, ({ caller, params, lan }) => batteries.batterySlaves(db, caller, params.id, lan));
  route(app, api.batteryInfo, ({ caller, params, lan }) => batteries.batteryInfo(db, caller, params.sn, lan));
  route(app, api.batteryRealtime, ({ caller, params, lan }) => batteries.batteryRealtime(db, caller, params.sn, lan));
  route(app, api.batteryDay, ({ caller, params, query, lan }) => batteries.batteryDay(db, caller, params.sn, query.date, lan));
  route(app, api.deleteBattery, ({ caller, params }) => deleteDevice(app, caller, 'battery', { id: params.id }));

  // Meters
  route(app, api.listMeters, ({ caller, query }) => listDevices(db, caller, 'meter', query, meterItem));
  route(app, api.meterCount, ({ caller, query }) => deviceCounts(db, caller, 'meter', query));
  route(app, api.meterRealtime, ({ caller, params, lan }) => meters.meterRealtime(db, caller, params.sn, lan));
  route(app, api.meterDay, ({ caller, params, query, lan }) => meters.meterDay(db, caller, params.sn, query.date, lan));
  route(app, api.meterMonth, ({ caller, params, query }) => meters.meterBars(db, caller, params.sn, 'month', query.date));
  route(app, api.meterYear, ({ caller, params, query }) => meters.meterBars(db, caller, params.sn, 'year', query.date));
  route(app, api.meterTotal, ({ caller, params, query }) => meters.meterBars(db, caller, params.sn, 'total', query.date));
  route(app, api.meterAlias, ({ caller, params, body }) => setAlias(app, caller, 'meter', params.sn, body.alias));
  route(app, api.deleteMeter, ({ caller, params }) => deleteDevice(app, caller, 'meter', { sn: params.sn }));

  // Weather stations
  route(app, api.listWeatherStations, ({ caller, query }) => listDevices(db, caller, 'weather', query, weatherItem));
  route(app, api.weatherCount, ({ caller, query }) => deviceCounts(db, caller, 'weather', query));
}
