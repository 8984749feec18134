import { compositeChecksumInput } from '@shared/domain/composite-checksum';

/** SHA-256 as lower-case hex, with WebCrypto (which exists only on https or localhost). */
export async function sha256HexOfBytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A Blob's SHA-256, read whole (WebCrypto hashes one buffer). The buffer is only dropped, never
 * given back with `releaseBytes`: the browser made it, and still holds it after that.
 */
export async function sha256Hex(blob: Blob): Promise<string> {
  return sha256HexOfBytes(new Uint8Array(await blob.arrayBuffer()));
}

/**
 * Gives a large buffer's memory back now instead of at some later garbage collection. A worker
 * that reads one 100 MB video after another otherwise kept a gigabyte of finished buffers alive
 * at once, too much for a tablet. Only for bytes nothing will read again: the buffer is emptied.
 * A browser without `ArrayBuffer.prototype.transfer` frees it at the next collection, as before.
 *
 * Never for a buffer the browser made (`blob.arrayBuffer()`, `response.arrayBuffer()`): Chromium
 * keeps its own reference to those, so emptying one only hides it from the collector until some
 * later collection, and the page's memory grew by every byte read (a 1 GB library read to move
 * it kept about 1 GB). Dropped, they count towards the next collection and go with it.
 */
export function releaseBytes(bytes: Uint8Array<ArrayBuffer>): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  buffer.transfer?.(0);
}

/** The composite checksum of a copy sent part by part: SHA-256 over its parts' digests. */
export function compositeSha256Hex(partSha256s: readonly string[]): Promise<string> {
  return sha256HexOfBytes(compositeChecksumInput(partSha256s));
}
