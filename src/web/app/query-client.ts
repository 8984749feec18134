import { onlineManager, QueryClient } from '@tanstack/react-query';
import { defaultQueryFn } from '@web/lib/api-client';

/**
 * By default queries never go stale, are not retried and do not refetch on window
 * focus; mutations are not retried. The user query sets its own staleness and retries.
 */
export function createQueryClient(): QueryClient {
  // A page opened with no network waits for it rather than failing its requests (and its
  // screens draw from what the browser kept); the library assumes online until told otherwise.
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    onlineManager.setOnline(false);
  }
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
      },
      // An action taken offline fails at once and says so, rather than waiting unseen.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
