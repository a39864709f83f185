import { describe, expect, it } from 'vitest';
import { clearSkyGhi, defaultPlane, irradiance, SOLAR_CONSTANT, sunPosition } from './sun.ts';

const madrid = { lat: 40.42, lon: -3.7 };

describe('sun and clear sky', () => {
  it('has no light at night and a plausible clear-sky noon', () => {
    const midnight = sunPosition(Date.parse('2025-06-21T00:00:00Z'), madrid.lat, madrid.lon);
    expect(midnight.altitude).toBeLessThan(0);
    expect(clearSkyGhi(midnight)).toBe(0);
    const noon = sunPosition(Date.parse('2025-06-21T12:15:00Z'), madrid.lat, madrid.lon);
    expect(noon.altitude).toBeGreaterThan(70);
    const ghi = clearSkyGhi(noon);
    expect(ghi).toBeGreaterThan(950);
    expect(ghi).toBeLessThan(1100);
  });

  it('puts more winter light on a tilted plane facing the equator than on the ground', () => {
    const sun = sunPosition(Date.parse('2025-12-21T12:15:00Z'), madrid.lat, madrid.lon);
    const ghi = clearSkyGhi(sun);
    const light = irradiance(sun, ghi, 0.15, defaultPlane(madrid.lat));
    expect(light.poa).toBeGreaterThan(ghi);
    expect(light.dni).toBeLessThanOrEqual(SOLAR_CONSTANT);
    expect(light.dhi + light.dni * Math.sin((sun.altitude * Math.PI) / 180)).toBeCloseTo(ghi, 6);
  });

  it('faces north in the southern hemisphere', () => {
    expect(defaultPlane(-33).azimuth).toBe(0);
    expect(defaultPlane(40).azimuth).toBe(180);
  });
});
