import { useCallback, useEffect, useState } from 'react';

export interface TStorageStatus {
  /** Bytes this site uses and may use, from `navigator.storage.estimate()`; null if unknown. */
  usage: number | null;
  quota: number | null;
  /** Whether the browser has promised not to clear this site's data under pressure. */
  isPersisted: boolean | null;
  canAskToPersist: boolean;
}

const UNKNOWN: TStorageStatus = {
  usage: null,
  quota: null,
  isPersisted: null,
  canAskToPersist: false,
};

async function readStorageStatus(): Promise<TStorageStatus> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage) return UNKNOWN;
  const [estimate, isPersisted] = await Promise.all([
    storage.estimate ? storage.estimate().catch(() => null) : null,
    storage.persisted ? storage.persisted().catch(() => null) : null,
  ]);
  return {
    usage: estimate?.usage ?? null,
    quota: estimate?.quota ?? null,
    isPersisted,
    canAskToPersist: typeof storage.persist === 'function',
  };
}

/**
 * The space used and free, and whether storage is persistent (else the browser may clear the
 * local videos). Read again whenever `refreshKey` changes, e.g. the number of videos here.
 */
export function useStorageStatus(refreshKey: unknown) {
  const [status, setStatus] = useState<TStorageStatus | null>(null);

  const refresh = useCallback(() => {
    void readStorageStatus().then(setStatus);
  }, []);

  useEffect(refresh, [refresh, refreshKey]);
  return { status, refresh };
}

/** Asks the browser to keep this site's data; true only if it agreed. */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}
