import { QueryClient } from '@tanstack/react-query';
import { defaultQueryFn } from '@web/lib/api-client';

/**
 * By default queries never go stale, are not retried and do not refetch on window
 * focus; mutations are not retried. The user query sets its own staleness and retries.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
