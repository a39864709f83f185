/** Counts for the overview and the account, a plant's inverters, the map and its base layer, the plant filter. */
import Type from 'typebox';
import { DeviceCounts, DeviceState } from '../../deviceNames.ts';
import { endpoint, Paged, PageQuery } from '../../endpoint.ts';
import { IdParams, Instant, Nullable } from '../../schemas.ts';
import { EventCounts, PlantCounts, PlantStatus, PlantType } from './model.ts';
import { listFilters, Option, PlantIdParams, StationIdParams } from './params.ts';

export const overviewPlantCount = endpoint({
  method: 'GET',
  path: '/api/v1/overview/plantCount',
  access: 'station.view',
  summary: 'Plants the caller can see, by status',
  data: PlantCounts,
});

export const overviewEventCount = endpoint({
  method: 'GET',
  path: '/api/v1/overview/eventCount',
  access: 'station.view',
  summary: 'Open events of the plants the caller can see, by level',
  data: EventCounts,
});

export const userPlantCount = endpoint({
  method: 'GET',
  path: '/api/v1/user/:id/plantCount',
  access: 'station.view',
  summary: 'Plants the account owns or has been shared, by status (own id only)',
  params: IdParams,
  data: PlantCounts,
});

export const userEventCount = endpoint({
  method: 'GET',
  path: '/api/v1/user/:id/eventCount',
  access: 'station.view',
  summary: 'Open events of the plants the account owns or has been shared, by level (own id only)',
  params: IdParams,
  data: EventCounts,
});

export const plantInverterCount = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/inverterCount',
  access: 'station.view',
  summary: 'The plant’s inverters by state (as their badges show: off while powered off)',
  params: PlantIdParams,
  data: DeviceCounts,
});

export const plantEventCount = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:id/eventCount',
  access: 'station.view',
  summary: 'The plant’s open events by level',
  params: PlantIdParams,
  data: EventCounts,
});

export const PlantInverter = Type.Object({
  id: Type.Integer(),
  sn: Type.String(),
  alias: Nullable(Type.String()),
  gatewaySn: Type.String(),
  status: PlantStatus,
  state: DeviceState,
  deviceType: Nullable(Type.Integer()),
  ratedPower: Nullable(Type.Number({ description: 'W' })),
  power: Nullable(Type.Number({ description: 'W' })),
  todayEnergy: Type.Number({ description: 'Wh, the plant-local day' }),
  lastUpdate: Nullable(Instant),
});

export const plantInverters = endpoint({
  method: 'GET',
  path: '/api/v1/plant/:stationId/inverters',
  access: 'station.view',
  summary: 'The plant’s inverters with their latest values',
  params: StationIdParams,
  query: Type.Object({ ...PageQuery }),
  data: Paged(PlantInverter),
});

export const plantsMap = endpoint({
  method: 'GET',
  path: '/api/v1/plants/map',
  access: 'station.view',
  summary: 'Visible plants that have coordinates, for the map (same filters as the list)',
  query: Type.Object(listFilters),
  data: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      status: PlantStatus,
      type: PlantType,
      capacity: Type.Number(),
      latitude: Type.Number(),
      longitude: Type.Number(),
    }),
  ),
});

/**
 * The map's base layer. Without a tile server configured (MAP_TILE_URL) the web draws the country
 * outlines it bundles and fetches nothing from outside; with one, it shows that server's tiles.
 */
export const plantsMapLayer = endpoint({
  method: 'GET',
  path: '/api/v1/plants/map/layer',
  access: 'station.view',
  summary: 'The base layer of the plant map: the configured tile server, or null for the bundled country outlines',
  data: Type.Object({
    tiles: Nullable(
      Type.Object({
        url: Type.String({ description: 'a Leaflet URL template: {z}, {x}, {y}, and optionally {s} and {r}' }),
        attribution: Type.String({ description: 'HTML the tile server asks to show, may be empty' }),
        maxZoom: Type.Integer({ minimum: 1, maximum: 22 }),
      }),
    ),
  }),
});

export const plantFilter = endpoint({
  method: 'GET',
  path: '/api/v1/plant/filter',
  access: 'station.view',
  summary: 'The list filter options with counts over the visible plants, and the sort columns',
  data: Type.Object({
    statuses: Type.Array(Option(PlantStatus)),
    types: Type.Array(Option(PlantType)),
    sorts: Type.Array(Type.String()),
    defaults: Type.Object({ type: Type.Literal(-1), sort: Type.Literal('createAt'), order: Type.Literal(2) }),
  }),
});
