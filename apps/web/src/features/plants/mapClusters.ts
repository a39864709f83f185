/**
 * The plant map's clusters: plants close together on screen at a zoom level are drawn as one
 * cluster with their count and how many are in each status. Pure (no Leaflet, no React), so the
 * rules are tested without a browser.
 */
import { type DataOf, plantsApi } from '@sunfleet/contracts';
import Supercluster from 'supercluster';

export type MapPlant = DataOf<typeof plantsApi.plantsMap>[number];
export type StatusTally = Record<plantsApi.PlantStatusName, number>;

/** A plant on its own, or a cluster of plants, at a position of the map. */
export type MapPoint =
  | { kind: 'plant'; plant: MapPlant; lat: number; lng: number }
  | { kind: 'cluster'; id: number; count: number; statuses: StatusTally; lat: number; lng: number };

/** Plants whose markers would come closer than this many screen pixels form a cluster. */
export const CLUSTER_RADIUS_PX = 48;

export interface PlantClusters {
  /** What to draw in `bbox` ([west, south, east, north], degrees) at `zoom`. */
  points(bbox: [number, number, number, number], zoom: number): MapPoint[];
  /** The zoom level at which cluster `id` falls apart; past `maxZoom` when its plants never separate. */
  expansionZoom(id: number): number;
  /** The plants of cluster `id`, in the order of the answer (by id). */
  plants(id: number): MapPlant[];
}

const emptyTally = (): StatusTally => ({ normal: 0, offline: 0, warning: 0, fault: 0, upgrading: 0 });

/**
 * An index of `plants` clustered at every zoom level up to `maxZoom`; above it every plant stands
 * alone (plants at one spot too, which is why a cluster at the map's deepest zoom lists its plants).
 */
export function clusterPlants(plants: readonly MapPlant[], maxZoom: number): PlantClusters {
  const index = new Supercluster<{ plant: MapPlant }, StatusTally>({
    radius: CLUSTER_RADIUS_PX,
    // Leaflet's tiles are 256 px wide, so the radius is in the map's own pixels.
    extent: 256,
    maxZoom,
    map: (props) => ({ ...emptyTally(), [props.plant.status]: 1 }),
    reduce: (acc, props) => {
      for (const s of plantsApi.plantStatuses) acc[s] += props[s];
    },
  });
  index.load(
    plants.map((plant) => ({
      type: 'Feature' as const,
      properties: { plant },
      geometry: { type: 'Point' as const, coordinates: [plant.longitude, plant.latitude] },
    })),
  );
  return {
    points(bbox, zoom) {
      return index.getClusters(bbox, Math.floor(zoom)).map((f): MapPoint => {
        const [lng, lat] = f.geometry.coordinates as [number, number];
        const p = f.properties;
        if ('cluster' in p && p.cluster) {
          const statuses = emptyTally();
          for (const s of plantsApi.plantStatuses) statuses[s] = p[s];
          return { kind: 'cluster', id: p.cluster_id, count: p.point_count, statuses, lat, lng };
        }
        return { kind: 'plant', plant: (p as { plant: MapPlant }).plant, lat, lng };
      });
    },
    expansionZoom: (id) => index.getClusterExpansionZoom(id),
    plants: (id) =>
      index
        .getLeaves(id, Number.POSITIVE_INFINITY)
        .map((f) => f.properties.plant)
        .sort((a, b) => a.id - b.id),
  };
}

/**
 * The ring of a cluster: each status's share of the circle in its colour, in the order of the
 * statuses (a conic-gradient value).
 */
export function statusRing(statuses: StatusTally, colours: Record<plantsApi.PlantStatusName, string>): string {
  const total = plantsApi.plantStatuses.reduce((n, s) => n + statuses[s], 0);
  if (total === 0) return 'transparent';
  const stops: string[] = [];
  let from = 0;
  for (const s of plantsApi.plantStatuses) {
    if (statuses[s] === 0) continue;
    const to = from + (statuses[s] / total) * 360;
    stops.push(`${colours[s]} ${round(from)}deg ${round(to)}deg`);
    from = to;
  }
  return `conic-gradient(${stops.join(', ')})`;
}

const round = (deg: number) => Math.round(deg * 10) / 10;

/** A cluster's statuses, worst first and without the empty ones: `[['fault', 1], ['normal', 4]]`. */
export function statusesWorstFirst(statuses: StatusTally): Array<[plantsApi.PlantStatusName, number]> {
  const order: plantsApi.PlantStatusName[] = ['fault', 'warning', 'offline', 'upgrading', 'normal'];
  return order.filter((s) => statuses[s] > 0).map((s) => [s, statuses[s]]);
}
