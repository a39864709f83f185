/**
 * The parameter picker's rules (at most 6 parameters and at most 6 profiles). Pure,
 * so the limits are tested without a browser. Profiles belong to the account (not to one
 * inverter): a profile saved on one model may name parameters another model lacks, which are
 * left out when it is applied there.
 */
import { limits } from '@sunfleet/contracts';
import type { SavedProfile } from '../shared/types.ts';

export const MAX_PARAMS = limits.parametersOrProfiles;
export const MAX_PROFILES = limits.parametersOrProfiles;
export const PROFILE_NAME_MAX = 32;

/** Tick or untick a parameter; a seventh is refused (the list comes back unchanged). */
export function toggleParam(selected: readonly string[], key: string, max: number = MAX_PARAMS): string[] {
  if (selected.includes(key)) return selected.filter((k) => k !== key);
  if (selected.length >= max) return [...selected];
  return [...selected, key];
}

/** Whether a parameter's box is disabled: the limit is reached and it is not ticked. */
export const paramLocked = (selected: readonly string[], key: string, max: number = MAX_PARAMS) =>
  selected.length >= max && !selected.includes(key);

/** A profile on this inverter: the parameters it has, and those it lacks. */
export function applyProfile(profile: Pick<SavedProfile, 'params'>, available: ReadonlySet<string>) {
  const params = profile.params.filter((k) => available.has(k)).slice(0, MAX_PARAMS);
  const missing = profile.params.filter((k) => !available.has(k));
  return { params, missing };
}

export type ProfileInput = { name: string; params: string[] };
export type SaveProblem = 'name' | 'empty' | 'tooMany' | 'tooManyParams';

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * The profiles after saving `name` with `params`: a profile of the same name (case-insensitive)
 * is replaced in place, otherwise one is added — unless there are 6 already.
 */
export function upsertProfile(
  profiles: ReadonlyArray<Pick<SavedProfile, 'name' | 'params'>>,
  name: string,
  params: readonly string[],
  max: number = MAX_PROFILES,
): { profiles: ProfileInput[] } | { problem: SaveProblem } {
  const trimmed = name.trim();
  if (!trimmed || [...trimmed].length > PROFILE_NAME_MAX) return { problem: 'name' };
  if (params.length === 0) return { problem: 'empty' };
  if (params.length > MAX_PARAMS) return { problem: 'tooManyParams' };
  const out = profiles.map((p) => ({ name: p.name, params: [...p.params] }));
  const at = out.findIndex((p) => sameName(p.name, trimmed));
  if (at >= 0) out[at] = { name: trimmed, params: [...params] };
  else if (out.length >= max) return { problem: 'tooMany' };
  else out.push({ name: trimmed, params: [...params] });
  return { profiles: out };
}

/** Whether saving under `name` would replace an existing profile. */
export const replacesProfile = (profiles: ReadonlyArray<Pick<SavedProfile, 'name'>>, name: string) =>
  profiles.some((p) => sameName(p.name, name));

/** The profiles without the one at `id`. */
export const withoutProfile = (profiles: readonly SavedProfile[], id: number): ProfileInput[] =>
  profiles.filter((p) => p.id !== id).map((p) => ({ name: p.name, params: [...p.params] }));
