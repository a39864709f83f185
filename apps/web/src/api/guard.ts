/**
 * The request-button guard (3000 ms). A click starts the action and further clicks
 * are ignored until the request ends; an action that is not a request (returns no promise)
 * holds the guard for `limits.requestButtonGuardMs`.
 */
import { limits } from '@sunfleet/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface ActionGuard {
  /** Run `action` unless the guard is held; returns whether it ran. */
  run(action: () => unknown): boolean;
  readonly busy: boolean;
  dispose(): void;
}

export function createActionGuard(
  onChange: (busy: boolean) => void = () => {},
  ms: number = limits.requestButtonGuardMs,
): ActionGuard {
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    clearTimeout(timer);
    busy = false;
    onChange(false);
  };
  return {
    run(action) {
      if (busy) return false;
      busy = true;
      onChange(true);
      let result: unknown;
      try {
        result = action();
      } catch (err) {
        release();
        throw err;
      }
      if (result instanceof Promise) result.then(release, release);
      else timer = setTimeout(release, ms);
      return true;
    },
    get busy() {
      return busy;
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}

/** `const [run, busy] = useGuardedAction(() => mutation.mutateAsync(values))`. */
export function useGuardedAction<A extends unknown[]>(
  action: (...args: A) => unknown,
  ms: number = limits.requestButtonGuardMs,
): [(...args: A) => void, boolean] {
  const [busy, setBusy] = useState(false);
  const guard = useRef<ActionGuard | null>(null);
  guard.current ??= createActionGuard(setBusy, ms);
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => () => guard.current?.dispose(), []);
  const run = useCallback((...args: A) => {
    // The action reports its own errors (toasts, inline); the guard only needs it to settle.
    guard.current?.run(() => {
      const result = latest.current(...args);
      return result instanceof Promise ? result.catch(() => {}) : result;
    });
  }, []);
  return [run, busy];
}
