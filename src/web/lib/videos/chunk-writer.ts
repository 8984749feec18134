import { LOCAL_DB_NAME, stageChunks, type TChunk } from './local-store';
import {
  WRITER_READY_ID,
  type TChunkWriteReply,
  type TChunkWriteRequest,
} from './chunk-writer-messages';
import { writeInBatches } from './write-batches';

/**
 * Writes the chunks of a copy being brought down (fill-download.ts) to the library. A Blob made
 * in the page stays in the browser's own memory until the page's next garbage collection, which a
 * page holding no large buffers seldom has: a fill read a part at a time piled its chunks up there
 * (about 250 MB more for 256 MB brought). So the chunks are handed, without a copy, to a worker of
 * the page's own that makes the Blobs and writes them, and each worker is ended once it has
 * written 64 MiB, or sat idle: what it made goes with it. Where no worker runs (an older browser,
 * a test's stand-in) or one failed, the page writes the chunks itself, as before.
 */

/** A worker is ended after this many chunks (64 MiB), once they are written. */
const CHUNKS_A_WORKER = 16;

interface TWorkerState {
  worker: Worker;
  /** Chunks handed to it, and of those the ones not yet written (or refused). */
  sent: number;
  unsettled: number;
  pending: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
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
  if (current === state) current = null;
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
    const job = state.pending.get(event.data.id);
    state.pending.delete(event.data.id);
    if (event.data.error === null) job?.resolve();
    else job?.reject(new Error(event.data.error));
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

/** The worker writing now: shared by the copies of a fill, one after another. */
let current: TWorkerState | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;

function retire() {
  clearTimeout(idle);
  if (!current) return;
  current.isRetired = true;
  endIfDone(current);
  current = null;
}

/**
 * Writes one chunk of a copy being brought down: by the worker where one runs (the bytes are
 * handed over), else by the page. The worker goes on to the next copy (starting one costs a tenth
 * of a second or more, longer than a short message takes to arrive); call `endWhenIdle` once a
 * copy's last chunk was handed over.
 */
export function writeChunk(chunk: {
  videoId: string;
  index: number;
  bytes: Uint8Array<ArrayBuffer>;
}) {
  clearTimeout(idle);
  if (current && current.sent >= CHUNKS_A_WORKER) retire();
  current ??= startWorker();
  const state = current;
  const inPage = () =>
    writeInPage({ videoId: chunk.videoId, index: chunk.index, data: new Blob([chunk.bytes]) });
  if (!state) return inPage();
  state.sent += 1;
  state.unsettled += 1;
  const written = state.isReady.then((isReady) => {
    if (!isReady || state.isFailed) return inPage();
    const id = nextId++;
    return new Promise<void>((resolve, reject) => {
      state.pending.set(id, { resolve, reject });
      const request: TChunkWriteRequest = { id, library: LOCAL_DB_NAME, ...chunk };
      state.worker.postMessage(request, [chunk.bytes.buffer]);
    });
  });
  return written.finally(() => {
    state.unsettled -= 1;
    endIfDone(state);
  });
}

/** Ends the worker unless another chunk comes soon. */
export function endWhenIdle(): void {
  clearTimeout(idle);
  idle = setTimeout(retire, IDLE_MS);
}
