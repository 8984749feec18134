/**
 * Reads a Blob range after range into one buffer made here and used again for every read. A
 * buffer the browser makes for each read (`blob.slice(...).arrayBuffer()`) is freed only at some
 * later garbage collection: reading a gigabyte that way held about half of it at once in Chromium,
 * and emptying such buffers early made later reads of the same Blobs fail. Here the page holds one
 * range, whatever the Blob's size.
 *
 * Ranges read in order (each starting where the last ended) come from one open stream; a jump
 * opens a new one there. Where a browser's Blob stream takes no buffer of ours (older Safari),
 * each range is read the old way.
 */
export class BlobReader {
  private reader: ReadableStreamBYOBReader | null = null;
  private position = -1;
  private buffer: ArrayBuffer;
  private canReuse = true;

  /** `rangeBytes`: the usual range's size, so the buffer is made once. */
  constructor(
    private readonly blob: Blob,
    rangeBytes = 0,
  ) {
    this.buffer = new ArrayBuffer(rangeBytes);
  }

  get size(): number {
    return this.blob.size;
  }

  /**
   * Bytes `start` to `end` (or fewer where the Blob ends first). The view is the reader's own
   * buffer: read it, or copy from it, before the next call.
   */
  async read(start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    const length = Math.max(0, Math.min(end, this.blob.size) - start);
    if (!this.canReuse || !this.open(start)) {
      return new Uint8Array(await this.blob.slice(start, start + length).arrayBuffer());
    }
    if (this.buffer.byteLength < length) this.buffer = new ArrayBuffer(length);
    let filled = 0;
    while (filled < length) {
      const { value, done } = await this.reader!.read(
        new Uint8Array(this.buffer, filled, length - filled),
      );
      // The view handed in is given back as `value`, on the same memory.
      if (value) {
        this.buffer = value.buffer as ArrayBuffer;
        filled += value.byteLength;
      }
      if (done) break;
    }
    this.position = start + filled;
    return new Uint8Array(this.buffer, 0, filled);
  }

  /** Stops reading; the Blob's stream, if one is open, is let go. */
  close(): void {
    void this.reader?.cancel().catch(() => undefined);
    this.reader = null;
    this.position = -1;
  }

  /** A stream positioned at `start`, kept from the last read or opened there; false if none can be. */
  private open(start: number): boolean {
    if (this.reader && this.position === start) return true;
    this.close();
    try {
      this.reader = this.blob.slice(start).stream().getReader({ mode: 'byob' });
    } catch {
      this.canReuse = false;
      return false;
    }
    this.position = start;
    return true;
  }
}
