import type { TSealedReader } from '@shared/sealing';
import type { TSealedPlayback } from './sealed-messages';
import { sealedRangeHeader } from './sealed-range';

/**
 * How a playback URL that no longer works answers: S3's presigned URL 403 once expired (some
 * stores 401 or 410), file mode's signed URL 404. The worker then asks for a fresh one once.
 */
const EXPIRED_STATUSES = new Set([401, 403, 404, 410]);

export type TSourceDeps = {
  fetch: typeof fetch;
  /** The worker's own address, to tell our server's URLs from the store's. */
  origin: string;
  /** Keeps the fresh URL for the next request (and the next worker). */
  onRenewed: (videoId: string, url: string) => Promise<void>;
};

export class SealedSourceError extends Error {
  override readonly name = 'SealedSourceError';
}

function isSameOrigin(url: string, origin: string): boolean {
  return new URL(url, origin).origin === origin;
}

async function fetchSealed(
  deps: TSourceDeps,
  url: string,
  start: number,
  end: number,
): Promise<Response> {
  return deps.fetch(url, {
    headers: { range: sealedRangeHeader(start, end) },
    // Cookies only to our own server, never to a store.
    credentials: isSameOrigin(url, deps.origin) ? 'same-origin' : 'omit',
    cache: 'no-store',
  });
}

/** A fresh playback URL, asked of the server as the page would (its cookie, its device id). */
async function renewUrl(deps: TSourceDeps, playback: TSealedPlayback): Promise<string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (playback.deviceId) headers['x-device-id'] = playback.deviceId;
  const response = await deps.fetch(
    `/api/videos/${encodeURIComponent(playback.videoId)}/playback`,
    {
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
    },
  );
  if (!response.ok) throw new SealedSourceError(`playback answered ${response.status}`);
  const fresh = (await response.json()) as { url?: unknown; byteSize?: unknown };
  if (typeof fresh.url !== 'string' || fresh.byteSize !== playback.objectSize) {
    throw new SealedSourceError('the message changed since it was registered');
  }
  await deps.onRenewed(playback.videoId, fresh.url);
  return fresh.url;
}

/** Whether the store sent exactly the bytes asked for. */
function isExactAnswer(response: Response, start: number, end: number, size: number): boolean {
  if (response.status === 200) return start === 0 && end === size;
  if (response.status !== 206) return false;
  const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  // A store whose CORS rules hide Content-Range still answered 206 to this one range.
  return !range || (Number(range[1]) === start && Number(range[2]) === end - 1);
}

/**
 * Reads sealed bytes [start, end) of the stored object with one Range request; an expired URL is
 * renewed once. Whatever else goes wrong is thrown, and the player's stream fails with it.
 */
export function sealedReader(deps: TSourceDeps, playback: TSealedPlayback): TSealedReader {
  let url = playback.url;
  return async (start, end) => {
    let response = await fetchSealed(deps, url, start, end);
    if (EXPIRED_STATUSES.has(response.status)) {
      await response.body?.cancel();
      url = await renewUrl(deps, playback);
      response = await fetchSealed(deps, url, start, end);
    }
    if (!isExactAnswer(response, start, end, playback.objectSize) || !response.body) {
      await response.body?.cancel();
      throw new SealedSourceError(`the store answered ${response.status} for ${start}-${end - 1}`);
    }
    return response.body;
  };
}
