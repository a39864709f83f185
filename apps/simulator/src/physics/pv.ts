// From light to AC power. The array: DC power ∝ plane-of-array irradiance × capacity, derated
// by cell temperature (Faiman model) and fixed system losses (soiling, wiring, mismatch).
// The inverter: losses = standby + linear + quadratic in the power it converts, so efficiency
// is poor at low load, peaks near 97 % around a third of rating and sags a little at full
// load; output is clipped at the rated AC power (the MPP tracker backs off, so the DC drawn
// falls too). The same loss curve serves both directions for battery inverters.

export interface PvArray {
  /** Installed DC capacity, kWp. */
  kwp: number;
  /** Power temperature coefficient, 1/K (crystalline silicon ≈ −0.0037). */
  temperatureCoefficient: number;
  /** Everything between the modules' rating and the inverter input (0.9 = 10 % lost). */
  systemFactor: number;
}

export const pvArray = (kwp: number): PvArray => ({ kwp, temperatureCoefficient: -0.0037, systemFactor: 0.9 });

/** Cell temperature (Faiman): ambient plus heating by irradiance, cooled by wind. */
export function cellTemperature(ambientC: number, poa: number, windMs: number): number {
  return ambientC + poa / (25 + 6.84 * windMs);
}

/** Maximum-power-point DC power of the array, W. */
export function arrayDcPower(array: PvArray, poa: number, cellC: number): number {
  if (poa <= 0) return 0;
  return Math.max(0, array.kwp * poa * (1 + array.temperatureCoefficient * (cellC - 25)) * array.systemFactor);
}

export interface InverterLosses {
  /** Rated AC power, W. */
  ratedW: number;
  /** Standby draw while converting, fraction of rating. */
  standby: number;
  /** Loss proportional to power. */
  linear: number;
  /** Loss proportional to power² / rating. */
  quadratic: number;
}

export const inverterLosses = (ratedW: number): InverterLosses => ({ ratedW, standby: 0.004, linear: 0.012, quadratic: 0.018 });

/** Conversion loss, W, when `powerW` flows through the inverter (either direction). */
export function conversionLoss(inv: InverterLosses, powerW: number): number {
  const p = Math.abs(powerW);
  return Math.min(p, inv.standby * inv.ratedW) + inv.linear * p + (inv.quadratic * p * p) / inv.ratedW;
}

/** AC power for a net DC power (positive: inverting DC → AC; negative: rectifying AC → DC, so AC drawn). */
export function acFromDc(inv: InverterLosses, dcW: number): number {
  return dcW >= 0 ? dcW - conversionLoss(inv, dcW) : dcW - conversionLoss(inv, -dcW);
}

/** The net DC power that yields `acW` (inverse of acFromDc). */
export function dcForAc(inv: InverterLosses, acW: number): number {
  // dc = ac + loss(dc) for ac ≥ 0; |dc| = |ac| − loss(|dc|) for ac < 0. loss′ < 1, so the
  // fixed-point iteration contracts; a handful of rounds is exact to well under a watt.
  const sign = acW >= 0 ? 1 : -1;
  const ac = Math.abs(acW);
  let dc = ac;
  for (let i = 0; i < 8; i++) dc = Math.max(0, ac + sign * conversionLoss(inv, dc));
  return sign * dc;
}

/** Efficiency at a DC input, 0..1. */
export function efficiency(inv: InverterLosses, dcW: number): number {
  return dcW > 0 ? Math.max(0, acFromDc(inv, dcW)) / dcW : 0;
}

export interface PvInverterOutput {
  /** DC power actually drawn from the array, W (below the MPP power when clipping or limited). */
  dcW: number;
  acW: number;
  clipped: boolean;
}

/** A PV inverter fed by an array with `mppW` available and an output limit (rating × power limit). */
export function pvInverterOutput(inv: InverterLosses, mppW: number, limitW = inv.ratedW): PvInverterOutput {
  const cap = Math.min(limitW, inv.ratedW);
  const ac = acFromDc(inv, mppW);
  if (ac <= cap) return { dcW: mppW, acW: Math.max(0, ac), clipped: false };
  return { dcW: dcForAc(inv, cap), acW: cap, clipped: true };
}

/** Maximum-power-point voltage of a string: falls with cell temperature, a little with low light; 0 in the dark. */
export function mppVoltage(vmpStc: number, cellC: number, poa: number): number {
  if (poa < 2) return 0;
  const light = 1 + 0.035 * Math.log(Math.min(1.2, poa / 1000));
  return Math.max(0.6 * vmpStc, vmpStc * (1 - 0.0029 * (cellC - 25)) * light);
}
