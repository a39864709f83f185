import { describe, expect, it } from 'vitest';
import {
  applyProfile,
  MAX_PARAMS,
  MAX_PROFILES,
  paramLocked,
  toggleParam,
  upsertProfile,
  withoutProfile,
} from './paramProfiles.ts';

const six = ['a', 'b', 'c', 'd', 'e', 'f'];
const saved = (id: number, name: string, params: string[]) => ({ id, name, params, updatedAt: '2026-01-01T00:00:00.000Z' });

describe('parameter picker rules (at most 6 parameters, at most 6 profiles)', () => {
  it('limits are 6 and 6', () => {
    expect(MAX_PARAMS).toBe(6);
    expect(MAX_PROFILES).toBe(6);
  });

  it('refuses a seventh parameter and locks the unticked boxes at six', () => {
    expect(toggleParam(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleParam(six, 'g')).toEqual(six);
    expect(toggleParam(six, 'c')).toEqual(['a', 'b', 'd', 'e', 'f']);
    expect(paramLocked(six, 'g')).toBe(true);
    expect(paramLocked(six, 'a')).toBe(false);
    expect(paramLocked(['a'], 'g')).toBe(false);
  });

  it('adds a profile, replaces one of the same name, refuses a seventh', () => {
    const one = upsertProfile([], 'Strings', ['pv1Voltage', 'pv2Voltage']);
    expect(one).toEqual({ profiles: [{ name: 'Strings', params: ['pv1Voltage', 'pv2Voltage'] }] });
    const replaced = upsertProfile([saved(1, 'Strings', ['x'])], ' strings ', ['y']);
    expect(replaced).toEqual({ profiles: [{ name: 'strings', params: ['y'] }] });
    const full = Array.from({ length: 6 }, (_, i) => saved(i + 1, `P${i + 1}`, ['x']));
    expect(upsertProfile(full, 'P7', ['x'])).toEqual({ problem: 'tooMany' });
    expect(upsertProfile(full, 'p3', ['y'])).toMatchObject({ profiles: expect.arrayContaining([{ name: 'p3', params: ['y'] }]) });
    expect(upsertProfile([], '  ', ['x'])).toEqual({ problem: 'name' });
    expect(upsertProfile([], 'x'.repeat(33), ['x'])).toEqual({ problem: 'name' });
    expect(upsertProfile([], 'Empty', [])).toEqual({ problem: 'empty' });
    expect(upsertProfile([], 'Seven', [...six, 'g'])).toEqual({ problem: 'tooManyParams' });
  });

  it('applies a profile with the parameters this inverter has', () => {
    expect(applyProfile({ params: ['pv1Voltage', 'batterySoc', 'pv9Voltage'] }, new Set(['pv1Voltage', 'batterySoc']))).toEqual({
      params: ['pv1Voltage', 'batterySoc'],
      missing: ['pv9Voltage'],
    });
    expect(withoutProfile([saved(1, 'A', ['x']), saved(2, 'B', ['y'])], 1)).toEqual([{ name: 'B', params: ['y'] }]);
  });
});
