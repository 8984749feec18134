import { useQuery } from '@tanstack/react-query';
import type { TPlayback } from '@shared/schemas/cloud';
import type {
  TCreateVideoIndexBody,
  TVideoIndexEntry,
  TVideosDeleted,
} from '@shared/schemas/videos';
import { apiRequest } from '@web/lib/api-client';

export const VIDEO_INDEX_QUERY_KEY = ['/api/videos'] as const;

/** Whether the cloud holds a whole copy of the indexed video. */
export function hasCloudCopy(entry: TVideoIndexEntry): boolean {
  return entry.storageType === 'cloud' && entry.syncStatus === 'synced';
}

/**
 * Indexed videos that neither this device (`localIds`) nor the cloud keeps: lost with a browser's
 * data, unless a backup brings them back. A video in the cloud is not lost with this browser's.
 */
export function missingHere(
  index: readonly TVideoIndexEntry[],
  localIds: ReadonlySet<string>,
): TVideoIndexEntry[] {
  return index.filter((entry) => !hasCloudCopy(entry) && !localIds.has(entry.id));
}

/** GET /api/videos: the server's index of the signed-in user's videos (never content). */
export function useVideoIndex(options: { enabled?: boolean } = {}) {
  return useQuery<TVideoIndexEntry[]>({
    queryKey: VIDEO_INDEX_QUERY_KEY,
    enabled: options.enabled ?? true,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** POST /api/videos: idempotent by id, so a retried save never makes a second row. */
export function indexVideo(body: TCreateVideoIndexBody): Promise<TVideoIndexEntry> {
  return apiRequest<TVideoIndexEntry>('/api/videos', { method: 'POST', body });
}

/** DELETE /api/videos: only the caller's own rows are removed. */
export function deleteIndexedVideos(ids: string[]): Promise<TVideosDeleted> {
  return apiRequest<TVideosDeleted>('/api/videos', { method: 'DELETE', body: { ids } });
}

/** GET /api/videos/:id/playback: a short-lived URL the player streams from. */
export function fetchPlayback(videoId: string): Promise<TPlayback> {
  return apiRequest<TPlayback>(`/api/videos/${videoId}/playback`);
}
