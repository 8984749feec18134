import { WRITER_READY_ID, type TChunkWriteReply, type TChunkWriteRequest } from './chunk-writer';
import { writeInBatches } from './write-batches';

/**
 * Writes chunks of a copy being brought down to the library's `chunks` store, away from the
 * page: the Blobs made here are the browser's to drop as soon as this worker ends, not at the
 * page's next garbage collection. Every chunk is answered once its write committed, or failed.
 */

// The DOM library types `self` as a window; in here it is the worker's own scope.
const post = (reply: TChunkWriteReply) => (self as unknown as Worker).postMessage(reply);

let opened: Promise<IDBDatabase> | null = null;

/** The library as the page's Dexie made it (this worker never changes its shape). */
function openLibrary(name: string): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => {
      const db = request.result;
      // The page upgrading the library closes this connection; the next write opens it again.
      db.onversionchange = () => {
        db.close();
        opened = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error);
  }).catch((error: unknown) => {
    opened = null;
    throw error;
  });
  return opened;
}

async function writeChunks(requests: TChunkWriteRequest[]): Promise<void> {
  const db = await openLibrary(requests[0]!.library);
  await new Promise<void>((resolve, reject) => {
    const transaction = db.transaction('chunks', 'readwrite');
    const store = transaction.objectStore('chunks');
    for (const { videoId, index, bytes } of requests) {
      store.put({ videoId, index, data: new Blob([bytes]) });
    }
    transaction.oncomplete = () => resolve();
    transaction.onerror = () =>
      reject(transaction.error ?? new Error('the chunks were not written'));
    transaction.onabort = () =>
      reject(transaction.error ?? new Error('the chunks were not written'));
  });
}

const write = writeInBatches(writeChunks);

self.addEventListener('message', (event: MessageEvent<TChunkWriteRequest>) => {
  const { id } = event.data;
  write(event.data).then(
    () => post({ id, error: null }),
    (error: unknown) => post({ id, error: String(error) }),
  );
});

// Running: the page may hand chunks over now.
post({ id: WRITER_READY_ID, error: null });
