import { describe, expect, it } from 'vitest';
import { OPEN_STATES, STATE_ORDER, waveLabel } from './rollout.ts';

describe('rollout page helpers', () => {
  it('names the canary and the waves after it', () => {
    const t = ((key: string, o?: { n: number }) => (o ? `${key}:${o.n}` : key)) as never;
    expect(waveLabel(t, 0)).toBe('upgrade.rollout.canaryWave');
    expect(waveLabel(t, 2)).toBe('upgrade.rollout.waveN:2');
  });
  it('lists every state once, those under way first', () => {
    expect(new Set(STATE_ORDER).size).toBe(8);
    expect(STATE_ORDER.slice(0, OPEN_STATES.length)).toEqual(OPEN_STATES);
  });
});
