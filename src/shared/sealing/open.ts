import type { TBytes } from './bytes';
import { SealingError } from './errors';
import { ExactReader, streamOf } from './exact-reader';
import {
  HEADER_BYTES,
  parseHeader,
  sealedRangeFor,
  sealedSize,
  segmentCount,
  segmentParameters,
  segmentPlaintextRange,
  segmentSealedRange,
  TAG_BYTES,
  type TSealedHeader,
} from './format';

/** Reads sealed bytes [start, end) of the stored object, e.g. by a fetch with a Range header. */
export type TSealedReader = (
  start: number,
  end: number,
) => Promise<Uint8Array | ReadableStream<Uint8Array>>;

export async function openSegment(
  key: CryptoKey,
  header: TSealedHeader,
  index: number,
  sealed: TBytes,
): Promise<TBytes> {
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(segmentParameters(header, index), key, sealed),
    );
  } catch {
    throw new SealingError(
      'segment',
      'This message has been changed or damaged and cannot be played.',
    );
  }
}

/**
 * The header of a stored object, checked against the message it should be and the object's size
 * (a cut or lengthened object is refused before any segment is fetched).
 */
export async function readHeader(
  read: TSealedReader,
  expected: { messageId: string; objectSize: number },
): Promise<TSealedHeader> {
  const reader = new ExactReader(streamOf(await read(0, HEADER_BYTES)));
  const header = parseHeader(await reader.read(HEADER_BYTES), expected.messageId);
  await reader.cancel();
  const size = sealedSize(header.plaintextLength);
  if (expected.objectSize < size) {
    throw new SealingError('truncated', 'The sealed message ends too early.');
  }
  if (expected.objectSize > size) {
    throw new SealingError('extended', 'The sealed message has bytes after its end.');
  }
  return header;
}

/**
 * Opens a whole sealed object as it arrives, one segment at a time. A cut, lengthened, changed or
 * rearranged object errors the stream; no byte of a segment is given out before it is checked.
 */
export function openStream(
  key: CryptoKey,
  source: ReadableStream<Uint8Array>,
  expectedMessageId: string,
): ReadableStream<TBytes> {
  const reader = new ExactReader(source);
  let header: TSealedHeader | undefined;
  let next = 0;
  return new ReadableStream<TBytes>(
    {
      async pull(controller) {
        header ??= parseHeader(await reader.read(HEADER_BYTES), expectedMessageId);
        const length = header.plaintextLength;
        const { start, end } = segmentPlaintextRange(next, length);
        const sealed = await reader.read(end - start + TAG_BYTES);
        const plaintext = await openSegment(key, header, next, sealed);
        next++;
        if (next === segmentCount(length) && !(await reader.isAtEnd())) {
          throw new SealingError('extended', 'The sealed message has bytes after its end.');
        }
        controller.enqueue(plaintext);
        if (next === segmentCount(length)) controller.close();
      },
      cancel: () => reader.cancel(),
    },
    { highWaterMark: 0 },
  );
}

/**
 * Opens a sealed object as it arrives in pieces that hold whole segments (as its upload parts
 * do), in order: each segment is checked before its plaintext is handed to `onOpened`. `end`
 * throws unless every segment came; a changed, reordered, cut or lengthened object throws a
 * SealingError. Unlike `openStream`, the caller holds the pace (it awaits each piece).
 */
export function segmentOpener(
  key: CryptoKey,
  expectedMessageId: string,
  onOpened: (plaintext: TBytes) => Promise<void>,
) {
  let header: TSealedHeader | undefined;
  /** The next segment, and where the next piece starts in the sealed object. */
  let next = 0;
  let offset = 0;
  return {
    async open(piece: TBytes): Promise<void> {
      let at = 0;
      if (!header) {
        header = parseHeader(piece.subarray(0, HEADER_BYTES), expectedMessageId);
        at = HEADER_BYTES;
      }
      const length = header.plaintextLength;
      while (at < piece.length) {
        if (next >= segmentCount(length)) {
          throw new SealingError('extended', 'The sealed message has bytes after its end.');
        }
        const { start, end } = segmentSealedRange(next, length);
        if (start - offset !== at || end - offset > piece.length) {
          throw new SealingError('truncated', 'The sealed message is shorter than it says.');
        }
        await onOpened(await openSegment(key, header, next, piece.subarray(at, end - offset)));
        next += 1;
        at = end - offset;
      }
      offset += piece.length;
    },
    end(): void {
      if (!header || next !== segmentCount(header.plaintextLength)) {
        throw new SealingError('truncated', 'The sealed message is shorter than it says.');
      }
    },
  };
}

/**
 * The plaintext bytes `first`…`last` (inclusive, as an HTTP range) of a sealed object: one read of
 * just the segments that hold them, opened one at a time and trimmed to the range.
 */
export function openRange(
  key: CryptoKey,
  header: TSealedHeader,
  read: TSealedReader,
  range: { first: number; last: number },
): ReadableStream<TBytes> {
  const length = header.plaintextLength;
  const needed = sealedRangeFor(range.first, range.last, length);
  let reader: ExactReader | undefined;
  let next = needed.firstSegment;
  return new ReadableStream<TBytes>(
    {
      async pull(controller) {
        reader ??= new ExactReader(streamOf(await read(needed.start, needed.end)));
        const { start, end } = segmentPlaintextRange(next, length);
        const plaintext = await openSegment(
          key,
          header,
          next,
          await reader.read(end - start + TAG_BYTES),
        );
        const from = Math.max(range.first, start) - start;
        const to = Math.min(range.last + 1, end) - start;
        controller.enqueue(plaintext.subarray(from, to));
        next++;
        if (next > needed.lastSegment) {
          await reader.cancel();
          controller.close();
        }
      },
      cancel: () => reader?.cancel(),
    },
    { highWaterMark: 0 },
  );
}
