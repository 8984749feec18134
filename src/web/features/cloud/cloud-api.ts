import { useQuery } from '@tanstack/react-query';
import type { TCloudStatus } from '@shared/schemas/cloud';

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
