import type { TRelease } from '@shared/domain/legacy';
import { sha256Hex } from '@web/lib/sha256';
import { getVideo, getVideoBlob, saveVideo } from '@web/lib/videos/local-store';
import { createInbox, sendPaced, type TInbox, type TPeer } from './peer';
import {
  forgetChunks,
  keepChunk,
  listChunkIndexes,
  missingChunks,
  readChunks,
} from './received-chunks';
import type { TSignalling } from './transfer-api';
import { finishTransfer, noteArrival } from './transfer-api';
import { openFrame, readJson, sealJson, type TManifestVideo } from './transfer-frames';

export interface TReceiveProgress {
  arrived: number;
  total: number;
  current: number;
}

/** A message already whole here (from an interrupted move): the same bytes, by its checksum. */
async function isAlreadyHere(video: TManifestVideo): Promise<boolean> {
  const local = await getVideo(video.id);
  if (!local || local.byteSize !== video.byteSize) return false;
  return (await sha256Hex(await getVideoBlob(local))) === video.sha256;
}

/** Receives the chunks asked for until the old device says that message is all sent. */
async function receiveChunks(
  inbox: TInbox,
  key: CryptoKey,
  video: TManifestVideo,
  onChunk: (have: number) => void,
): Promise<void> {
  let have = (await listChunkIndexes(video.id)).length;
  for (;;) {
    const { header, body } = await openFrame(key, await inbox.next());
    if (header.t === 'end') return;
    if (header.t !== 'chunk' || header.v !== video.id) continue;
    await keepChunk(video.id, header.i, new Blob([body]));
    have += 1;
    onChunk(have);
  }
}

/** Puts the checked message in the library; false when its bytes do not match the checksum. */
async function keepIfWhole(video: TManifestVideo, creatorId: number): Promise<boolean> {
  const blob = new Blob(await readChunks(video.id), { type: video.mimeType });
  const isWhole = blob.size === video.byteSize && (await sha256Hex(blob)) === video.sha256;
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
    });
  }
  await forgetChunks(video.id);
  return isWhole;
}

/**
 * One connection's worth of receiving: the old device's list, then each message not yet here,
 * asked for by its missing chunks, checked and kept. Ends when every message is here.
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
  const inbox = createInbox(peer.channel);
  const first = await openFrame(key, await inbox.next());
  if (first.header.t !== 'manifest') throw new Error('The old device sent something unexpected.');
  const manifest = readJson<TManifestVideo[]>(first.body);
  const total = manifest.length;
  let arrived = 0;
  for (const video of manifest) {
    let isHere = await isAlreadyHere(video);
    for (let round = 0; !isHere; round += 1) {
      if (round === 2) throw new Error('A message kept arriving damaged.');
      const chunks = missingChunks(video.chunkCount, await listChunkIndexes(video.id));
      await sendPaced(
        peer.channel,
        await sealJson(key, { t: 'want' }, { id: video.id, chunks, arrived }),
      );
      await receiveChunks(inbox, key, video, (have) =>
        input.onProgress({ arrived, total, current: have / video.chunkCount }),
      );
      isHere = await keepIfWhole(video, input.creatorId);
      if (isHere) await noteArrival(input.transferId, video.id);
      else await input.signalling.reportFailure('checksum');
    }
    arrived += 1;
    input.onProgress({ arrived, total, current: 0 });
  }
  await finishTransfer(
    input.transferId,
    manifest.map((video) => video.id),
  );
  await sendPaced(peer.channel, await sealJson(key, { t: 'done' }, {}));
  return total;
}
