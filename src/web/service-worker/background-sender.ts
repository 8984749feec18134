// Who the service worker sends for when Memento is closed: the page keeps the signed-in owner's
// user id and this device's id here (the worker has no localStorage, where the device id lives);
// sign-out forgets them. An IndexedDB database of its own, read by page and worker alike.

/** The one-off Background Sync the page asks for and the worker answers. */
export const BACKGROUND_SEND_TAG = 'memento-send';

export type TSender = { userId: number; deviceId: string };

const DB_NAME = 'memento-background-send';
const STORE = 'sender';
const ROW = 'sender';

function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore<T>(
  mode: IDBTransactionMode,
  ask: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE);
  const db = await settle(request);
  try {
    const transaction = db.transaction(STORE, mode);
    const result = await settle(ask(transaction.objectStore(STORE)));
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
    return result;
  } finally {
    // Closed at once: a page or worker holding it open would stall a later version's upgrade.
    db.close();
  }
}

export function isSender(value: unknown): value is TSender {
  if (typeof value !== 'object' || value === null) return false;
  const sender = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(sender.userId) &&
    Number(sender.userId) > 0 &&
    typeof sender.deviceId === 'string' &&
    sender.deviceId.length > 0
  );
}

export async function keepSender(sender: TSender): Promise<void> {
  await withStore('readwrite', (store) => store.put(sender, ROW));
}

export async function findSender(): Promise<TSender | null> {
  const kept = await withStore<unknown>('readonly', (store) => store.get(ROW));
  return isSender(kept) ? kept : null;
}

export async function forgetSender(): Promise<void> {
  await withStore('readwrite', (store) => store.delete(ROW));
}
