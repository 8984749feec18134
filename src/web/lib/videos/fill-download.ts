import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud-messages';
import { NetworkError } from '@web/lib/api-client';
import { sha256HexOfBytes } from '@web/lib/sha256';
import { endWhenIdle, writeChunk as writeToLibrary } from './chunk-writer';
import { discardStaged, MAX_CHUNK_BYTES } from './local-store';

/**
 * A cloud copy's download for the new device's fill (fill-copy.ts), never left hanging when the
 * connection goes: read a part at a time, each part hashed and handed on (to be written to the
 * library) while the rest is on its way; read whole only to hash an old copy known by its whole
 * SHA-256.
 */

/** A copy the store did not hand over (an expired link, the server away): worth another try. */
export class CopyUnavailableError extends Error {}

/**
 * A download that sends nothing for this long is given up as lost: a connection that dies
 * mid-body (a tablet leaving the Wi-Fi) can leave a fetch waiting for minutes, and the fill with
 * it.
 */
export const STALL_MS = 30_000;

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

/**
 * Reads a body into `start` (grown when it is full): after each read `take` is handed the buffer
 * and how much it holds, and answers how much it left there. Answers the buffer and that length.
 */
async function readBody(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  start: Uint8Array<ArrayBuffer>,
  onRead: () => void,
  take: (bytes: Uint8Array<ArrayBuffer>, length: number) => Promise<number> | number,
) {
  const read = bodyReader(body);
  let bytes = start;
  let length = 0;
  for (;;) {
    const next = await read(bytes, length);
    onRead();
    bytes = next.bytes;
    length = await take(bytes, length + next.added);
    if (next.done) return { bytes, length };
  }
}

/** Reads the body into one buffer. */
async function readAll(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  declared: number,
  onRead: () => void,
) {
  const { bytes, length } = await readBody(
    body,
    new Uint8Array(declared),
    onRead,
    (_, held) => held,
  );
  return length === bytes.length ? bytes : bytes.subarray(0, length);
}

/** A part `onPart` refused: its own error, not the connection's. */
class RefusedPartError extends Error {}

/** A part of a copy as it arrived; `bytes` is only good during the call (copy to keep). */
type TOnPart = (bytes: Uint8Array<ArrayBuffer>) => Promise<void> | void;

/**
 * Reads the body a part (8 MiB, as it was sent) at a time into one buffer: each part is hashed
 * and handed to `onPart` before the next is read over it (WebCrypto takes its copy as it is
 * asked). Answers the size and each part's SHA-256, in order.
 */
async function readInParts(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  onPart: TOnPart,
  onRead: () => void,
) {
  let byteSize = 0;
  const sums: Promise<string>[] = [];
  /** Hands on the first `end` bytes and moves what follows them to the front. */
  const takePart = async (bytes: Uint8Array<ArrayBuffer>, length: number, end: number) => {
    const part = bytes.subarray(0, end);
    sums.push(sha256HexOfBytes(part));
    byteSize += end;
    try {
      await onPart(part);
    } catch (error) {
      throw new RefusedPartError('the part was refused', { cause: error });
    }
    // A stream that is no byte stream may have handed over more than the part.
    bytes.copyWithin(0, end, length);
    return length - end;
  };
  const { bytes, length } = await readBody(
    body,
    new Uint8Array(UPLOAD_PART_BYTES),
    onRead,
    async (held, heldLength) => {
      let left = heldLength;
      while (left >= UPLOAD_PART_BYTES) left = await takePart(held, left, UPLOAD_PART_BYTES);
      return left;
    },
  );
  // The last part, shorter; an empty copy is one empty part, as it was sent.
  if (length > 0 || sums.length === 0) await takePart(bytes, length, length);
  return { byteSize, partSha256s: await Promise.all(sums) };
}

/**
 * Opens the copy and reads its body with `read`. Cookies go only to our own address, never to a
 * store elsewhere. A lost connection (the browser going offline, or nothing arriving for
 * STALL_MS) throws NetworkError; an answer other than the copy, CopyUnavailableError.
 */
async function download<T>(
  url: string,
  read: (
    body: ReadableStream<Uint8Array<ArrayBuffer>>,
    declared: number,
    onRead: () => void,
  ) => Promise<T>,
): Promise<T> {
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
    const declared = Number(response.headers.get('content-length'));
    try {
      return await read(
        response.body as ReadableStream<Uint8Array<ArrayBuffer>>,
        Number.isSafeInteger(declared) && declared > 0 ? declared : 0,
        watch,
      );
    } catch (error) {
      // What the reader refused (a sealed segment that failed its check) is said as it is.
      if (error instanceof RefusedPartError) throw error.cause;
      // The connection went while the copy was arriving.
      throw new NetworkError(error);
    }
  } finally {
    clearTimeout(stall);
    window.removeEventListener('offline', lose);
  }
}

/** A copy's bytes, whole. */
export function downloadCopy(url: string): Promise<Uint8Array<ArrayBuffer>> {
  return download(url, readAll);
}

/** A copy a part at a time (see `readInParts`): its size and its parts' SHA-256s. */
export function downloadCopyInParts(url: string, onPart: TOnPart) {
  return download(url, (body, _declared, onRead) => readInParts(body, onPart, onRead));
}

/** Chunks handed to the library and not yet written, above which reading waits. */
const MAX_CHUNKS_WAITING = 8;

/**
 * Writes a copy's bytes to the library as they arrive, as the library's 4 MiB chunks, over
 * whatever an earlier try left (`writeChunk`, chunk-writer.ts). `write` takes pieces of any size
 * (copied) and waits while more than a few chunks wait to be written, so a download never runs
 * far ahead of the library; `finish` writes the last, shorter chunk and settles once every chunk is written (or
 * throws why one was not). `finish(false)` only lets the writes under way end (a failed try).
 */
export function stageInLibrary(videoId: string) {
  const cleared = discardStaged(videoId);
  const writes: Promise<void>[] = [];
  const waiting = new Set<Promise<void>>();
  let chunkCount = 0;
  let byteSize = 0;
  let filling = new Uint8Array(MAX_CHUNK_BYTES);
  let filled = 0;
  const writeChunk = (bytes: Uint8Array<ArrayBuffer>) => {
    const index = chunkCount++;
    const written = cleared.then(() => writeToLibrary({ videoId, index, bytes }));
    writes.push(written);
    // Its failure is heard by `finish`.
    const settled: Promise<void> = written
      .catch(() => undefined)
      .then(() => {
        waiting.delete(settled);
      });
    waiting.add(settled);
  };
  return {
    get chunkCount() {
      return chunkCount;
    },
    get byteSize() {
      return byteSize;
    },
    async write(bytes: Uint8Array) {
      for (let at = 0; at < bytes.length;) {
        const taken = Math.min(MAX_CHUNK_BYTES - filled, bytes.length - at);
        filling.set(bytes.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === MAX_CHUNK_BYTES) {
          writeChunk(filling);
          filling = new Uint8Array(MAX_CHUNK_BYTES);
          filled = 0;
        }
      }
      byteSize += bytes.length;
      while (waiting.size > MAX_CHUNKS_WAITING) await Promise.race(waiting);
    },
    async finish(isComplete = true): Promise<void> {
      // The last chunk, shorter; an empty copy is one empty chunk, as the library keeps it.
      if (isComplete && (filled > 0 || chunkCount === 0)) writeChunk(filling.slice(0, filled));
      endWhenIdle();
      await cleared;
      await Promise.all(writes);
    },
  };
}
