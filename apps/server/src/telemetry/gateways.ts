/**
 * Gateway identity: a gateway connects with client id = username = its SN and a device
 * secret; users bind it to a plant with the claim key printed on its label. Both are stored
 * only as SHA-256 (they are machine-made with 128+ bits of entropy, so a slow hash adds
 * nothing but connect-storm CPU).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { now } from '../db/index.ts';

export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function secretMatches(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(secretHash(presented), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newGatewaySecret = () => randomBytes(24).toString('base64url');
/** Crockford base32: no I, L, O or U, so a key read off a label is not mistyped. */
const LABEL_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CLAIM_KEY_BITS = 128;

/** The claim key printed on a gateway's label: 128 random bits as 26 base32 characters. */
export function newClaimKey(): string {
  const bytes = randomBytes(CLAIM_KEY_BITS / 8);
  let bits = 0;
  let value = 0;
  let key = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      key += LABEL_ALPHABET[(value >>> bits) & 31];
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) key += LABEL_ALPHABET[(value << (5 - bits)) & 31];
  return key;
}

export interface ProvisionedGateway {
  id: number;
  sn: string;
  secret: string;
  claimKey: string;
}

/** Register a gateway (factory or import). Returns the secrets once; only hashes are kept. */
export async function provisionGateway(
  db: Db,
  opts: {
    sn: string;
    secret?: string;
    claimKey?: string;
    plantId?: number | null;
    companyId?: number | null;
    alias?: string | null;
  },
): Promise<ProvisionedGateway> {
  const secret = opts.secret ?? newGatewaySecret();
  const claimKey = opts.claimKey ?? newClaimKey();
  const t = now();
  const row = await db
    .insertInto('gateways')
    .values({
      sn: opts.sn,
      secret_hash: secretHash(secret),
      claim_key_hash: secretHash(claimKey),
      alias: opts.alias ?? null,
      plant_id: opts.plantId ?? null,
      company_id: opts.companyId ?? null,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, sn: opts.sn, secret, claimKey };
}

/** The SNs of every gateway not deleted (the broker accounts that may exist). */
export async function liveGatewaySns(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('gateways').select('sn').where('deleted_at', 'is', null).execute();
  return new Set(rows.map((r) => r.sn));
}
