import { describe, expect, it } from 'vitest';
import { newClaimKey, secretHash, secretMatches } from './gateways.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('claim keys', () => {
  it('carry 128 random bits: 26 base32 characters, every bit position varying', () => {
    const keys = Array.from({ length: 2000 }, newClaimKey);
    for (const key of keys) expect(key).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(new Set(keys).size).toBe(keys.length);
    // Decode back to bits: each of the 128 leading bits is set in some keys and clear in others
    // (a key made from fewer random bytes, padded or repeated, leaves positions constant).
    const ones = new Array<number>(130).fill(0);
    for (const key of keys) {
      [...key].forEach((c, i) => {
        const v = ALPHABET.indexOf(c);
        for (let b = 0; b < 5; b++) if (v & (16 >> b)) ones[i * 5 + b]!++;
      });
    }
    for (let bit = 0; bit < 128; bit++) {
      expect(ones[bit]).toBeGreaterThan(keys.length * 0.4);
      expect(ones[bit]).toBeLessThan(keys.length * 0.6);
    }
    // The two padding bits after the 128th are always zero.
    expect(ones.slice(128)).toEqual([0, 0]);
  });

  it('are stored as a hash and compared exactly', () => {
    const key = newClaimKey();
    expect(secretMatches(secretHash(key), key)).toBe(true);
    expect(secretMatches(secretHash(key), key.toLowerCase())).toBe(false);
  });
});
