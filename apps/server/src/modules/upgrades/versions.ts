/**
 * The version a device reports, and whether it is the version an upgrade installs.
 * A gateway says its software version in `up/state` on every connect (ingest keeps it as the
 * gateway's `sw_version`); an inverter has it in its nameplate registers, decoded by ingest into
 * its latest values as hex bytes (`firmware`, or `controlFirmware` for storage inverters): bytes
 * "0x03 0x02 0x00 0x05" are version 3_2_0_5 (`registerVersion`).
 */
import { compareVersions, registerVersion } from '@sunfleet/contracts';

/** The version in an inverter's latest values (`registerVersion`: "3_2_0_5"); null when it has none. */
export function inverterVersion(values: Record<string, unknown>): string | null {
  const raw = values.firmware ?? values.controlFirmware;
  return typeof raw === 'string' ? registerVersion(raw) : null;
}

/**
 * Whether a reported version is the target: the same in the version order (1.10 = 1.010); an
 * inverter's register version has only numbers, so the target's letters ("V3.2.0.6") do not count.
 */
export function isVersion(kind: 'gateway' | 'inverter', reported: string | null, target: string): boolean {
  if (reported === null) return false;
  if (kind === 'inverter') return compareVersions(numbers(reported), numbers(target)) === 0;
  return compareVersions(reported, target) === 0;
}

/** The numbers of a version only, in the version order's form ("V3_2_0_6" → "3_2_0_6"). */
const numbers = (v: string) => (v.match(/\d+/g) ?? []).join('_');
