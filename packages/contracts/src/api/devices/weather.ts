/** Weather stations: list and detail. */
import Type from 'typebox';
import { endpoint, Paged } from '../../endpoint.ts';
import { DeviceCounts } from './common.ts';
import { deviceFilters, deviceListItem, deviceListQuery, ListOrder, Num } from './schemas.ts';

export const weatherSorts = ['sn', 'alias', 'createAt', 'irradiance', 'status', 'lastUpdate'] as const;

export const WeatherListItem = deviceListItem({
  irradiance: Num('W/m²'),
  ambientTemperature: Num('°C'),
  moduleTemperature: Num('°C'),
  windSpeed: Num('m/s'),
  humidity: Num('%'),
  dailyIrradiation: Num('Wh/m², today'),
});

export const listWeatherStations = endpoint({
  method: 'GET',
  path: '/api/v1/meteorological',
  access: 'weather.view',
  summary: 'The weather stations the caller can see: filter by plant, gateway, status, SN or alias; sorted, paged',
  query: deviceListQuery(weatherSorts),
  data: Paged(WeatherListItem),
});

export const weatherCount = endpoint({
  method: 'GET',
  path: '/api/v1/meteorological/status/count',
  access: 'weather.view',
  summary: 'The visible weather stations per status (with the list’s other filters)',
  query: Type.Object(deviceFilters),
  data: DeviceCounts,
});

/** The order values of every device list. */
export const SortOrder = ListOrder;
