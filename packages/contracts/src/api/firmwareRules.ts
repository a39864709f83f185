// The firmware library's shared rules: the image types and upgrade modes, the upload limits,
// what is wrong with an upload, and the code a version that is not higher answers.
import Type from 'typebox';
import { ErrorCode } from '../errors.ts';
import { limits } from '../limits.ts';
import { Nullable } from '../schemas.ts';
import { isFirmwareFileName, isFirmwareVersion } from '../validation.ts';
import { compareVersions } from '../versionOrder.ts';

export const firmwareTypes = ['gateway', 'inverter'] as const;
export type FirmwareType = (typeof firmwareTypes)[number];
export const upgradeModes = ['IAP', 'ISP'] as const;
export type UpgradeMode = (typeof upgradeModes)[number];

/** Firmware image limits: the file at most 1.5 MiB (binary megabytes: 1,572,864 bytes). */
export const firmwareRules = {
  maxBytes: limits.firmwareBytes,
  fileNameMax: limits.firmwareFileName,
  versionMax: 40,
  extensions: ['.bin', '.hex'],
  changeLogMax: 2000,
  /** Product name, EPN, brand, hardware and software version texts. */
  textMax: 64,
} as const;

export type FirmwareUploadProblem = 'fileMissing' | 'extension' | 'tooLarge' | 'empty' | 'fileName' | 'version' | 'notHigher';

/**
 * What is wrong with an upload, or null: the file (name, extension, size) and the version
 * against the product's versions. One rule for both sides.
 */
export function firmwareUploadProblem(
  file: { name: string; size: number } | null,
  version: string,
  productVersions: Iterable<string> = [],
): FirmwareUploadProblem | null {
  if (!file) return 'fileMissing';
  const lower = file.name.toLowerCase();
  if (!firmwareRules.extensions.some((ext) => lower.endsWith(ext))) return 'extension';
  if (!isFirmwareFileName(file.name)) return 'fileName';
  if (file.size > firmwareRules.maxBytes) return 'tooLarge';
  if (file.size === 0) return 'empty';
  if (!isFirmwareVersion(version) || version.length > firmwareRules.versionMax) return 'version';
  for (const v of productVersions) if (compareVersions(version, v) <= 0) return 'notHigher';
  return null;
}

/** The code a version that is not higher answers: the same version is a duplicate (4000). */
export function versionRefusal(type: FirmwareType, version: string, productVersions: Iterable<string>): VersionRefusal | null {
  let refusal: VersionRefusal | null = null;
  for (const v of productVersions) {
    const c = compareVersions(version, v);
    if (c === 0) return ErrorCode.firmwareNameTaken;
    if (c < 0) refusal = type === 'gateway' ? ErrorCode.softwareLatest : ErrorCode.firmwareLatest;
  }
  return refusal;
}

/** The codes a version that is not higher answers (duplicate, firmware or software already the latest). */
type VersionRefusal = typeof ErrorCode.firmwareNameTaken | typeof ErrorCode.firmwareLatest | typeof ErrorCode.softwareLatest;

/** A free text of the library (product name, EPN, brand, …), at most `max` characters. */
export const firmwareText = (max: number = firmwareRules.textMax) => Type.String({ maxLength: max });
/** An optional text that `null` clears. */
export const optionalFirmwareText = (max?: number) => Type.Optional(Nullable(firmwareText(max)));
