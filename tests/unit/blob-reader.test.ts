import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobReader } from '../../src/shared/blob-reader';

// Large messages are read range by range into one buffer (hashing a move, sealing an upload):
// every range must be exactly the Blob's bytes there, however the reads jump about.

describe('reading a Blob range by range into one buffer', () => {
  const bytes = new Uint8Array(randomBytes(3 * 100_000 + 1234));
  const blob = new Blob([bytes]);

  it('gives each range in order exactly, the last one shorter where the Blob ends', async () => {
    const reader = new BlobReader(blob, 100_000);
    for (let start = 0; start < bytes.length; start += 100_000) {
      const range = await reader.read(start, start + 100_000);
      expect(Buffer.from(range).equals(Buffer.from(bytes.subarray(start, start + 100_000)))).toBe(
        true,
      );
    }
    expect((await reader.read(bytes.length, bytes.length + 10)).length).toBe(0);
    reader.close();
  });

  it('reads ranges out of order, of other sizes, and again after it was closed', async () => {
    const reader = new BlobReader(blob);
    for (const [start, end] of [
      [250_000, 260_000],
      [10, 120_000],
      [120_000, 301_000],
      [0, 5],
    ] as const) {
      const range = await reader.read(start, end);
      expect(Buffer.from(range).equals(Buffer.from(bytes.subarray(start, end)))).toBe(true);
      if (start === 10) reader.close();
    }
    expect(reader.size).toBe(bytes.length);
  });
});
