import { concatBytes, type TBytes } from './bytes';
import { SealingError } from './errors';

/**
 * Reads a stream in pieces of exactly the sizes asked for, whatever sizes it arrives in. It holds
 * at most one piece plus one incoming chunk, so memory stays bounded whatever the stream's length.
 */
export class ExactReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private isDone = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  /** Exactly `size` bytes; a stream that ends first is cut short ('truncated'). */
  async read(size: number): Promise<TBytes> {
    while (this.pendingBytes < size && (await this.pull())) {
      // pull() has added a chunk.
    }
    if (this.pendingBytes < size) {
      throw new SealingError('truncated', 'The sealed message ends too early.');
    }
    return this.take(size);
  }

  /** True when nothing is left; reads ahead at most one chunk to know. */
  async isAtEnd(): Promise<boolean> {
    while (this.pendingBytes === 0 && (await this.pull())) {
      // An empty chunk says nothing yet.
    }
    return this.pendingBytes === 0;
  }

  async cancel(): Promise<void> {
    this.pending = [];
    this.pendingBytes = 0;
    await this.reader.cancel().catch(() => undefined);
  }

  private async pull(): Promise<boolean> {
    if (this.isDone) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.isDone = true;
      return false;
    }
    this.pending.push(value);
    this.pendingBytes += value.length;
    return true;
  }

  private take(size: number): TBytes {
    const pieces: Uint8Array[] = [];
    let needed = size;
    while (needed > 0) {
      const head = this.pending[0] as Uint8Array;
      if (head.length <= needed) {
        pieces.push(head);
        this.pending.shift();
        needed -= head.length;
      } else {
        pieces.push(head.subarray(0, needed));
        this.pending[0] = head.subarray(needed);
        needed = 0;
      }
    }
    this.pendingBytes -= size;
    return concatBytes(...pieces);
  }
}

/** A stream of one byte array, so callers can pass bytes or a fetch body alike. */
export function streamOf(
  source: Uint8Array | ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  if (source instanceof ReadableStream) return source;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(source);
      controller.close();
    },
  });
}
