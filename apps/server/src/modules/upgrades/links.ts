/**
 * Signed firmware download links: `{base}/anonymous/firmware/{id}?exp={s}&sig={hmac}` where the
 * signature is HMAC-SHA256 over `{id}.{exp}` (base64url), by a key from configuration
 * (UPGRADE_LINK_SECRET) or made once in the data folder (`keys/upgrade-links.key`, mode 0600), so
 * every process sharing the configuration or the data folder signs and checks the same links.
 * A link works until `exp` (epoch seconds); a forged or expired one is refused.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface LinkSigner {
  /** The download URL of firmware `id`, valid until `expiresAt` (epoch ms, rounded up to a second). */
  url(id: number, expiresAt: number): string;
  /** Whether `sig` is this server's signature of firmware `id` until `exp`, and `exp` has not passed. */
  verify(id: number, exp: number, sig: string, now?: number): boolean;
}

const keyFile = (dataDir: string) => path.join(dataDir, 'keys', 'upgrade-links.key');

/** The link key: the configured secret, or the data folder's key (made there first if there is none). */
export function linkKey(dataDir: string, secret: string | null): Buffer {
  if (secret) return Buffer.from(secret, 'utf8');
  const file = keyFile(dataDir);
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  const key = randomBytes(32);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // `wx`: two processes starting together must not both write; the loser reads the winner's key.
  try {
    fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  }
}

export function linkSigner(baseUrl: string, key: Buffer): LinkSigner {
  const mac = (id: number, exp: number) => createHmac('sha256', key).update(`${id}.${exp}`).digest('base64url');
  return {
    url(id, expiresAt) {
      const exp = Math.ceil(expiresAt / 1000);
      return `${baseUrl}/anonymous/firmware/${id}?exp=${exp}&sig=${mac(id, exp)}`;
    },
    verify(id, exp, sig, now = Date.now()) {
      if (exp * 1000 <= now) return false;
      const want = Buffer.from(mac(id, exp));
      const got = Buffer.from(sig);
      return got.length === want.length && timingSafeEqual(got, want);
    },
  };
}
