import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { useKeptQueries } from './use-kept-queries';

/**
 * For a signed-in person, loaded after the first paint: keeps the lists a screen needs offline,
 * and when the connection returns sends what waited (the saving code loads then, not with the
 * page); the dashboard's counts follow.
 */
export default function OfflineSync({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  useKeptQueries(userId);
  useEffect(() => {
    const send = () => {
      void import('./send-waiting')
        .then(({ indexPendingVideos }) => indexPendingVideos(userId))
        .then((sent) => {
          if (sent > 0) void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
        })
        .catch((error: unknown) => console.warn('Sending what waited failed', error));
    };
    window.addEventListener('online', send);
    return () => window.removeEventListener('online', send);
  }, [queryClient, userId]);
  return null;
}
