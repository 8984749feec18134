import { BlobReader } from '@shared/blob-reader';
import { getVideoBlob, keepPieceChecksums, type TLocalVideo } from '@web/lib/videos/local-store';
import { sendPaced, type TPeer } from './peer';
import { pieceChecksums, pieceCount } from './pieces';
import {
  openFrame,
  readJson,
  sealFrame,
  sealJson,
  PIECE_BYTES,
  PIECE_CHUNKS,
  sealManifest,
  SEND_WINDOW_CHUNKS,
  TRANSFER_CHUNK_BYTES,
  type TManifestVideo,
} from './transfer-frames';

export interface TSendProgress {
  /** Messages the new device has whole and checked. */
  arrived: number;
  total: number;
  /** Of the message being sent, 0 to 1. */
  current: number;
}

/** What the new device asks for: one message's missing chunks. */
export interface TWant {
  id: string;
  chunks: number[];
  /** How many messages are already whole on the new device. */
  arrived: number;
}

/**
 * The manifest of this device's messages, each with its pieces' SHA-256: kept ones as they are,
 * the rest hashed now and kept for the next move.
 */
export async function buildManifest(videos: readonly TLocalVideo[]): Promise<TManifestVideo[]> {
  const manifest: TManifestVideo[] = [];
  for (const video of videos) {
    const blob = await getVideoBlob(video);
    let pieceSha256 = video.pieceSha256;
    if (pieceSha256?.length !== pieceCount(blob.size)) {
      pieceSha256 = await pieceChecksums(blob);
      await keepPieceChecksums(video.id, pieceSha256);
    }
    manifest.push({
      id: video.id,
      recipientId: video.recipientId,
      title: video.title,
      promptId: video.promptId,
      mimeType: video.mimeType,
      byteSize: blob.size,
      durationMs: video.durationMs,
      createdAt: video.createdAt,
      indexedAt: video.indexedAt,
      release: video.release,
      pieceSha256,
      chunkCount: Math.max(1, Math.ceil(blob.size / TRANSFER_CHUNK_BYTES)),
    });
  }
  return manifest;
}

/**
 * A message's chunks, read from the library a piece at a time into one buffer: one read for
 * sixteen chunks. A chunk is a view of that buffer, good until the next piece is read.
 */
function createPieceReader(blob: Blob) {
  const reader = new BlobReader(blob, PIECE_BYTES);
  let start = -1;
  let piece = new Uint8Array(0);
  return {
    async chunk(index: number): Promise<Uint8Array<ArrayBuffer>> {
      const at = index * TRANSFER_CHUNK_BYTES;
      if (start < 0 || at < start || at >= start + piece.length) {
        start = at - (at % PIECE_BYTES);
        piece = await reader.read(start, start + PIECE_BYTES);
      }
      return piece.subarray(at - start, at - start + TRANSFER_CHUNK_BYTES);
    },
    close: () => reader.close(),
  };
}

/**
 * One connection's worth of sending: the manifest, then whatever the new device asks for, one
 * message at a time, until it says all are here (true) or the connection goes (throws).
 */
export async function runSendSession(input: {
  peer: TPeer;
  key: CryptoKey;
  videos: readonly TLocalVideo[];
  manifest: readonly TManifestVideo[];
  onProgress: (progress: TSendProgress) => void;
  /** Ends this session: the new device started again, or finished. */
  abort: AbortSignal;
}): Promise<void> {
  const { peer, key, manifest } = input;
  const { inbox } = peer;
  input.abort.addEventListener('abort', inbox.close);
  const total = manifest.length;
  for (const frame of await sealManifest(key, manifest)) {
    await sendPaced(peer.channel, frame, input.abort);
  }
  for (;;) {
    const { header, body } = await openFrame(key, await inbox.next());
    if (header.t === 'done') {
      input.onProgress({ arrived: total, total, current: 0 });
      return;
    }
    if (header.t !== 'want') continue;
    const want = readJson<TWant>(body);
    const video = input.videos.find((v) => v.id === want.id);
    if (!video) continue;
    const reader = createPieceReader(await getVideoBlob(video));
    let sent = 0;
    let kept = 0;
    try {
      for (const index of want.chunks) {
        if (input.abort.aborted) throw new Error('The new device started again.');
        while (sent - kept >= SEND_WINDOW_CHUNKS) {
          const { header: said, body: count } = await openFrame(key, await inbox.next());
          if (said.t === 'got') kept = readJson<{ n: number }>(count).n;
        }
        const bytes = await reader.chunk(index);
        await sendPaced(
          peer.channel,
          await sealFrame(key, { t: 'chunk', v: video.id, i: index }, bytes),
          input.abort,
        );
        sent += 1;
        // Once a piece: the screen moves on as often as anyone can see, not once a chunk.
        if (sent % PIECE_CHUNKS === 0 || sent === want.chunks.length) {
          input.onProgress({ arrived: want.arrived, total, current: sent / want.chunks.length });
        }
      }
    } finally {
      reader.close();
    }
    await sendPaced(peer.channel, await sealJson(key, { t: 'end' }, { id: video.id }), input.abort);
  }
}
