import { useSyncExternalStore, type ReactNode } from 'react';

/** As the product asks: one toast at a time, and a dismissed toast is removed only this late. */
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 1_000_000;

export type TToastVariant = 'default' | 'destructive' | 'success';

export interface TToastInput {
  title: string;
  description?: ReactNode;
  variant?: TToastVariant;
  /** Milliseconds before it closes itself; the Toaster's default applies when omitted. */
  duration?: number;
}

export interface TToast extends TToastInput {
  id: string;
  open: boolean;
}

let toasts: TToast[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: TToast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      setToasts(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string) {
  for (const item of toasts) if (!id || item.id === id) scheduleRemoval(item.id);
  setToasts(toasts.map((item) => (!id || item.id === id ? { ...item, open: false } : item)));
}

export function toast(input: TToastInput): { id: string; dismiss: () => void } {
  nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(nextId);
  setToasts([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): TToast[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
