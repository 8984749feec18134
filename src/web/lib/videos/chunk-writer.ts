import { CopyFetchError } from './body-parts';
import {
  WRITER_READY_ID,
  type TChunkWriteReply,
  type TChunkWriterRequest,
  type TCopyFetched,
  type TCopyFetchRequest,
} from './chunk-writer-messages';
import { LOCAL_DB_NAME, stageChunks, type TChunk } from './local-store';
import { writeInBatches } from './write-batches';

/**
 * Writes the chunks of a copy being brought down (fill-download.ts) to the library. A Blob made
 * in the page stays in the browser's own memory until the page's next garbage collection, which a
 * page holding no large buffers seldom has: a fill read a part at a time piled its chunks up there
 * (about 250 MB more for 256 MB brought). So the chunks are handed, without a copy, to a worker of
 * the page's own that makes the Blobs and writes them, and each worker is ended once it has
 * written 64 MiB, or sat idle: what it made goes with it. Where no worker runs (an older browser,
 * a test's stand-in) or one failed, the page writes the chunks itself, as before.
 *
 * A plain copy is better still fetched by the worker itself (`fetchInWriter`): its bytes are then
 * read, hashed and cut into chunks away from the page's thread, which a dashboard drawing the
 * library as it grows keeps busy enough to slow the fill down.
 */

/** A worker is ended after this many chunks (64 MiB), once they are written. */
const CHUNKS_A_WORKER = 16;

interface TWorkerState {
  worker: Worker;
  /** Chunks handed to it, and of those the ones not yet written (or refused). */
  sent: number;
  unsettled: number;
  pending: Map<
    number,
    {
      resolve: (reply: TCopyFetched | null) => void;
      reject: (error: Error) => void;
      onDownloaded?: (partSha256s: string[]) => void;
    }
  >;
  isRetired: boolean;
  /** It broke: what it held is lost, and nothing more is handed to it. */
  isFailed: boolean;
  /** Whether its script runs; a worker that never started loses nothing (the page writes). */
  isReady: Promise<boolean>;
}

/** Where no worker writes, the page does, the chunks that wait going together. */
const writeInPage = writeInBatches<TChunk>(stageChunks);

/** Once a worker would not start or broke, the page writes: no second try in this page. */
let isUnusable = typeof Worker === 'undefined';
let nextId = WRITER_READY_ID + 1;

function endIfDone(state: TWorkerState) {
  if (state.isRetired && state.unsettled === 0) state.worker.terminate();
}

function fail(state: TWorkerState, error: Error) {
  isUnusable = true;
  state.isFailed = true;
  writers = writers.filter((writer) => writer !== state);
  state.worker.terminate();
  for (const job of state.pending.values()) job.reject(error);
  state.pending.clear();
}

function startWorker(): TWorkerState | null {
  if (isUnusable) return null;
  let worker: Worker;
  try {
    // Served from our own origin, so the content security policy needs nothing new.
    worker = new Worker(new URL('./chunk-writer.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    isUnusable = true;
    return null;
  }
  let settleReady: (isReady: boolean) => void = () => undefined;
  const state: TWorkerState = {
    worker,
    sent: 0,
    unsettled: 0,
    pending: new Map(),
    isRetired: false,
    isFailed: false,
    isReady: new Promise((resolve) => (settleReady = resolve)),
  };
  worker.addEventListener('message', (event: MessageEvent<TChunkWriteReply>) => {
    if (event.data.id === WRITER_READY_ID) return settleReady(true);
    const reply = event.data;
    const job = state.pending.get(reply.id);
    if (reply.error === null && 'downloaded' in reply) return job?.onDownloaded?.(reply.downloaded);
    state.pending.delete(reply.id);
    if (reply.error === null) job?.resolve(reply.fetched ?? null);
    else if (reply.failure === 'write') job?.reject(new Error(reply.error));
    else job?.reject(new CopyFetchError(reply.failure, reply.error));
  });
  worker.addEventListener('error', (event) => {
    // It would not start (an older browser, its script refused) or broke: the page writes from
    // now on. Chunks it already held are refused, so their copy is tried again.
    event.preventDefault();
    settleReady(false);
    fail(state, new Error('the chunk writer stopped'));
  });
  return state;
}

/** A worker idle this long after the last copy closed is ended (the next copy starts one). */
const IDLE_MS = 2_000;

/**
 * Workers at once. One worker reading, hashing and writing a long copy kept its thread busy
 * nine tenths of the fill while the other core had room: the two copies on their way at once
 * each get their own.
 */
const MAX_WRITERS = 2;

/** The workers writing now, shared by the copies of a fill. */
let writers: TWorkerState[] = [];
let idle: ReturnType<typeof setTimeout> | undefined;

function retire(state: TWorkerState) {
  state.isRetired = true;
  writers = writers.filter((writer) => writer !== state);
  endIfDone(state);
}

/**
 * The worker to hand the next request to: the one with least in hand, or a new one while each
 * has something (once one has done its share, it is ended as soon as it has written it).
 */
function writerNow(): TWorkerState | null {
  clearTimeout(idle);
  for (const writer of writers) if (writer.sent >= CHUNKS_A_WORKER) retire(writer);
  const least = writers.reduce<TWorkerState | null>(
    (best, writer) => (best && best.unsettled <= writer.unsettled ? best : writer),
    null,
  );
  if (least && (least.unsettled === 0 || writers.length >= MAX_WRITERS)) return least;
  const started = startWorker();
  if (!started) return least;
  writers.push(started);
  return started;
}

/**
 * Hands `request` to the worker once it runs, and settles with its answer; where the worker
 * would not start, or broke before, `unless` answers instead.
 */
function ask(
  state: TWorkerState,
  request: TChunkWriterRequest,
  transfer: Transferable[],
  unless: () => Promise<TCopyFetched | null>,
  onDownloaded?: (partSha256s: string[]) => void,
): Promise<TCopyFetched | null> {
  state.unsettled += 1;
  const answered = state.isReady.then((isReady): Promise<TCopyFetched | null> => {
    if (!isReady || state.isFailed) return unless();
    return new Promise<TCopyFetched | null>((resolve, reject) => {
      state.pending.set(request.id, { resolve, reject, onDownloaded });
      state.worker.postMessage(request, transfer);
    });
  });
  return answered.finally(() => {
    state.unsettled -= 1;
    endIfDone(state);
  });
}

/**
 * Writes one chunk of a copy being brought down: by the worker where one runs (the bytes are
 * handed over), else by the page. The worker goes on to the next copy (starting one costs a tenth
 * of a second or more, longer than a short message takes to arrive); call `endWhenIdle` once a
 * copy's last chunk was handed over.
 */
export async function writeChunk(chunk: {
  videoId: string;
  index: number;
  bytes: Uint8Array<ArrayBuffer>;
}): Promise<void> {
  const inPage = () =>
    writeInPage({ videoId: chunk.videoId, index: chunk.index, data: new Blob([chunk.bytes]) });
  const state = writerNow();
  if (!state) return inPage();
  state.sent += 1;
  const request = { kind: 'chunk', id: nextId++, library: LOCAL_DB_NAME, ...chunk } as const;
  await ask(state, request, [chunk.bytes.buffer], () => inPage().then(() => null));
}

/**
 * Has the worker fetch a plain copy and write it as chunks, its parts hashed as they arrive;
 * null where no worker runs (the page then fetches it). `onDownloaded` hears the parts' SHA-256s
 * once all of the copy arrived, before its last chunks are written. Throws CopyFetchError as
 * fetchBody does, or an Error when the library would not take a chunk. `signal` gives it up.
 */
export async function fetchInWriter(
  copy: Pick<TCopyFetchRequest, 'videoId' | 'url' | 'chunkBytes'>,
  signal: AbortSignal,
  onDownloaded: (partSha256s: string[]) => void,
): Promise<TCopyFetched | null> {
  const state = writerNow();
  if (!state) return null;
  const id = nextId++;
  const abort = () => {
    if (!state.isFailed)
      state.worker.postMessage({ kind: 'abort', id } satisfies TChunkWriterRequest);
  };
  signal.addEventListener('abort', abort);
  try {
    const request = { kind: 'fetch', id, library: LOCAL_DB_NAME, ...copy } as const;
    const fetched = await ask(state, request, [], async () => null, onDownloaded);
    // Its chunks count towards the worker's share, as if handed one by one.
    if (fetched) state.sent += fetched.chunkCount;
    return fetched;
  } finally {
    signal.removeEventListener('abort', abort);
    endWhenIdle();
  }
}

/** Ends the workers unless another chunk comes soon. */
export function endWhenIdle(): void {
  clearTimeout(idle);
  idle = setTimeout(() => {
    for (const writer of writers) retire(writer);
  }, IDLE_MS);
}
