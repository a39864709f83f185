import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firmwareBlobPath, loadFirmwareSigner, verifyFirmwareSignature } from './signing.ts';

const digest = (s: string) => createHash('sha256').update(s).digest('hex');

describe('firmware signing key', () => {
  it('is made once and kept: a second load signs with the same key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-key-'));
    const first = loadFirmwareSigner(dir);
    const second = loadFirmwareSigner(dir);
    expect(second.publicKey).toBe(first.publicKey);
    expect(Buffer.from(first.publicKey, 'base64')).toHaveLength(32);
    const sig = first.sign(digest('image'));
    expect(verifyFirmwareSignature(second.publicKey, digest('image'), sig)).toBe(true);
    expect(fs.statSync(path.join(dir, 'keys', 'firmware-ed25519.pem')).mode & 0o777).toBe(0o600);
  });

  it('a signature does not verify for other bytes or another key', () => {
    const a = loadFirmwareSigner(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-key-')));
    const b = loadFirmwareSigner(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-key-')));
    const sig = a.sign(digest('image'));
    expect(verifyFirmwareSignature(a.publicKey, digest('other'), sig)).toBe(false);
    expect(verifyFirmwareSignature(b.publicKey, digest('image'), sig)).toBe(false);
  });

  it('blob paths are named by a digest only', () => {
    expect(firmwareBlobPath('/d', 'a'.repeat(64))).toBe(path.join('/d', 'firmware', `${'a'.repeat(64)}.bin`));
    expect(() => firmwareBlobPath('/d', '../etc/passwd')).toThrow();
  });
});
