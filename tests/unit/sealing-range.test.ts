import { describe, expect, it } from 'vitest';
import {
  contentRange,
  FIRST_SEGMENT_PLAINTEXT_BYTES as P0,
  generateContentKey,
  HEADER_BYTES,
  openRange,
  openStream,
  parseRange,
  readHeader,
  SEALED_SEGMENT_BYTES as S,
  sealedRangeFor,
  sealedSize,
  sealPart,
  sealStream,
  SEGMENT_PLAINTEXT_BYTES as P,
  segmentPlaintextStart,
  startSealing,
} from '../../src/shared/sealing';
import { UPLOAD_PART_BYTES } from '../../src/shared/schemas/cloud-messages';
import {
  byteAt,
  countingReader,
  expectFailure,
  expectSameBytes,
  MESSAGE_ID,
  readAll,
  recording,
  sealBytes,
} from './sealing-helpers';

describe('seeking: a plaintext range opens from just the segments that hold it', () => {
  const length = 3 * UPLOAD_PART_BYTES + 5_000;
  const bytes = recording(length);
  const sealedPromise = sealBytes(bytes);

  const seek = Math.floor(length * 0.8);
  const ranges = [
    { name: 'the first byte', first: 0, last: 0 },
    { name: 'two bytes across a segment boundary', first: P0 - 1, last: P0 },
    { name: 'a few bytes inside one segment', first: P0 + 10, last: P0 + 20 },
    { name: 'a mebibyte from a seek to 80 %', first: seek, last: seek + 1024 * 1024 },
    { name: 'the last byte', first: length - 1, last: length - 1 },
    { name: 'the whole message', first: 0, last: length - 1 },
  ];

  it.each(ranges)('gives exactly $name, reading only its segments', async (range) => {
    const { key, sealed } = await sealedPromise;
    const { read, reads } = countingReader(sealed);
    const header = await readHeader(read, { messageId: MESSAGE_ID, objectSize: sealed.length });
    expect(reads).toEqual([{ start: 0, end: HEADER_BYTES }]);

    const opened = await readAll(openRange(key, header, read, range));
    expectSameBytes(opened, bytes.subarray(range.first, range.last + 1));

    const needed = sealedRangeFor(range.first, range.last, length);
    expect(reads.slice(1)).toEqual([{ start: needed.start, end: needed.end }]);
    const segments = needed.lastSegment - needed.firstSegment + 1;
    expect(needed.end - needed.start).toBeLessThanOrEqual(segments * S);
    expect(segments).toBeLessThanOrEqual(Math.ceil((range.last - range.first + 1) / P) + 1);
  });

  it('fetches one segment for a one-byte seek, and none past the end', async () => {
    expect(sealedRangeFor(P0 + 5 * P, P0 + 5 * P, length)).toMatchObject({
      firstSegment: 6,
      lastSegment: 6,
      start: 6 * S,
      end: 7 * S,
    });
    expect(() => sealedRangeFor(0, length, length)).toThrow();
    expect(() => sealedRangeFor(5, 4, length)).toThrow();
  });

  it('errors the stream when a fetched segment was changed, never giving its bytes', async () => {
    const { key, sealed } = await sealedPromise;
    const changed = sealed.slice();
    changed[10 * S + 99] = (changed[10 * S + 99] ?? 0) ^ 0x80;
    const { read } = countingReader(changed);
    const header = await readHeader(read, { messageId: MESSAGE_ID, objectSize: changed.length });
    const stream = openRange(key, header, read, { first: P0 + 7 * P, last: P0 + 10 * P });
    const reader = stream.getReader();
    const firstTwo = [await reader.read(), await reader.read()];
    expect(firstTwo.map((result) => result.value?.length)).toEqual([P, P]);
    await expectFailure(reader.read(), 'segment');
  });
});

describe('the Range header a video element sends', () => {
  it('reads closed, open-ended and suffix ranges, clamped to the message', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ kind: 'part', first: 0, last: 99 });
    expect(parseRange('bytes=900-2000', 1000)).toEqual({ kind: 'part', first: 900, last: 999 });
    expect(parseRange('bytes=100-', 1000)).toEqual({ kind: 'part', first: 100, last: 999 });
    expect(parseRange('bytes=100-', 10_000, 500)).toEqual({ kind: 'part', first: 100, last: 599 });
    expect(parseRange('bytes=-300', 1000)).toEqual({ kind: 'part', first: 700, last: 999 });
    expect(parseRange('bytes=-3000', 1000)).toEqual({ kind: 'part', first: 0, last: 999 });
  });

  it('answers the whole message without a readable range, and 416 past its end', () => {
    expect(parseRange(null, 1000)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=0-1,5-9', 1000)).toEqual({ kind: 'whole' });
    expect(parseRange('items=0-1', 1000)).toEqual({ kind: 'whole' });
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(contentRange(1000, { first: 0, last: 99 })).toBe('bytes 0-99/1000');
    expect(contentRange(1000)).toBe('bytes */1000');
  });
});

describe('memory stays bounded by a few segments, whatever the size', () => {
  const length = 40 * 1024 * 1024;

  /** A 40 MB recording made as it is read, counting what has been handed out. */
  function countingSource(chunkSize: number) {
    const counts = { pulled: 0, largestChunk: 0 };
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (counts.pulled >= length) return controller.close();
          const chunk = new Uint8Array(Math.min(chunkSize, length - counts.pulled));
          for (let i = 0; i < chunk.length; i++) chunk[i] = byteAt(counts.pulled + i);
          counts.pulled += chunk.length;
          counts.largestChunk = Math.max(counts.largestChunk, chunk.length);
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, counts };
  }

  it('seals and opens 40 MB as a stream, never more than three segments ahead', async () => {
    const key = await generateContentKey();
    const sealing = startSealing({ key, messageId: MESSAGE_ID, plaintextLength: length });
    const source = countingSource(100_000);
    const opened = openStream(key, sealStream(sealing, source.stream), MESSAGE_ID);
    let delivered = 0;
    let largestAhead = 0;
    let largestOut = 0;
    let isIntact = true;
    for await (const chunk of opened) {
      isIntact &&= chunk.every((byte, i) => byte === byteAt(delivered + i));
      delivered += chunk.length;
      largestOut = Math.max(largestOut, chunk.length);
      largestAhead = Math.max(largestAhead, source.counts.pulled - delivered);
    }
    expect(isIntact).toBe(true);
    expect(delivered).toBe(length);
    expect(largestOut).toBeLessThanOrEqual(P);
    expect(largestAhead).toBeLessThanOrEqual(3 * S);
  });

  it("seals an upload part from one read of that part's plaintext, never the whole recording", async () => {
    const bytes = recording(2 * UPLOAD_PART_BYTES);
    const slices: Array<[number, number]> = [];
    class CountingBlob extends Blob {
      override slice(start?: number, end?: number, type?: string): Blob {
        slices.push([start ?? 0, end ?? this.size]);
        return super.slice(start, end, type);
      }
    }
    const key = await generateContentKey();
    const sealing = startSealing({ key, messageId: MESSAGE_ID, plaintextLength: bytes.length });
    const part = await sealPart(sealing, new CountingBlob([bytes]), 2, UPLOAD_PART_BYTES);
    expect(part.length).toBe(UPLOAD_PART_BYTES);
    // Segments 32 to 63: exactly the plaintext they carry, 32 segments' worth.
    expect(slices).toEqual([[segmentPlaintextStart(32), segmentPlaintextStart(64)]]);
    expect(segmentPlaintextStart(64) - segmentPlaintextStart(32)).toBe(32 * P);
    expect(sealedSize(bytes.length)).toBeGreaterThan(2 * UPLOAD_PART_BYTES);
  });
});
