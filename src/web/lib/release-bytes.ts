/**
 * Gives a large buffer's memory back now instead of at some later garbage collection. A worker
 * that reads one 100 MB video after another otherwise kept a gigabyte of finished buffers alive
 * at once, too much for a tablet. Only for bytes nothing will read again: the buffer is emptied.
 * A browser without `ArrayBuffer.prototype.transfer` frees it at the next collection, as before.
 */
export function releaseBytes(bytes: Uint8Array<ArrayBuffer>): void {
  const buffer = bytes.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  buffer.transfer?.(0);
}
