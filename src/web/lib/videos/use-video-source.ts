import { useEffect, useState } from 'react';
import { fetchPlayback } from './videos-api';
import type { TPlayback } from '@shared/schemas/cloud';
import { describeError, isApiError } from '@web/lib/api-client';
import { useAuth } from '@web/lib/auth-provider';
import { getVideo, getVideoBlob, saveVideo } from './local-store';

/** What the player says when a video cannot be played. */
export const PLAYBACK_MESSAGES = {
  notOnDevice: 'Video not available offline',
  serverFailed: 'Failed to load video from server. Please check your connection.',
  unsupported: 'Failed to play video. The video format may not be supported by your browser.',
} as const;

export type TVideoSource =
  | { state: 'loading' }
  | { state: 'ready'; url: string; isLocal: boolean }
  | { state: 'error'; message: string };

/** What the owner's device needs to keep a streamed message as its own local copy. */
export interface TKeepLocally {
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
  durationMs: number;
  createdAt: string;
}

/** Downloads the cloud copy once and keeps it on this device so the next play needs no network. */
async function keepCopy(videoId: string, url: string, keep: TKeepLocally): Promise<void> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) return;
  await keepOpenedCopy(videoId, await response.blob(), keep);
}

async function keepOpenedCopy(videoId: string, blob: Blob, keep: TKeepLocally): Promise<void> {
  await saveVideo({
    id: videoId,
    ...keep,
    blob,
    indexedAt: new Date().toISOString(),
    syncStatus: 'synced',
  });
}

/**
 * A sealed cloud copy, opened in this browser (the code that opens it loads only for one): by the
 * service worker as the player reads it, when one controls the page (nothing kept); else whole,
 * into an object URL the player revokes. Never the sealed bytes themselves.
 */
async function openSealed(userId: number | null, videoId: string, playback: TPlayback) {
  const [{ findContentKey, openSealedCopy }, { playSealedThroughWorker }] = await Promise.all([
    import('@web/lib/encryption/open-sealed'),
    import('@web/lib/encryption/sealed-stream'),
  ]);
  const input = {
    userId,
    videoId,
    url: playback.url,
    keyWrap: playback.sealed?.keyWrap ?? null,
    mimeType: playback.mimeType,
    holder: playback.sealed?.holder,
    keyId: playback.sealed?.keyId,
  };
  const contentKey = await findContentKey(input);
  if (!contentKey.isOpened) return contentKey;
  const streamed = await playSealedThroughWorker({ videoId, contentKey: contentKey.key, playback });
  return streamed
    ? { isOpened: true as const, url: streamed }
    : openSealedCopy(input, contentKey.key);
}

/**
 * The video player's source: the local copy first; else the cloud copy, streamed with Range from a
 * short-lived URL, or opened here when it is sealed (by the service worker as it plays, else whole
 * and, on the owner's own devices, kept locally afterwards); offline with no local copy it says so
 * plainly.
 */
export function useVideoSource(
  videoId: string | null,
  options: { keepLocally?: TKeepLocally } = {},
): TVideoSource {
  const [source, setSource] = useState<TVideoSource>({ state: 'loading' });
  const keep = options.keepLocally;
  const userId = useAuth().user?.id ?? null;

  useEffect(() => {
    if (!videoId) return;
    let objectUrl: string | null = null;
    let isCurrent = true;
    const show = (next: TVideoSource) => {
      if (isCurrent) setSource(next);
    };

    void (async () => {
      const local = await getVideo(videoId).catch(() => undefined);
      if (local && local.chunkCount > 0) {
        const blob = await getVideoBlob(local);
        if (blob.size > 0) {
          objectUrl = URL.createObjectURL(blob);
          show({ state: 'ready', url: objectUrl, isLocal: true });
          return;
        }
      }
      if (typeof navigator !== 'undefined' && navigator.onLine === false) {
        show({ state: 'error', message: PLAYBACK_MESSAGES.notOnDevice });
        return;
      }
      try {
        const playback = await fetchPlayback(videoId);
        if (playback.sealed) {
          const opened = await openSealed(userId, videoId, playback);
          if (!opened.isOpened) {
            show({ state: 'error', message: opened.message });
            return;
          }
          if (!isCurrent) return;
          if ('url' in opened) {
            show({ state: 'ready', url: opened.url, isLocal: false });
            return;
          }
          objectUrl = URL.createObjectURL(opened.blob);
          show({ state: 'ready', url: objectUrl, isLocal: false });
          if (keep) void keepOpenedCopy(videoId, opened.blob, keep).catch(() => undefined);
          return;
        }
        show({ state: 'ready', url: playback.url, isLocal: false });
        if (keep) void keepCopy(videoId, playback.url, keep).catch(() => undefined);
      } catch (error) {
        show({
          state: 'error',
          message: isApiError(error)
            ? describeError(error, PLAYBACK_MESSAGES.serverFailed)
            : PLAYBACK_MESSAGES.serverFailed,
        });
      }
    })();

    return () => {
      isCurrent = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
    // `keep` describes the same message for a given id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [videoId]);

  return source;
}
