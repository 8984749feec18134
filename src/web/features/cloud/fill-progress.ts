import { useSyncExternalStore } from 'react';
import type { TFillProgress } from '@web/lib/videos/cloud-fill';

// How bringing the cloud's messages to this device stands, from the background run
// (cloud-sync.tsx) to the line on the dashboard's cloud card. Nothing until a run has work.

let current: TFillProgress | null = null;
const listeners = new Set<() => void>();

export function setFillProgress(progress: TFillProgress): void {
  current = progress;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useFillProgress(): TFillProgress | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}
