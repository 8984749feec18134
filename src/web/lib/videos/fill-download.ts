import { NetworkError } from '@web/lib/api-client';
import { discardStaged, MAX_CHUNK_BYTES, stageChunks, type TChunk } from './local-store';

/**
 * A cloud copy's download for the new device's fill (cloud-fill.ts): read as it arrives, so each
 * 4 MiB chunk can be written to the library while the rest is still on its way (`stageInLibrary`),
 * and never left hanging when the connection goes.
 */

/** A copy the store did not hand over (an expired link, the server away): worth another try. */
export class CopyUnavailableError extends Error {}

/**
 * A download that sends nothing for this long is given up as lost: a connection that dies
 * mid-body (a tablet leaving the Wi-Fi) can leave a fetch waiting for minutes, and the fill with it.
 */
export const STALL_MS = 30_000;

/**
 * Handed each whole 4 MiB chunk (and the last, shorter one) in order, as it arrives. The view is
 * only good during the call (the next read takes its buffer over): copy it then.
 */
export type TOnChunk = (index: number, bytes: Uint8Array<ArrayBuffer>) => void;

/** Asked of a body whose declared length is reached, to learn that it ended (or did not). */
const PAST_END_BYTES = 64 * 1024;

/** Room for the bytes still to come: the declared length, else twice what is held. */
function grow(held: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  if (needed <= held.length) return held;
  const larger = new Uint8Array(Math.max(needed, held.length * 2, MAX_CHUNK_BYTES));
  larger.set(held);
  return larger;
}

/**
 * Reads a body into one buffer, straight into it where the browser can (a byte stream's own
 * reader), else by copying each piece the stream hands over.
 */
function bodyReader(body: ReadableStream<Uint8Array<ArrayBuffer>>) {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream (an older browser, a test's stand-in): pieces are copied in.
  }
  const pieces = byob ? null : body.getReader();
  /** Reads once more into `bytes` after `length`; answers the buffer and how many bytes came. */
  return async (bytes: Uint8Array<ArrayBuffer>, length: number) => {
    if (pieces) {
      const { done, value } = await pieces.read();
      if (done) return { bytes, added: 0, done };
      const held = grow(bytes, length + value.length);
      held.set(value, length);
      return { bytes: held, added: value.length, done };
    }
    if (length === bytes.length) {
      // Full: a small read tells the end from more than was declared.
      const { done, value } = await byob!.read(new Uint8Array(PAST_END_BYTES));
      if (done || !value) return { bytes, added: 0, done: true };
      const held = grow(bytes, length + value.length);
      held.set(value, length);
      return { bytes: held, added: value.length, done };
    }
    const { done, value } = await byob!.read(new Uint8Array(bytes.buffer, length));
    // The read took the buffer over and hands it back in `value`.
    if (!value) throw new TypeError('the body was cancelled');
    return { bytes: new Uint8Array(value.buffer), added: value.length, done };
  };
}

/** Reads the body into one buffer (WebCrypto hashes one), handing on each chunk once whole. */
async function readAll(response: Response, onChunk: TOnChunk | undefined, onRead: () => void) {
  const declared = Number(response.headers.get('content-length'));
  let bytes = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 0);
  let length = 0;
  let handedOn = 0;
  const read = bodyReader(response.body as ReadableStream<Uint8Array<ArrayBuffer>>);
  for (;;) {
    const next = await read(bytes, length);
    onRead();
    bytes = next.bytes;
    length += next.added;
    for (; onChunk && length - handedOn * MAX_CHUNK_BYTES >= MAX_CHUNK_BYTES; handedOn += 1) {
      onChunk(
        handedOn,
        bytes.subarray(handedOn * MAX_CHUNK_BYTES, (handedOn + 1) * MAX_CHUNK_BYTES),
      );
    }
    if (next.done) break;
  }
  // The last chunk, shorter; an empty copy is one empty chunk, as the library keeps it.
  if (onChunk && (length > handedOn * MAX_CHUNK_BYTES || handedOn === 0)) {
    onChunk(handedOn, bytes.subarray(handedOn * MAX_CHUNK_BYTES, length));
  }
  return length === bytes.length ? bytes : bytes.subarray(0, length);
}

/**
 * The copy's bytes, each chunk handed to `onChunk` as soon as it is whole. Cookies go only to our
 * own address, never to a store elsewhere. A lost connection (the browser going offline, or
 * nothing arriving for STALL_MS) throws NetworkError; an answer other than the copy,
 * CopyUnavailableError.
 */
export async function downloadCopy(
  url: string,
  onChunk?: TOnChunk,
): Promise<Uint8Array<ArrayBuffer>> {
  const controller = new AbortController();
  let stall: ReturnType<typeof setTimeout> | undefined;
  const lose = () => controller.abort();
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(lose, STALL_MS);
  };
  window.addEventListener('offline', lose);
  watch();
  try {
    let response: Response;
    try {
      response = await fetch(url, { credentials: 'same-origin', signal: controller.signal });
    } catch (error) {
      throw new NetworkError(error);
    }
    if (!response.ok) throw new CopyUnavailableError(`the copy answered ${response.status}`);
    try {
      return await readAll(response, onChunk, watch);
    } catch (error) {
      // The connection went while the copy was arriving.
      throw new NetworkError(error);
    }
  } finally {
    clearTimeout(stall);
    window.removeEventListener('offline', lose);
  }
}

/** Chunks written in one transaction at most: enough to spread a commit's cost, little held. */
const MAX_CHUNKS_A_WRITE = 8;

/**
 * Writes a plain copy's chunks to the library as they arrive, over whatever an earlier try left:
 * those that arrived while the last write ran go together in the next. `written` settles once the
 * last chunk handed over is written.
 */
export function stageInLibrary(videoId: string) {
  const stage = { written: discardStaged(videoId), chunkCount: 0 };
  const waiting: TChunk[] = [];
  let isWriting = false;
  const writeWaiting = async () => {
    while (waiting.length > 0) await stageChunks(waiting.splice(0, MAX_CHUNKS_A_WRITE));
    isWriting = false;
  };
  const write = (index: number, bytes: Uint8Array<ArrayBuffer>) => {
    // Copied now: the next read takes the buffer over.
    waiting.push({ videoId, index, data: new Blob([bytes]) });
    stage.chunkCount = index + 1;
    if (isWriting) return;
    isWriting = true;
    stage.written = stage.written.then(writeWaiting);
  };
  return Object.assign(stage, { write });
}
