/**
 * The inverter parameter picker (`inverter/params`) and each account's saved parameter
 * profiles (`inverter/params/custom`): at most 6 profiles of at most 6 parameters.
 * Profiles are the caller's own (no object scope); a saved parameter must be chartable for
 * some shipped inverter protocol.
 */
import { ErrorCode, type Language, limits } from '@sunfleet/contracts';
import { protocols } from '@sunfleet/protocols';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { now, parseJson } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { iso } from '../../time/index.ts';
import { planOf } from './fields.ts';
import { inverter } from './inverters.ts';
import { chartParams, defaultParams, paramOut } from './params.ts';
import { profilesOf, replaceProfiles } from './profiles.repo.ts';

export async function inverterParams(db: Db, caller: Caller, sn: string, lan: Language) {
  const device = await inverter(db, caller, sn);
  const plan = planOf(device.protocolId);
  return {
    protocol: device.protocolId,
    params: plan ? chartParams(plan, 'inverter').map((p) => paramOut(p, lan)) : [],
    defaults: plan ? defaultParams(plan, 'inverter') : [],
    maxSelected: limits.parametersOrProfiles,
    maxProfiles: limits.parametersOrProfiles,
  };
}

let inverterKeys: ReadonlySet<string> | null = null;
/** Every chartable parameter of the shipped inverter protocols. */
function chartableInverterKeys(): ReadonlySet<string> {
  if (!inverterKeys) {
    const keys = new Set<string>();
    for (const definition of Object.values(protocols)) {
      if (definition.kind !== 'inverter') continue;
      const plan = planOf(definition.id);
      if (plan) for (const p of chartParams(plan, 'inverter')) keys.add(p.key);
    }
    inverterKeys = keys;
  }
  return inverterKeys;
}

export async function listProfiles(db: Db, caller: Caller) {
  const rows = await profilesOf(db, caller.user.id);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    params: parseJson<string[]>(r.params, []),
    updatedAt: iso(r.updated_at)!,
  }));
}

export async function saveProfiles(db: Db, caller: Caller, profiles: { name: string; params: string[] }[]) {
  if (profiles.length > limits.parametersOrProfiles)
    fail(ErrorCode.validation, `body.profiles: at most ${limits.parametersOrProfiles}`);
  const known = chartableInverterKeys();
  const clean = profiles.map((p, i) => {
    const name = p.name.trim();
    if (!name) fail(ErrorCode.validation, `body.profiles/${i}/name: required`);
    const params = [...new Set(p.params)];
    if (params.length > limits.parametersOrProfiles)
      fail(ErrorCode.validation, `body.profiles/${i}/params: at most ${limits.parametersOrProfiles}`);
    const unknown = params.find((k) => !known.has(k));
    if (unknown) fail(ErrorCode.validation, `body.profiles/${i}/params: "${unknown}" is not a chartable parameter`);
    return { name, params };
  });
  const t = now();
  await db.transaction().execute(async (trx) => {
    await replaceProfiles(trx, caller.user.id, clean, t);
  });
  return listProfiles(db, caller);
}
