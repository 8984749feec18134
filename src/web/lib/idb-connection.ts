/**
 * Plain IndexedDB for code that runs without Dexie (a worker, the service worker), where one
 * connection is opened on first use and kept.
 */

/**
 * The connection `open` makes, opened once and kept: closed (and opened again on the next use)
 * when another context upgrades the database, so that upgrade never waits on this one; forgotten
 * when opening failed, so the next use tries again.
 */
export function keptConnection(open: () => IDBOpenDBRequest): () => Promise<IDBDatabase> {
  let opening: Promise<IDBDatabase> | null = null;
  return () => {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = open();
      request.onsuccess = () => {
        const db = request.result;
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
    }).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  };
}

/** Settles once the transaction committed; fails with its error when it did not. */
export function transactionDone(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}
