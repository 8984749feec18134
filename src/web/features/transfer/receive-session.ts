import type { TRelease } from '@shared/domain/legacy';
import { getVideo, getVideoBlob, saveVideo } from '@web/lib/videos/local-store';
import { sendPaced, type TInbox, type TPeer } from './peer';
import { createPieceChecker, matchesManifest } from './pieces';
import {
  forgetChunks,
  keepChunks,
  listChunkIndexes,
  missingChunks,
  readChunks,
  type TArrived,
} from './received-chunks';
import type { TSignalling } from './transfer-api';
import { finishTransfer, noteArrival } from './transfer-api';
import {
  openFrame,
  PIECE_CHUNKS,
  readJson,
  sealJson,
  type TManifestVideo,
} from './transfer-frames';

/**
 * The old device streams once asked; this long with nothing from it and the connection counts as
 * lost, so the new device starts again where it stopped.
 */
const SILENCE_MS = 20_000;

export interface TReceiveProgress {
  arrived: number;
  total: number;
  current: number;
}

/** A message already whole here (from an interrupted move): the same bytes, by its checksums. */
async function isAlreadyHere(video: TManifestVideo): Promise<boolean> {
  const local = await getVideo(video.id);
  if (!local || local.byteSize !== video.byteSize) return false;
  return matchesManifest(await getVideoBlob(local), video);
}

/**
 * Receives the chunks asked for until the old device says that message is all sent; answers the
 * pieces already found right on the way.
 */
async function receiveChunks(
  peer: TPeer,
  inbox: TInbox,
  key: CryptoKey,
  video: TManifestVideo,
  onChunk: (have: number) => void,
): Promise<ReadonlySet<number>> {
  let have = (await listChunkIndexes(video.id)).length;
  let kept = 0;
  const checker = createPieceChecker(video);
  // Kept a piece's worth at a time: one write instead of sixteen.
  let pending: TArrived[] = [];
  const keepPending = async () => {
    await keepChunks(video.id, pending);
    kept += pending.length;
    have += pending.length;
    pending = [];
    onChunk(have);
  };
  for (;;) {
    const { header, body } = await openFrame(key, await inbox.next(SILENCE_MS));
    if (header.t === 'end') {
      await keepPending();
      return checker.checked;
    }
    if (header.t !== 'chunk' || header.v !== video.id) continue;
    pending.push({ index: header.i, bytes: body });
    await checker.add(header.i, body);
    if (pending.length === PIECE_CHUNKS) {
      await keepPending();
      // Says how far it got, so the old device sends no faster than this one keeps.
      await sendPaced(peer.channel, await sealJson(key, { t: 'got' }, { n: kept }));
    }
  }
}

/** Puts the checked message in the library; false when its bytes do not match the checksums. */
async function keepIfWhole(
  video: TManifestVideo,
  creatorId: number,
  checked: ReadonlySet<number>,
): Promise<boolean> {
  const blob = new Blob(await readChunks(video.id), { type: video.mimeType });
  const isWhole = await matchesManifest(blob, video, checked);
  if (isWhole) {
    await saveVideo({
      id: video.id,
      creatorId,
      recipientId: video.recipientId,
      title: video.title,
      promptId: video.promptId,
      blob,
      durationMs: video.durationMs,
      createdAt: video.createdAt,
      indexedAt: video.indexedAt,
      release: video.release as TRelease | undefined,
      pieceSha256: video.pieceSha256,
    });
  }
  await forgetChunks(video.id);
  return isWhole;
}

/** The old device's list, in as many frames as it took. */
async function receiveManifest(inbox: TInbox, key: CryptoKey): Promise<TManifestVideo[]> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (;;) {
    const { header, body } = await openFrame(key, await inbox.next(SILENCE_MS));
    if (header.t !== 'manifest' || header.i !== parts.length) {
      throw new Error('The old device sent something unexpected.');
    }
    parts.push(body);
    if (parts.length === header.n) break;
  }
  return readJson<TManifestVideo[]>(new Uint8Array(await new Blob(parts).arrayBuffer()));
}

/**
 * One connection's worth of receiving: the old device's list, then each message not yet here,
 * asked for by its missing chunks, checked and kept. Ends when every message is here.
 *
 * A message is checked and kept while the next one arrives: the old device would otherwise wait
 * on every message's last write (about half a second for 64 MB). A message that fails its
 * checksums is asked for again once the others are here; a second failure ends the move.
 */
export async function runReceiveSession(input: {
  peer: TPeer;
  key: CryptoKey;
  transferId: string;
  creatorId: number;
  signalling: TSignalling;
  onProgress: (progress: TReceiveProgress) => void;
}): Promise<number> {
  const { peer, key } = input;
  const { inbox } = peer;
  const manifest = await receiveManifest(inbox, key);
  const total = manifest.length;
  const queue = [...manifest];
  const failures = new Set<string>();
  let arrived = 0;
  const countArrival = () => {
    arrived += 1;
    input.onProgress({ arrived, total, current: 0 });
  };
  const keep = async (video: TManifestVideo, checked: ReadonlySet<number>) => {
    if (await keepIfWhole(video, input.creatorId, checked)) {
      await noteArrival(input.transferId, video.id);
      countArrival();
      return;
    }
    await input.signalling.reportFailure('checksum');
    if (failures.has(video.id)) throw new Error('A message kept arriving damaged.');
    failures.add(video.id);
    queue.push(video);
  };
  let keeping: Promise<void> = Promise.resolve();
  try {
    for (let at = 0; ; at += 1) {
      // The last keep may put a damaged message back in the queue.
      if (at === queue.length) await keeping;
      if (at === queue.length) break;
      const video = queue[at]!;
      if (await isAlreadyHere(video)) {
        countArrival();
        continue;
      }
      const chunks = missingChunks(video.chunkCount, await listChunkIndexes(video.id));
      await sendPaced(
        peer.channel,
        await sealJson(key, { t: 'want' }, { id: video.id, chunks, arrived }),
      );
      const checked = await receiveChunks(peer, inbox, key, video, (have) =>
        input.onProgress({ arrived, total, current: have / video.chunkCount }),
      );
      await keeping;
      keeping = keep(video, checked);
      // Awaited above or below; a failure before then is not 'unhandled'.
      keeping.catch(() => undefined);
    }
  } finally {
    // A lost connection ends the session only once the message being kept is kept: the next
    // session must not find it half written.
    await keeping.catch(() => undefined);
  }
  await finishTransfer(
    input.transferId,
    manifest.map((video) => video.id),
  );
  await sendPaced(peer.channel, await sealJson(key, { t: 'done' }, {}));
  return total;
}
