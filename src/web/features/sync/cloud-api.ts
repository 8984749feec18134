import { useQuery } from '@tanstack/react-query';
import type { TCloudStatus, TPlayback } from '@shared/schemas/cloud';
import { apiRequest } from '@web/lib/api-client';

export const CLOUD_STATUS_QUERY_KEY = ['/api/cloud/status'] as const;

/** GET /api/cloud/status: storage used, this device's last sync, a downgrade's deadline. */
export function useCloudStatus(options: { enabled?: boolean } = {}) {
  return useQuery<TCloudStatus>({
    queryKey: CLOUD_STATUS_QUERY_KEY,
    enabled: options.enabled ?? true,
    staleTime: 0,
    refetchInterval: 15_000,
  });
}

/** GET /api/videos/:id/playback: a short-lived URL the player streams from. */
export function fetchPlayback(videoId: string): Promise<TPlayback> {
  return apiRequest<TPlayback>(`/api/videos/${videoId}/playback`);
}
