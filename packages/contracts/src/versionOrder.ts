/**
 * The order of firmware and system version numbers ("higher than the latest"):
 * a version is split into segments at every run of digits and every run of letters (any other
 * character only separates): "V1.10-rc2" → v, 1, 10, rc, 2. Segments compare left to right:
 * two numeric segments as numbers (1.10 > 1.9, 007 = 7), two letter segments alphabetically
 * ignoring case, and a numeric segment ranks above a letter segment (1.1 > 1.rc). When one
 * version runs out of segments first, it is the lower (1.0 < 1.0.1, 1.0 < 1.0-b).
 */
export function compareVersions(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    if (typeof p === 'bigint' && typeof q === 'bigint') {
      if (p !== q) return p < q ? -1 : 1;
    } else if (typeof p === 'bigint') {
      return 1;
    } else if (typeof q === 'bigint') {
      return -1;
    } else if (p !== q) {
      return p < q ? -1 : 1;
    }
  }
  return Math.sign(x.length - y.length);
}

/** Whether `candidate` is strictly higher than every version in `existing`. */
export const isHigherThanAll = (candidate: string, existing: Iterable<string>) => {
  for (const v of existing) if (compareVersions(candidate, v) <= 0) return false;
  return true;
};

function segments(version: string): (bigint | string)[] {
  return (version.match(/\d+|[a-z]+/gi) ?? []).map((s) => (/^\d/.test(s) ? BigInt(s) : s.toLowerCase()));
}

/**
 * The version a device's firmware registers hold, in the version style (letters, digits, hyphen,
 * underscore): the protocol fixes them as one number per byte, written as hex bytes
 * ("03 02 00 05"), so the version is those numbers joined by underscores ("3_2_0_5"), ordered by
 * `compareVersions` as any other. Null when the text is not hex bytes.
 */
export function registerVersion(hex: string): string | null {
  const bytes = hex
    .trim()
    .split(/\s+/)
    .map((b) => b.replace(/^0x/i, ''));
  if (bytes.length === 0 || bytes.some((b) => !/^[0-9A-Fa-f]{1,2}$/.test(b))) return null;
  return bytes.map((b) => String(Number.parseInt(b, 16))).join('_');
}
