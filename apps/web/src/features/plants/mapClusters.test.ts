import { describe, expect, it } from 'vitest';
import { clusterPlants, type MapPlant, type MapPoint, statusesWorstFirst, statusRing } from './mapClusters.ts';

const plant = (id: number, latitude: number, longitude: number, status: MapPlant['status'] = 'normal'): MapPlant => ({
  id,
  name: `Plant ${id}`,
  status,
  type: 0,
  capacity: 10,
  latitude,
  longitude,
});
const WORLD: [number, number, number, number] = [-180, -85, 180, 85];
const fleet = [
  plant(1, 40.42, -3.7), // Madrid
  plant(2, 37.39, -5.98, 'fault'), // Sevilla
  plant(3, 38.72, -9.14, 'offline'), // Lisboa
  plant(4, 41.39, 2.17, 'warning'), // Barcelona
  plant(5, 19.43, -99.13), // Ciudad de México
  plant(6, -33.45, -70.67, 'offline'), // Santiago
];
const clusters = (points: MapPoint[]) => points.filter((p) => p.kind === 'cluster');
const plantIds = (points: MapPoint[]) => points.flatMap((p) => (p.kind === 'plant' ? [p.plant.id] : [])).sort((a, b) => a - b);

describe('plant map clusters', () => {
  it('at world zoom the Iberian plants are one cluster with their count and statuses; the others stand alone', () => {
    const points = clusterPlants(fleet, 10).points(WORLD, 2);
    expect(clusters(points)).toEqual([
      {
        kind: 'cluster',
        id: expect.any(Number),
        count: 4,
        statuses: { normal: 1, offline: 1, warning: 1, fault: 1, upgrading: 0 },
        lat: expect.closeTo(39.5, 0),
        lng: expect.closeTo(-4, 0),
      },
    ]);
    expect(plantIds(points)).toEqual([5, 6]);
  });

  it('a cluster falls apart at its expansion zoom; zoomed in, every plant stands alone', () => {
    const index = clusterPlants(fleet, 10);
    const iberia = clusters(index.points(WORLD, 2))[0]!;
    const zoom = index.expansionZoom(iberia.kind === 'cluster' ? iberia.id : -1);
    expect(zoom).toBeGreaterThan(2);
    expect(zoom).toBeLessThanOrEqual(10);
    const after = index.points([-12, 35, 5, 44], zoom);
    expect(after.length).toBeGreaterThan(1);
    expect(plantIds(index.points(WORLD, 8))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a fractional zoom clusters as the level below it', () => {
    const index = clusterPlants(fleet, 10);
    expect(index.points(WORLD, 2.75)).toEqual(index.points(WORLD, 2));
  });

  it('only what lies in the box', () => {
    expect(plantIds(clusterPlants(fleet, 10).points([-110, -40, -60, 25], 8))).toEqual([5, 6]);
  });

  it('plants at one spot never separate: their cluster expands past the deepest zoom and lists them by id', () => {
    const index = clusterPlants([plant(9, 10, 10), plant(7, 10, 10, 'fault'), plant(8, 10, 10)], 10);
    const [only] = index.points(WORLD, 10);
    expect(only).toMatchObject({ kind: 'cluster', count: 3 });
    const id = only!.kind === 'cluster' ? only!.id : -1;
    expect(index.expansionZoom(id)).toBeGreaterThan(10);
    expect(index.plants(id).map((p) => p.id)).toEqual([7, 8, 9]);
    // Past the clustering zoom every plant is its own marker.
    expect(plantIds(index.points(WORLD, 11))).toEqual([7, 8, 9]);
  });

  it('no plants, no points', () => {
    expect(clusterPlants([], 10).points(WORLD, 2)).toEqual([]);
  });
});

describe('a cluster’s statuses', () => {
  const colours = { normal: 'green', offline: 'grey', warning: 'orange', fault: 'red', upgrading: 'blue' };

  it('ring: each status’s share of the circle in its colour', () => {
    expect(statusRing({ normal: 3, offline: 0, warning: 0, fault: 1, upgrading: 0 }, colours)).toBe(
      'conic-gradient(green 0deg 270deg, red 270deg 360deg)',
    );
    expect(statusRing({ normal: 0, offline: 1, warning: 1, fault: 1, upgrading: 0 }, colours)).toBe(
      'conic-gradient(grey 0deg 120deg, orange 120deg 240deg, red 240deg 360deg)',
    );
  });

  it('named worst first, empty ones left out', () => {
    expect(statusesWorstFirst({ normal: 4, offline: 2, warning: 0, fault: 1, upgrading: 1 })).toEqual([
      ['fault', 1],
      ['offline', 2],
      ['upgrading', 1],
      ['normal', 4],
    ]);
  });
});
