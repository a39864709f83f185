/** Server data of a rollout's page: the rollout, read again while it is under way, and pause, resume, cancel. */
import { upgradesApi } from '@sunfleet/contracts';
import { call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { OPEN_STATES } from './rollout.ts';

/** A running rollout (or one with devices under way) is read again this often. */
export const ROLLOUT_POLL_MS = 3000;

export function useRollout(id: string) {
  return useApiQuery(
    upgradesApi.rollout,
    { params: { id } },
    {
      refetchInterval: (x) => {
        const r = x.state.data;
        if (!r) return false;
        const underWay = OPEN_STATES.some((s) => s !== 'pending' && (r.counts[s] ?? 0) > 0);
        return r.state === 'running' || underWay ? ROLLOUT_POLL_MS : false;
      },
    },
  );
}

export type RolloutAction = typeof upgradesApi.pauseRollout | typeof upgradesApi.resumeRollout | typeof upgradesApi.cancelRollout;

/** Pause, resume or cancel a rollout. */
export function actOnRollout(ep: RolloutAction, id: string) {
  return call(ep, { params: { id } });
}
