// Where the sun is and how much light reaches a panel under a clear sky: suncalc gives the
// position; the Haurwitz model gives global horizontal irradiance from the zenith angle alone
// (good to a few % against measured clear days, no atmosphere inputs needed); an isotropic-sky
// transposition puts that light on the tilted plane of the array.
import { getPosition } from 'suncalc';

const RAD = Math.PI / 180;
/** Solar constant, W/m²: the upper bound for beam irradiance. */
export const SOLAR_CONSTANT = 1361;

export interface SunPosition {
  /** Degrees above the horizon (refraction-corrected); negative at night. */
  altitude: number;
  /** Degrees clockwise from north. */
  azimuth: number;
}

export interface Plane {
  /** Tilt from horizontal, degrees. */
  tilt: number;
  /** Direction the panels face, degrees clockwise from north (180 = south). */
  azimuth: number;
  /** Ground reflectance. */
  albedo: number;
}

export interface Irradiance {
  /** Global horizontal, W/m². */
  ghi: number;
  /** Direct normal, W/m². */
  dni: number;
  /** Diffuse horizontal, W/m². */
  dhi: number;
  /** Plane of array (what the panels receive), W/m². */
  poa: number;
}

export function sunPosition(t: number, lat: number, lon: number): SunPosition {
  const { altitude, azimuth } = getPosition(new Date(t), lat, lon);
  return { altitude, azimuth };
}

/** Haurwitz clear-sky global horizontal irradiance, W/m². */
export function clearSkyGhi(sun: SunPosition): number {
  const cosZ = Math.sin(sun.altitude * RAD);
  if (cosZ <= 0) return 0;
  return 1098 * cosZ * Math.exp(-0.057 / cosZ);
}

/**
 * Split global horizontal light into beam and diffuse by `diffuseFraction` and transpose it
 * onto `plane` (isotropic sky, ground reflection).
 */
export function irradiance(sun: SunPosition, ghi: number, diffuseFraction: number, plane: Plane): Irradiance {
  const cosZ = Math.sin(sun.altitude * RAD);
  if (cosZ <= 0 || ghi <= 0) return { ghi: 0, dni: 0, dhi: 0, poa: 0 };
  const dhi = ghi * Math.min(1, Math.max(0, diffuseFraction));
  // Near the horizon the beam/cos(z) ratio explodes; pvlib clamps cos(z) the same way.
  const dni = Math.min(SOLAR_CONSTANT, (ghi - dhi) / Math.max(cosZ, 0.065));
  const tilt = plane.tilt * RAD;
  const sinZ = Math.sqrt(1 - cosZ * cosZ);
  const cosIncidence = cosZ * Math.cos(tilt) + sinZ * Math.sin(tilt) * Math.cos((sun.azimuth - plane.azimuth) * RAD);
  const beam = dni * Math.max(0, cosIncidence);
  const sky = dhi * ((1 + Math.cos(tilt)) / 2);
  const ground = ghi * plane.albedo * ((1 - Math.cos(tilt)) / 2);
  return { ghi, dni, dhi, poa: beam + sky + ground };
}

/** A sensible fixed plane at latitude `lat`: facing the equator, tilted a bit less than the latitude. */
export function defaultPlane(lat: number): Plane {
  return { tilt: Math.min(35, Math.max(10, Math.abs(lat) * 0.75)), azimuth: lat >= 0 ? 180 : 0, albedo: 0.2 };
}
