import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { CLOUD_STATUS_QUERY_KEY } from './cloud-api';
import { syncPendingVideos } from './sync-engine';
import { SYNC_REQUEST_EVENT } from '@web/lib/sync-request';

/** While the app is open: every half minute, when the connection returns, and after a save. */
const SYNC_INTERVAL_MS = 30_000;

/**
 * Background sync for a paid account on its primary device: loaded only for them, so
 * the Community Edition never even downloads the code that sends video.
 */
export default function CloudSync({ userId }: { userId: number }) {
  const queryClient = useQueryClient();

  useEffect(() => {
    let isActive = true;
    const run = () => {
      void syncPendingVideos(userId)
        .then((synced) => {
          if (!isActive || synced === 0) return;
          void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
          void queryClient.invalidateQueries({ queryKey: CLOUD_STATUS_QUERY_KEY });
        })
        .catch(() => undefined);
    };
    run();
    const timer = setInterval(run, SYNC_INTERVAL_MS);
    window.addEventListener('online', run);
    window.addEventListener(SYNC_REQUEST_EVENT, run);
    return () => {
      isActive = false;
      clearInterval(timer);
      window.removeEventListener('online', run);
      window.removeEventListener(SYNC_REQUEST_EVENT, run);
    };
  }, [queryClient, userId]);

  return null;
}
