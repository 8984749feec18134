import { randomBytes, type TBytes } from './bytes';
import { SealingError } from './errors';
import { BlobReader } from '../blob-reader';
import { ExactReader } from './exact-reader';
import {
  encodeHeader,
  NONCE_PREFIX_BYTES,
  partSegments,
  segmentCount,
  segmentParameters,
  segmentPlaintextRange,
  segmentSealedRange,
  type TSealedHeader,
} from './format';

/**
 * One recording being sealed. The content key and nonce prefix belong to these bytes only: a
 * resumed upload keeps both (so it re-seals a part byte for byte), and a different recording
 * always gets a new content key, never the same key and prefix over other bytes.
 */
export type TSealing = { key: CryptoKey; header: TSealedHeader };

export function startSealing(options: {
  key: CryptoKey;
  messageId: string;
  plaintextLength: number;
  /** Given only when resuming an upload; new seals draw a random one. */
  noncePrefix?: Uint8Array;
}): TSealing {
  const header = encodeHeader({
    messageId: options.messageId,
    noncePrefix: options.noncePrefix ?? randomBytes(NONCE_PREFIX_BYTES),
    plaintextLength: options.plaintextLength,
  });
  return { key: options.key, header };
}

/** Seals segment `index`, which must be given exactly the plaintext bytes it carries. */
export async function sealSegment(
  sealing: TSealing,
  index: number,
  plaintext: TBytes,
): Promise<TBytes> {
  const { start, end } = segmentPlaintextRange(index, sealing.header.plaintextLength);
  if (index >= segmentCount(sealing.header.plaintextLength) || plaintext.length !== end - start) {
    throw new SealingError('range', 'This segment does not fit the message.');
  }
  const sealed = await crypto.subtle.encrypt(
    segmentParameters(sealing.header, index),
    sealing.key,
    plaintext,
  );
  return new Uint8Array(sealed);
}

/**
 * Upload part `partNumber` (1-based) of a recording held in a Blob: the header (first part only)
 * and the whole segments of the part, from one read of the part's plaintext range (a part, never
 * the recording, in memory). Sealing is deterministic, so a part sealed again after a reload is
 * the same bytes and keeps its checksum. Parts sealed one after another from one `BlobReader`
 * reuse its buffer and its open stream.
 */
export async function sealPart(
  sealing: TSealing,
  recording: Blob | BlobReader,
  partNumber: number,
  partBytes: number,
): Promise<TBytes> {
  const length = sealing.header.plaintextLength;
  if (recording.size !== length)
    throw new SealingError('range', 'The recording is not the size sealed.');
  const { first, last } = partSegments(partNumber, length, partBytes);
  const plainStart = segmentPlaintextRange(first, length).start;
  const plainEnd = segmentPlaintextRange(last, length).end;
  // A single part from a Blob is read on its own; parts in turn share the reader's buffer.
  const plaintext =
    recording instanceof BlobReader
      ? await recording.read(plainStart, plainEnd)
      : new Uint8Array(await recording.slice(plainStart, plainEnd).arrayBuffer());
  if (plaintext.length !== plainEnd - plainStart) {
    throw new SealingError('truncated', 'The recording is shorter than the size sealed.');
  }
  const partStart = (partNumber - 1) * partBytes;
  const out = new Uint8Array(segmentSealedRange(last, length).end - partStart);
  if (partNumber === 1) out.set(sealing.header.bytes, 0);
  // All segments of the part at once: WebCrypto works through them without a wait between. Each
  // sealed segment is only dropped: the browser made it, and emptying such a buffer early made
  // later reads of the recording fail in Chromium.
  await Promise.all(
    Array.from({ length: last - first + 1 }, async (_, offset) => {
      const index = first + offset;
      const { start, end } = segmentPlaintextRange(index, length);
      const sealed = await sealSegment(
        sealing,
        index,
        plaintext.subarray(start - plainStart, end - plainStart),
      );
      out.set(sealed, segmentSealedRange(index, length).start - partStart);
    }),
  );
  return out;
}

/**
 * Seals a stream of the recording's bytes as it is read: the header, then one sealed segment per
 * chunk. It reads from the source only when its own reader asks, one segment ahead at most.
 */
export function sealStream(
  sealing: TSealing,
  source: ReadableStream<Uint8Array>,
): ReadableStream<TBytes> {
  const length = sealing.header.plaintextLength;
  const reader = new ExactReader(source);
  const total = segmentCount(length);
  let next = -1;
  return new ReadableStream<TBytes>(
    {
      async pull(controller) {
        if (next === -1) {
          next = 0;
          controller.enqueue(sealing.header.bytes);
          return;
        }
        const { start, end } = segmentPlaintextRange(next, length);
        const plaintext = await readSource(reader, end - start);
        controller.enqueue(await sealSegment(sealing, next, plaintext));
        next++;
        if (next === total) {
          if (!(await reader.isAtEnd())) {
            throw new SealingError('extended', 'The recording is longer than the size sealed.');
          }
          controller.close();
        }
      },
      cancel: () => reader.cancel(),
    },
    { highWaterMark: 0 },
  );
}

async function readSource(reader: ExactReader, size: number): Promise<TBytes> {
  try {
    return await reader.read(size);
  } catch (error) {
    throw new SealingError('truncated', 'The recording is shorter than the size sealed.', {
      cause: error,
    });
  }
}
