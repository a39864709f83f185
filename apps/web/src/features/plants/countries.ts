/**
 * The country outlines under the plant map when no tile server is configured: Natural Earth's
 * 1:110m countries (world-atlas, TopoJSON), bundled with the app, so the map has its geography
 * without internet access. The file (about 33 KB over the wire) is its own chunk, fetched the
 * first time a map is shown.
 */
import type { FeatureCollection, Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

export type Countries = FeatureCollection<Geometry, { name: string }>;

export async function loadCountries(): Promise<Countries> {
  const { default: atlas } = await import('world-atlas/countries-110m.json');
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const countries: Countries = feature(topology, topology.objects.countries);
  for (const country of countries.features) {
    const g = country.geometry;
    if (g.type === 'Polygon') g.coordinates = g.coordinates.map(continuousRing);
    else if (g.type === 'MultiPolygon') g.coordinates = g.coordinates.map((polygon) => polygon.map(continuousRing));
  }
  return countries;
}

/**
 * A ring that crosses the 180° meridian and comes back (Fiji, Russia's far east) steps from 180 to
 * −180 and back; drawn as it is, each step is a line across the whole world. Its western points
 * move east by 360° so the ring is continuous (the part past 180° lies beyond the map's edge). A
 * ring around a pole (Antarctica) steps once and is left as it is.
 */
export function continuousRing(ring: Position[]): Position[] {
  let steps = 0;
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) steps++;
  if (steps === 0 || steps % 2 === 1) return ring;
  return ring.map(([lng, lat, ...rest]) => (lng! < 0 ? [lng! + 360, lat!, ...rest] : [lng!, lat!, ...rest]));
}
