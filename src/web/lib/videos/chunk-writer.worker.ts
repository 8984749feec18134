import { keptConnection, transactionDone } from '@web/lib/idb-connection';
import { CopyFetchError, fetchBody, readInParts, RefusedPartError } from './body-parts';
import {
  WRITER_READY_ID,
  type TChunkWriteReply,
  type TChunkWriterRequest,
  type TCopyFetched,
  type TCopyFetchRequest,
} from './chunk-writer-messages';
import { copyWrites, writeInBatches } from './write-batches';

/**
 * Writes chunks of a copy being brought down to the library's `chunks` store, away from the
 * page: the Blobs made here are the browser's to drop as soon as this worker ends, not at the
 * page's next garbage collection. Every chunk is answered once its write committed, or failed.
 * A plain copy it is asked to fetch is read, hashed a part at a time and written here, so its
 * bytes never pass through the page; it is answered once all of it arrived, and again once every
 * chunk of it is written.
 */

// The DOM library types `self` as a window; in here it is the worker's own scope.
const post = (reply: TChunkWriteReply) => (self as unknown as Worker).postMessage(reply);

/** The library as the page's Dexie made it (this worker never changes its shape). */
const openLibrary = (name: string) => keptConnection(() => indexedDB.open(name));
let library: ReturnType<typeof openLibrary> | null = null;

interface TChunkRow {
  library: string;
  videoId: string;
  index: number;
  data: Blob;
}

async function writeChunks(rows: TChunkRow[]): Promise<void> {
  library ??= openLibrary(rows[0]!.library);
  const transaction = (await library()).transaction('chunks', 'readwrite');
  const store = transaction.objectStore('chunks');
  for (const { videoId, index, data } of rows) store.put({ videoId, index, data });
  await transactionDone(transaction);
}

const write = writeInBatches(writeChunks);

/** Copies being fetched, to be given up when the page says so. */
const fetching = new Map<number, AbortController>();
/** Copies given up before their request arrived. */
const givenUp = new Set<number>();

/**
 * Fetches a copy and writes it as `chunkBytes` chunks, each part hashed as it arrives. Reading
 * waits while more than a few chunks wait to be written, so it never runs far ahead of the
 * library; each chunk's Blob takes its own copy, so the part's buffer is read over next.
 */
async function fetchCopy(
  request: TCopyFetchRequest,
  signal: AbortSignal,
  onDownloaded: (partSha256s: string[]) => void,
): Promise<TCopyFetched> {
  const { library: name, videoId, url, chunkBytes } = request;
  const writes = copyWrites();
  const writeChunk = (bytes: Uint8Array<ArrayBuffer>) => {
    // Made from a copy of its own: the worker's garbage collector counts those bytes, so it runs
    // as often as chunks handed over from the page made it run, and the browser's memory held
    // for each Blob written goes with it (made from the reused part, 512 MB brought down held
    // about as much there until the worker ended).
    writes.add(
      write({ library: name, videoId, index: writes.count, data: new Blob([bytes.slice()]) }),
    );
  };
  const read = await fetchBody(url, signal, (body, _declared, onRead) =>
    readInParts(
      body,
      async (part) => {
        // An empty copy is one empty chunk, as the library keeps it.
        for (let at = 0; at < part.length || at === 0; at += chunkBytes) {
          writeChunk(part.subarray(at, at + chunkBytes));
        }
        await writes.roomForMore();
      },
      onRead,
    ),
  ).catch(async (error: unknown) => {
    // Writes still under way are let finish, so none lands after the next try has begun.
    await writes.settled();
    throw error;
  });
  onDownloaded(read.partSha256s);
  await writes.all();
  return { byteSize: read.byteSize, chunkCount: writes.count, partSha256s: read.partSha256s };
}

/** Why a fetch failed, as the page is told it. */
function failureOf(id: number, error: unknown): TChunkWriteReply {
  if (error instanceof CopyFetchError) return { id, error: error.message, failure: error.kind };
  const cause = error instanceof RefusedPartError ? error.cause : error;
  return { id, error: String(cause), failure: 'write' };
}

async function answerFetch(request: TCopyFetchRequest): Promise<void> {
  const controller = new AbortController();
  fetching.set(request.id, controller);
  if (givenUp.delete(request.id)) controller.abort();
  try {
    const fetched = await fetchCopy(request, controller.signal, (downloaded) =>
      post({ id: request.id, error: null, downloaded }),
    );
    post({ id: request.id, error: null, fetched });
  } catch (error) {
    post(failureOf(request.id, error));
  } finally {
    fetching.delete(request.id);
  }
}

self.addEventListener('message', (event: MessageEvent<TChunkWriterRequest>) => {
  const request = event.data;
  if (request.kind === 'abort') {
    const controller = fetching.get(request.id);
    if (controller) controller.abort();
    else givenUp.add(request.id);
    return;
  }
  if (request.kind === 'fetch') return void answerFetch(request);
  const { id, library: name, videoId, index, bytes } = request;
  write({ library: name, videoId, index, data: new Blob([bytes]) }).then(
    () => post({ id, error: null }),
    (error: unknown) => post(failureOf(id, error)),
  );
});

// Running: the page may hand requests over now.
post({ id: WRITER_READY_ID, error: null });
