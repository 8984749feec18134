import { expect } from 'vitest';
import {
  generateContentKey,
  isSealingError,
  sealedSize,
  sealStream,
  startSealing,
  type TSealedReader,
  type TSealingFailure,
} from '../../src/shared/sealing';

export const MESSAGE_ID = '3f1c2b9a-6d4e-4f80-9a1b-2c3d4e5f6071';
export const OTHER_MESSAGE_ID = '8a7b6c5d-4e3f-4a2b-9c1d-0e1f2a3b4c5d';

/** The byte at position `i` of a test recording: varied, and computable without holding it. */
export function byteAt(i: number): number {
  return (Math.imul(i, 2654435761) >>> 24) ^ (i & 0xff);
}

export function recording(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = byteAt(i);
  return bytes;
}

export async function readAll(
  stream: ReadableStream<Uint8Array>,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export function streamOfBytes(bytes: Uint8Array, chunkSize = 100_000): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

export async function sealBytes(
  bytes: Uint8Array,
  options: { key?: CryptoKey; messageId?: string } = {},
) {
  const key = options.key ?? (await generateContentKey());
  const sealing = startSealing({
    key,
    messageId: options.messageId ?? MESSAGE_ID,
    plaintextLength: bytes.length,
  });
  const sealed = await readAll(sealStream(sealing, streamOfBytes(bytes)));
  expect(sealed.length).toBe(sealedSize(bytes.length));
  return { key, sealing, sealed };
}

/** A stored object read by range, as the service worker will, with every read recorded. */
export function countingReader(sealed: Uint8Array) {
  const reads: { start: number; end: number }[] = [];
  const read: TSealedReader = async (start, end) => {
    reads.push({ start, end });
    return streamOfBytes(sealed.slice(start, end), 64 * 1024);
  };
  return { read, reads };
}

/** Compares large byte arrays without the matcher's element-by-element walk and diff. */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array) {
  const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  expect(actual.length).toBe(expected.length);
  expect(toBuffer(actual).equals(toBuffer(expected))).toBe(true);
}

export async function expectFailure(promise: Promise<unknown>, reason: TSealingFailure) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(
    isSealingError(error, reason),
    `expected a '${reason}' failure, got ${String(error)}`,
  ).toBe(true);
}
