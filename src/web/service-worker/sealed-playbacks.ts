import { keptConnection, transactionDone } from '@web/lib/idb-connection';
import type { TSealedPlayback } from './sealed-messages';

/**
 * The messages this worker may open, in memory and in an IndexedDB database of its own: the
 * browser stops an idle worker, and the one it starts for the player's next request must still
 * answer. Cleared at sign-out. The content keys cannot be exported, as in the page.
 */
const DB_NAME = 'memento-sealed-playback';
const STORE = 'playbacks';
/** The newest this many are kept: a player open for an older one registers it again. */
const MAX_KEPT = 20;

type TKept = TSealedPlayback & { keptAt: number };

const inMemory = new Map<string, TKept>();

function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// A newer worker's upgrade must not wait on this one (`keptConnection` closes for it).
const openDb = keptConnection(() => {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'videoId' });
  return request;
});

export async function keepPlayback(playback: TSealedPlayback): Promise<void> {
  const kept: TKept = { ...playback, keptAt: Date.now() };
  inMemory.set(kept.videoId, kept);
  const db = await openDb();
  const transaction = db.transaction(STORE, 'readwrite');
  const store = transaction.objectStore(STORE);
  store.put(kept);
  const all = await settle(store.getAll() as IDBRequest<TKept[]>);
  const older = all.sort((a, b) => b.keptAt - a.keptAt).slice(MAX_KEPT);
  for (const old of older) {
    store.delete(old.videoId);
    inMemory.delete(old.videoId);
  }
  await transactionDone(transaction);
}

export async function findPlayback(videoId: string): Promise<TSealedPlayback | undefined> {
  const known = inMemory.get(videoId);
  if (known) return known;
  const db = await openDb();
  const kept = await settle(
    db.transaction(STORE, 'readonly').objectStore(STORE).get(videoId) as IDBRequest<
      TKept | undefined
    >,
  );
  if (kept) inMemory.set(videoId, kept);
  return kept;
}

/** A fresh playback URL, asked for by the worker when the kept one had expired. */
export async function updatePlaybackUrl(videoId: string, url: string): Promise<void> {
  const kept = await findPlayback(videoId);
  if (!kept) return;
  await keepPlayback({ ...kept, url });
}

export async function forgetPlaybacks(): Promise<void> {
  inMemory.clear();
  const db = await openDb();
  const transaction = db.transaction(STORE, 'readwrite');
  transaction.objectStore(STORE).clear();
  await transactionDone(transaction);
}
