import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { KEPT_KEY_PREFIX } from '@web/lib/kept-queries';

/**
 * The owner's own lists a screen needs with no network (the recorder chooses a recipient; the
 * dashboard compares its counts), kept in this browser beside the cached user and forgotten on
 * sign-out. Never an answer of anyone else's: each is kept under the signed-in user's id.
 */
const KEPT_QUERY_PATHS: readonly string[] = ['/api/recipients', '/api/videos'];

const storageKey = (userId: number, path: string) => `${KEPT_KEY_PREFIX}${userId}:${path}`;

function readKept(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function writeKept(key: string, data: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(data));
  } catch {
    // Storage full or blocked: the screen asks the server, as it always did.
  }
}

/**
 * Keeps the lists above as the server answers them, and, with no network, puts the kept ones in
 * the query cache for the screens to draw from (marked old, so the server is asked again once it
 * can be).
 */
export function useKeptQueries(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    const seed = () => {
      for (const path of KEPT_QUERY_PATHS) {
        if (queryClient.getQueryData([path]) !== undefined) continue;
        const kept = readKept(storageKey(userId, path));
        if (kept !== undefined) queryClient.setQueryData([path], kept, { updatedAt: 0 });
      }
    };
    // What the server answered before this ran (it starts after the first paint) is kept too.
    for (const path of KEPT_QUERY_PATHS) {
      const data = queryClient.getQueryData([path]);
      if (data !== undefined) writeKept(storageKey(userId, path), data);
    }
    if (!navigator.onLine) seed();
    window.addEventListener('offline', seed);
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const [path, ...rest] = event.query.queryKey;
      if (rest.length > 0 || typeof path !== 'string' || !KEPT_QUERY_PATHS.includes(path)) return;
      writeKept(storageKey(userId, path), event.query.state.data);
    });
    return () => {
      window.removeEventListener('offline', seed);
      unsubscribe();
    };
  }, [queryClient, userId]);
}
