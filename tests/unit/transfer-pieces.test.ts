import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPieceChecker, matchesManifest, pieceChecksums } from '@web/features/transfer/pieces';
import {
  PIECE_BYTES,
  TRANSFER_CHUNK_BYTES,
  type TManifestVideo,
} from '@web/features/transfer/transfer-frames';

// A message moving tablet to tablet is checked one piece at a time, never read whole: each piece
// as its chunks arrive, and whatever an interruption split is read back piece by piece.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function manifestOf(bytes: Uint8Array, pieceSha256: string[]): TManifestVideo {
  return {
    id: 'v1',
    recipientId: 1,
    title: 'For Anne',
    promptId: null,
    mimeType: 'video/webm',
    byteSize: bytes.length,
    durationMs: 1000,
    createdAt: new Date().toISOString(),
    indexedAt: null,
    pieceSha256,
    chunkCount: Math.max(1, Math.ceil(bytes.length / TRANSFER_CHUNK_BYTES)),
  };
}

const chunkOf = (bytes: Uint8Array, index: number) =>
  new Uint8Array(bytes.slice(index * TRANSFER_CHUNK_BYTES, (index + 1) * TRANSFER_CHUNK_BYTES));

describe('checking a moved message piece by piece', () => {
  const bytes = new Uint8Array(randomBytes(2 * PIECE_BYTES + 12_345));

  it('hashes each piece of the message, the last one shorter, and an empty message as one', async () => {
    const sums = await pieceChecksums(new Blob([bytes]));
    expect(sums).toEqual([
      sha256(bytes.subarray(0, PIECE_BYTES)),
      sha256(bytes.subarray(PIECE_BYTES, 2 * PIECE_BYTES)),
      sha256(bytes.subarray(2 * PIECE_BYTES)),
    ]);
    expect(await pieceChecksums(new Blob([]))).toEqual([sha256(new Uint8Array())]);
  });

  it('finds every piece right as the chunks arrive in order, and a changed byte wrong', async () => {
    const video = manifestOf(bytes, await pieceChecksums(new Blob([bytes])));
    const checker = createPieceChecker(video);
    for (let index = 0; index < video.chunkCount; index += 1) {
      const chunk = chunkOf(bytes, index);
      if (index === video.chunkCount - 1) chunk[0] = chunk[0]! ^ 1;
      await checker.add(index, chunk);
    }
    expect([...checker.checked]).toEqual([0, 1]);
  });

  it('after an interruption, reads back only the pieces it could not check on the way', async () => {
    const video = manifestOf(bytes, await pieceChecksums(new Blob([bytes])));
    const checker = createPieceChecker(video);
    // Resumed at chunk 20: the second piece's first chunks came before, the rest arrive in order.
    for (let index = 20; index < video.chunkCount; index += 1) {
      await checker.add(index, chunkOf(bytes, index));
    }
    expect([...checker.checked]).toEqual([2]);
    expect(await matchesManifest(new Blob([bytes]), video, checker.checked)).toBe(true);
    const damaged = bytes.slice();
    damaged[5] = damaged[5]! ^ 1;
    expect(await matchesManifest(new Blob([damaged]), video, checker.checked)).toBe(false);
    expect(await matchesManifest(new Blob([bytes.subarray(1)]), video)).toBe(false);
  });
});
