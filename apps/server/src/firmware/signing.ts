/**
 * The server's firmware signing key and where firmware images live.
 * An image is stored once under `<data>/firmware/<sha256>.bin` (content-addressed: the same bytes
 * uploaded twice are one file). Its signature is Ed25519 over the 32-byte SHA-256 digest, by a key
 * the server makes on first start and keeps in `<data>/keys/firmware-ed25519.pem` (mode 0600);
 * the public key (raw 32 bytes, base64) is part of gateway provisioning, so a device can check an
 * image before it flashes it.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface FirmwareSigner {
  /** Base64 Ed25519 signature of the digest (hex SHA-256 of the image). */
  sign(sha256Hex: string): string;
  /** The public key as base64 of its raw 32 bytes. */
  publicKey: string;
}

export const firmwareDir = (dataDir: string) => path.join(dataDir, 'firmware');
export const firmwareBlobPath = (dataDir: string, sha256Hex: string) => {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) throw new Error('not a SHA-256 hex digest');
  return path.join(firmwareDir(dataDir), `${sha256Hex}.bin`);
};

const keyPath = (dataDir: string) => path.join(dataDir, 'keys', 'firmware-ed25519.pem');

/** Loads the key from the data folder, making it there first if there is none. */
export function loadFirmwareSigner(dataDir: string): FirmwareSigner {
  const file = keyPath(dataDir);
  let privateKey: KeyObject;
  if (fs.existsSync(file)) {
    privateKey = createPrivateKey(fs.readFileSync(file));
  } else {
    privateKey = generateKeyPairSync('ed25519').privateKey;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // `wx`: two processes starting together must not both write; the loser reads the winner's key.
    try {
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      privateKey = createPrivateKey(fs.readFileSync(file));
    }
  }
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  return {
    publicKey,
    sign: (sha256Hex) => sign(null, digestBytes(sha256Hex), privateKey).toString('base64'),
  };
}

/** Checks a signature against a base64 raw public key, as a device does. */
export function verifyFirmwareSignature(publicKeyBase64: string, sha256Hex: string, signatureBase64: string): boolean {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyBase64, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, digestBytes(sha256Hex), key, Buffer.from(signatureBase64, 'base64'));
}

function digestBytes(sha256Hex: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) throw new Error('not a SHA-256 hex digest');
  return Buffer.from(sha256Hex, 'hex');
}

function rawPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' }) as { x: string };
  return Buffer.from(jwk.x, 'base64url').toString('base64');
}
