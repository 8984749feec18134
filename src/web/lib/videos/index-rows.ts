// The server's index rows for videos kept on this device, and sending the ones it has not
// confirmed yet. Apart from saving a recording, so the background sending loads without the WebM
// repair code.
import type { TRelease } from '@shared/domain/legacy';
import { isApiError } from '@web/lib/api-client';
import { listVideos, markIndexed, type TLocalVideo } from './local-store';
import { indexVideo } from './videos-api';

export function toIndexBody(video: TLocalVideo) {
  return {
    id: video.id,
    recipientId: video.recipientId,
    storageType: 'local' as const,
    syncStatus: 'local_only' as const,
    metadata: { byteSize: video.byteSize, durationMs: video.durationMs, mimeType: video.mimeType },
    createdAt: video.createdAt,
    release: releaseToSend(video.release),
  };
}

/**
 * A date that passed while the row waited to be sent (offline) opens it anyway; the server
 * refuses dates in the past, so it is sent as open now rather than never.
 */
function releaseToSend(release: TRelease | undefined): TRelease {
  if (!release) return { rule: 'now', at: null };
  if (release.rule === 'date' && release.at && Date.parse(release.at) <= Date.now()) {
    return { rule: 'now', at: null };
  }
  return release;
}

let sending: Promise<number> | null = null;

/**
 * Sends the index rows the server has not confirmed yet (a save made offline, say), oldest first,
 * one run at a time: a second caller joins the run in progress. The first row that cannot be sent
 * (offline, signed out) ends the run, so the rows arrive in the order they were recorded; each is
 * sent again next time, and the server keeps one row per id.
 */
export function indexPendingVideos(creatorId: number): Promise<number> {
  sending ??= sendPendingIndexRows(creatorId).finally(() => {
    sending = null;
  });
  return sending;
}

async function sendPendingIndexRows(creatorId: number): Promise<number> {
  const pending = (await listVideos(creatorId))
    .filter((video) => video.indexedAt === null)
    .reverse();
  let sent = 0;
  for (const video of pending) {
    try {
      await indexVideo(toIndexBody(video));
      await markIndexed(video.id);
      sent += 1;
    } catch (error) {
      // The video stays on this device and is tried again next time. With no connection or no
      // session, the rest waits behind it; a row the server refuses does not hold up the others.
      if (!isApiError(error) || error.status === 401) break;
    }
  }
  return sent;
}
