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
export const newClaimKey = () => randomBytes(6).toString('hex').toUpperCase();

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
