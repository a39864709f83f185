/**
 * Sun elevation from latitude, longitude and time (NOAA's simplified equations; good to a few
 * tenths of a degree, plenty to tell day from night for the zero-output rule).
 */
const RAD = Math.PI / 180;

/** Elevation of the sun above the horizon in degrees (negative at night). */
export function sunElevation(latitude: number, longitude: number, ts: number): number {
  const days = ts / 86_400_000 + 2440587.5 - 2451545.0; // days since J2000.0
  const meanLongitude = (280.46 + 0.9856474 * days) % 360;
  const meanAnomaly = ((357.528 + 0.9856003 * days) % 360) * RAD;
  const eclipticLongitude = (meanLongitude + 1.915 * Math.sin(meanAnomaly) + 0.02 * Math.sin(2 * meanAnomaly)) * RAD;
  const obliquity = (23.439 - 0.0000004 * days) * RAD;
  const declination = Math.asin(Math.sin(obliquity) * Math.sin(eclipticLongitude));
  const rightAscension = Math.atan2(Math.cos(obliquity) * Math.sin(eclipticLongitude), Math.cos(eclipticLongitude));
  const siderealHours = (18.697374558 + 24.06570982441908 * days) % 24; // Greenwich mean sidereal time
  const hourAngle = (siderealHours * 15 + longitude) * RAD - rightAscension;
  const lat = latitude * RAD;
  const sinElevation = Math.sin(lat) * Math.sin(declination) + Math.cos(lat) * Math.cos(declination) * Math.cos(hourAngle);
  return Math.asin(Math.max(-1, Math.min(1, sinElevation))) / RAD;
}
