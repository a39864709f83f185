import { describe, expect, it } from 'vitest';
import { continuousRing, loadCountries } from './countries.ts';

/** Whether [lng, lat] lies inside a ring (even–odd rule). */
function inRing(ring: number[][], [x, y]: [number, number]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('bundled country outlines', () => {
  it('are the Natural Earth countries as GeoJSON, with their names, without the network', async () => {
    const countries = await loadCountries();
    expect(countries.type).toBe('FeatureCollection');
    expect(countries.features.length).toBeGreaterThan(170);
    const spain = countries.features.find((f) => f.properties.name === 'Spain')!;
    expect(spain.geometry.type).toMatch(/Polygon/);
    const rings =
      spain.geometry.type === 'Polygon'
        ? [spain.geometry.coordinates[0]!]
        : spain.geometry.type === 'MultiPolygon'
          ? spain.geometry.coordinates.map((p) => p[0]!)
          : [];
    // Madrid is in Spain, Lisboa is not.
    expect(rings.some((r) => inRing(r, [-3.7, 40.42]))).toBe(true);
    expect(rings.some((r) => inRing(r, [-9.14, 38.72]))).toBe(false);
  });
});

describe('a ring across the 180° meridian', () => {
  it('is made continuous when it crosses and comes back: no edge spans the world', async () => {
    expect(
      continuousRing([
        [178, -16],
        [180, -16.5],
        [-179.8, -16.2],
        [-180, -17],
        [179, -17],
        [178, -16],
      ]),
    ).toEqual([
      [178, -16],
      [180, -16.5],
      [180.2, -16.2],
      [180, -17],
      [179, -17],
      [178, -16],
    ]);
    const countries = await loadCountries();
    for (const f of countries.features) {
      if (f.properties.name === 'Antarctica') continue;
      const rings =
        f.geometry.type === 'Polygon'
          ? f.geometry.coordinates
          : f.geometry.type === 'MultiPolygon'
            ? f.geometry.coordinates.flat()
            : [];
      for (const ring of rings)
        for (let i = 1; i < ring.length; i++)
          expect(Math.abs(ring[i]![0]! - ring[i - 1]![0]!), f.properties.name).toBeLessThan(180);
    }
  });

  it('a ring around a pole, which steps once, is left as it is', () => {
    const antarctic = [
      [-180, -84],
      [0, -70],
      [180, -84],
      [-180, -84],
    ];
    expect(continuousRing(antarctic)).toBe(antarctic);
  });
});
