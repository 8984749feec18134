import { keptConnection, transactionDone } from '@web/lib/idb-connection';
import {
  WRITER_READY_ID,
  type TChunkWriteReply,
  type TChunkWriteRequest,
} from './chunk-writer-messages';
import { writeInBatches } from './write-batches';

/**
 * Writes chunks of a copy being brought down to the library's `chunks` store, away from the
 * page: the Blobs made here are the browser's to drop as soon as this worker ends, not at the
 * page's next garbage collection. Every chunk is answered once its write committed, or failed.
 */

// The DOM library types `self` as a window; in here it is the worker's own scope.
const post = (reply: TChunkWriteReply) => (self as unknown as Worker).postMessage(reply);

/** The library as the page's Dexie made it (this worker never changes its shape). */
const openLibrary = (name: string) => keptConnection(() => indexedDB.open(name));
let library: ReturnType<typeof openLibrary> | null = null;

async function writeChunks(requests: TChunkWriteRequest[]): Promise<void> {
  library ??= openLibrary(requests[0]!.library);
  const transaction = (await library()).transaction('chunks', 'readwrite');
  const store = transaction.objectStore('chunks');
  for (const { videoId, index, bytes } of requests) {
    store.put({ videoId, index, data: new Blob([bytes]) });
  }
  await transactionDone(transaction);
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
