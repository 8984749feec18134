import { useSyncExternalStore } from 'react';

/** What the person sees about one message on its way to the cloud. */
export type TSyncProgress =
  | { state: 'sending'; sentBytes: number; totalBytes: number }
  | { state: 'checking' }
  | { state: 'full'; message: string }
  | { state: 'waiting'; message: string };

const progress = new Map<string, TSyncProgress>();
const listeners = new Set<() => void>();
let snapshot: ReadonlyMap<string, TSyncProgress> = new Map();

function publish() {
  snapshot = new Map(progress);
  for (const listener of listeners) listener();
}

export function setSyncProgress(videoId: string, value: TSyncProgress | null): void {
  if (value) progress.set(videoId, value);
  else progress.delete(videoId);
  publish();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Live progress of every message being sent from this tab. */
export function useSyncProgress(): ReadonlyMap<string, TSyncProgress> {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}

/** 'Sending to the cloud… 42%' and friends, in words a person reads at a glance. */
export function describeSyncProgress(value: TSyncProgress): string {
  switch (value.state) {
    case 'sending': {
      const percent = Math.floor((value.sentBytes / Math.max(1, value.totalBytes)) * 100);
      return `Sending to the cloud… ${percent}%`;
    }
    case 'checking':
      return 'Checking the copy in the cloud…';
    case 'full':
    case 'waiting':
      return value.message;
  }
}
