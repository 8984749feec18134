import { NetworkError } from '@web/lib/api-client';
import { MAX_CHUNK_BYTES } from './local-store';

/**
 * A cloud copy's download for the new device's fill (cloud-fill.ts): read as it arrives, so each
 * 4 MiB chunk can be written to the library while the rest is still on its way, and never left
 * hanging when the connection goes.
 */

/** A copy the store did not hand over (an expired link, the server away): worth another try. */
export class CopyUnavailableError extends Error {}

/**
 * A download that sends nothing for this long is given up as lost: a connection that dies
 * mid-body (a tablet leaving the Wi-Fi) can leave a fetch waiting for minutes, and the fill with it.
 */
export const STALL_MS = 30_000;

/** Handed each whole 4 MiB chunk (and the last, shorter one) in order, as it arrives. */
export type TOnChunk = (index: number, bytes: Uint8Array<ArrayBuffer>) => void;

/** Room for the bytes still to come: the declared length, else twice what is held. */
function grow(held: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  if (needed <= held.length) return held;
  const larger = new Uint8Array(Math.max(needed, held.length * 2, MAX_CHUNK_BYTES));
  larger.set(held);
  return larger;
}

/** Reads the body into one buffer (WebCrypto hashes one), handing on each chunk once whole. */
async function readAll(response: Response, onChunk: TOnChunk | undefined, onRead: () => void) {
  const declared = Number(response.headers.get('content-length'));
  let bytes = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 0);
  let length = 0;
  let handedOn = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    onRead();
    if (done) break;
    bytes = grow(bytes, length + value.length);
    bytes.set(value, length);
    length += value.length;
    for (; onChunk && length - handedOn * MAX_CHUNK_BYTES >= MAX_CHUNK_BYTES; handedOn += 1) {
      onChunk(
        handedOn,
        bytes.subarray(handedOn * MAX_CHUNK_BYTES, (handedOn + 1) * MAX_CHUNK_BYTES),
      );
    }
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
