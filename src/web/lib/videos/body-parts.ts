import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud-messages';
import { sha256HexOfBytes } from '@web/lib/sha256';

/**
 * Reading a copy's body as it arrives, whole or a part (8 MiB, as it was sent) at a time, for the
 * new device's fill: in the page (fill-download.ts) and in the chunk writer, a worker
 * (chunk-writer.worker.ts). So it imports nothing of the page's.
 */

/** Asked of a body whose declared length is reached, to learn that it ended (or did not). */
const PAST_END_BYTES = 64 * 1024;

/** A buffer that grows is grown to at least this, so a body of unknown length grows seldom. */
const MIN_GROWN_BYTES = 4 * 1024 * 1024;

/** Room for the bytes still to come: the declared length, else twice what is held. */
function grow(held: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  if (needed <= held.length) return held;
  const larger = new Uint8Array(Math.max(needed, held.length * 2, MIN_GROWN_BYTES));
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
export async function readAll(
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
export class RefusedPartError extends Error {}

/** A part of a copy as it arrived; `bytes` is only good during the call (copy to keep). */
export type TOnPart = (bytes: Uint8Array<ArrayBuffer>) => Promise<void> | void;

/**
 * Reads the body a part (8 MiB, as it was sent) at a time into one buffer: each part is hashed
 * and handed to `onPart` before the next is read over it (WebCrypto takes its copy as it is
 * asked). Answers the size and each part's SHA-256, in order.
 */
export async function readInParts(
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
 * A download that sends nothing for this long is given up as lost: a connection that dies
 * mid-body (a tablet leaving the Wi-Fi) can leave a fetch waiting for minutes, and the fill with
 * it.
 */
export const STALL_MS = 30_000;

/** Why a copy did not arrive: the connection went, or the store answered something else. */
export class CopyFetchError extends Error {
  constructor(
    readonly kind: 'network' | 'unavailable',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * Fetches a copy and reads its body with `read`. Cookies go only to our own address, never to a
 * store elsewhere. Given up (CopyFetchError 'network') when `signal` aborts or nothing arrives
 * for STALL_MS; an answer other than the copy is CopyFetchError 'unavailable'. What `read`'s part
 * handler refused comes out as it was thrown (RefusedPartError).
 */
export async function fetchBody<T>(
  url: string,
  signal: AbortSignal,
  read: (
    body: ReadableStream<Uint8Array<ArrayBuffer>>,
    declared: number,
    onRead: () => void,
  ) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const lose = () => controller.abort();
  let stall: ReturnType<typeof setTimeout> | undefined;
  const watch = () => {
    clearTimeout(stall);
    stall = setTimeout(lose, STALL_MS);
  };
  if (signal.aborted) lose();
  signal.addEventListener('abort', lose);
  watch();
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        credentials: 'same-origin',
        // The copy is kept in the library: written to the browser's HTTP cache as well, it took
        // the tablet's disk twice and the network service a third more time.
        cache: 'no-store',
        signal: controller.signal,
      });
    } catch (error) {
      throw new CopyFetchError('network', 'the copy could not be asked for', { cause: error });
    }
    if (!response.ok) {
      throw new CopyFetchError('unavailable', `the copy answered ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length'));
    try {
      return await read(
        response.body as ReadableStream<Uint8Array<ArrayBuffer>>,
        Number.isSafeInteger(declared) && declared > 0 ? declared : 0,
        watch,
      );
    } catch (error) {
      if (error instanceof RefusedPartError) throw error;
      throw new CopyFetchError('network', 'the copy stopped arriving', { cause: error });
    }
  } finally {
    clearTimeout(stall);
    signal.removeEventListener('abort', lose);
  }
}
