/**
 * What the progress bar and the loading overlay watch: navigation work in
 * flight — lazy page chunks and the shell's start-up requests. The overlay hides
 * `limits.loadingOverlayHideMs` (200 ms) after the last piece of work ends.
 */
import { limits } from '@sunfleet/contracts';
import { type ComponentType, type LazyExoticComponent, lazy, useSyncExternalStore } from 'react';

let pending = 0;
let visible = false;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function emit(next: boolean) {
  if (visible === next) return;
  visible = next;
  for (const listener of listeners) listener();
}

/** Mark the start of navigation work; call the returned function when it ends. */
export function beginNavigationWork(): () => void {
  pending++;
  clearTimeout(hideTimer);
  emit(true);
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    pending--;
    if (pending === 0) hideTimer = setTimeout(() => emit(false), limits.loadingOverlayHideMs);
  };
}

export async function trackNavigation<T>(work: Promise<T>): Promise<T> {
  const end = beginNavigationWork();
  try {
    return await work;
  } finally {
    end();
  }
}

export function useNavigationBusy(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => visible,
  );
}

export type LazyPage = LazyExoticComponent<ComponentType>;

/** A lazily loaded page whose chunk download shows the progress bar and overlay. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  return lazy(() => trackNavigation(load()));
}
