import { BlobReader } from '@shared/blob-reader';
import { releaseBytes, sha256HexOfBytes } from '@web/lib/sha256';
import { PIECE_BYTES, PIECE_CHUNKS, type TManifestVideo } from './transfer-frames';

/** How many pieces a message of `byteSize` has: one at least, for an empty one. */
export function pieceCount(byteSize: number): number {
  return Math.max(1, Math.ceil(byteSize / PIECE_BYTES));
}

/** The SHA-256 of each piece of a message, read one piece at a time into one buffer. */
export async function pieceChecksums(blob: Blob): Promise<string[]> {
  const reader = new BlobReader(blob, PIECE_BYTES);
  const sums: string[] = [];
  for (let start = 0; start < blob.size || sums.length === 0; start += PIECE_BYTES) {
    sums.push(await sha256HexOfBytes(await reader.read(start, start + PIECE_BYTES)));
  }
  reader.close();
  return sums;
}

/**
 * Whether `blob` is the message the manifest describes, read one piece at a time; the pieces in
 * `checked` were already found right as they arrived.
 */
export async function matchesManifest(
  blob: Blob,
  video: TManifestVideo,
  checked: ReadonlySet<number> = new Set(),
): Promise<boolean> {
  const expected = video.pieceSha256;
  if (blob.size !== video.byteSize) return false;
  if (expected.length !== pieceCount(blob.size)) return false;
  const reader = new BlobReader(blob, PIECE_BYTES);
  try {
    for (let piece = 0; piece < expected.length; piece += 1) {
      if (checked.has(piece)) continue;
      const start = piece * PIECE_BYTES;
      const bytes = await reader.read(start, start + PIECE_BYTES);
      if ((await sha256HexOfBytes(bytes)) !== expected[piece]) return false;
    }
    return true;
  } finally {
    reader.close();
  }
}

/**
 * Checks each piece as its chunks arrive in order, from the bytes already in hand, so a message
 * need not be read back to be checked. A piece whose chunks came partly before an interruption
 * is left for `matchesManifest` to read.
 */
export function createPieceChecker(video: TManifestVideo) {
  const checked = new Set<number>();
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let next = -1;
  return {
    checked,
    async add(index: number, body: Uint8Array<ArrayBuffer>): Promise<void> {
      if (index % PIECE_CHUNKS === 0) parts = [];
      else if (index !== next) {
        parts = [];
        next = -1;
        return;
      }
      parts.push(body);
      next = index + 1;
      if (parts.length < PIECE_CHUNKS && index !== video.chunkCount - 1) return;
      const bytes = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
      let at = 0;
      for (const part of parts) {
        bytes.set(part, at);
        at += part.length;
      }
      parts = [];
      const piece = Math.floor(index / PIECE_CHUNKS);
      if ((await sha256HexOfBytes(bytes)) === video.pieceSha256[piece]) checked.add(piece);
      releaseBytes(bytes);
    },
  };
}
