/**
 * Binding a gateway to a plant with the SN and the claim key printed on its label (stored as
 * a SHA-256, compared in constant time). Answers: 1006 no such gateway or the key is wrong (the
 * same answer, after the same work, so nobody learns which SNs exist), 301 the gateway is bound
 * to another plant. The key is checked before 301, so only someone holding the label learns
 * that a gateway is in use. A gateway's first plant gets its whole
 * history (what it sent before anyone claimed it, e.g. while it was commissioned, belongs to no
 * one else). A gateway that has been in a plant before moves its devices into the new plant from
 * that instant on (`bound_at`: the plant sees their data from the binding, never an earlier
 * owner's). Unbinding takes them out (their history stays with the plant's day rollups and
 * events) and marks the gateway as having had a plant (`bound_at` = the unbinding time).
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { gatewayFor, plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { refreshPlantSummary } from '../../energy/plant-summary.ts';
import { fail } from '../../http/errors.ts';
import { secretHash, secretMatches } from '../../telemetry/gateways.ts';
import * as repo from './binding.repo.ts';

export interface Claim {
  sn: string;
  key: string;
}

/** Compared against when the SN is unknown, so an unknown SN costs what a wrong key costs. */
const NO_GATEWAY_HASH = secretHash(randomBytes(24).toString('base64url'));

async function claimed(db: Db, claim: Claim) {
  const gateway = await repo.gatewayToClaim(db, claim.sn.trim());
  const matches = secretMatches(gateway?.claim_key_hash ?? NO_GATEWAY_HASH, claim.key.trim());
  if (!gateway || !matches) return fail(ErrorCode.gatewayCredentials);
  return gateway;
}

/** `gateways/check`: the gateway exists, the key is right and it is free. */
export async function checkGateway(db: Db, claim: Claim) {
  const gateway = await claimed(db, claim);
  if (gateway.plant_id !== null) fail(ErrorCode.gatewayUsed);
  return { sn: gateway.sn };
}

/** Bind inside a transaction (plant creation binds in the one that makes the plant). */
export async function bindClaimed(trx: Db, claim: Claim, plantId: number) {
  const gateway = await claimed(trx, claim);
  if (gateway.plant_id !== null && gateway.plant_id !== plantId) fail(ErrorCode.gatewayUsed);
  const t = now();
  // Binding again to the plant it is in changes nothing; a first plant takes the whole history
  // (bound_at stays 0); any other binding starts afresh.
  const moved = gateway.plant_id !== plantId;
  const boundAt = gateway.plant_id === null && Number(gateway.bound_at) === 0 ? 0 : t;
  // Someone else bound it between the read and the write.
  if (!(await repo.bindToPlant(trx, gateway.id, plantId, boundAt, moved, t))) fail(ErrorCode.gatewayUsed);
  if (moved) await repo.endOpenEvents(trx, [gateway.id], t);
  return { sn: gateway.sn, previousPlantId: gateway.plant_id };
}

export async function bindGateway(db: Db, caller: Caller, plantId: number, claim: Claim) {
  await plantFor(db, caller, plantId, 'operate');
  const result = await db.transaction().execute((trx) => bindClaimed(trx, claim, plantId));
  await refreshPlantSummary(db, [plantId]);
  return { sn: result.sn };
}

/** Unbind a gateway of a plant the caller operates; any other gateway "does not exist" (305). */
export async function unbindGateway(db: Db, caller: Caller, sn: string) {
  const gateway = await gatewayFor(db, caller, { sn }, { need: 'operate', onPlant: true });
  const plantId = gateway.plantId!;
  await unbindFrom(db, [gateway.id]);
  await refreshPlantSummary(db, [plantId]);
  return null;
}

/** Take gateways (and their devices) out of their plant. */
export async function unbindFrom(db: Db, gatewayIds: number[]) {
  if (gatewayIds.length === 0) return;
  const t = now();
  await db.transaction().execute(async (trx) => {
    await repo.unbindGateways(trx, gatewayIds, t);
    await repo.endOpenEvents(trx, gatewayIds, t);
  });
}
