import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { VIDEO_INDEX_QUERY_KEY } from '@web/lib/videos/videos-api';
import { CLOUD_STATUS_QUERY_KEY } from './cloud-api';
import { syncPendingVideos } from './sync-engine';
import { SYNC_REQUEST_EVENT } from '@web/lib/sync-request';
import { fillFromCloud } from '@web/lib/videos/cloud-fill';
import { setFillProgress } from './fill-progress';
import { askToSendInBackground, handOverSender } from '@web/lib/background-send';
import { SYNC_INTERVAL_MS, watchPhoneCopies } from './phone-copies';

/**
 * Background sync for a paid account on its primary device: loaded only for them, so
 * the Community Edition never even downloads the code that sends video.
 */
export default function CloudSync({ userId }: { userId: number }) {
  const queryClient = useQueryClient();

  useEffect(() => {
    let isActive = true;
    // Where the browser can, what waits is sent once online even if Memento is closed by then.
    const sendLater = () => void askToSendInBackground().catch(() => undefined);
    const run = () => {
      void syncPendingVideos(userId, { onOffline: sendLater })
        .then((synced) => {
          if (!isActive || synced === 0) return;
          void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
          void queryClient.invalidateQueries({ queryKey: CLOUD_STATUS_QUERY_KEY });
        })
        .catch(() => undefined);
    };
    // A new primary device brings down what it does not hold yet: on each visit, when the
    // connection returns and after an unlock (not every half minute); a run under way is joined.
    const fill = () => void fillFromCloud(userId, setFillProgress).catch(() => undefined);
    void handOverSender(userId).catch(() => undefined);
    run();
    fill();
    // What a phone sent, once sealed for the owner, is brought down like any other copy.
    const stopSealing = watchPhoneCopies(userId, () => {
      void queryClient.invalidateQueries({ queryKey: VIDEO_INDEX_QUERY_KEY });
      fill();
    });
    const timer = setInterval(run, SYNC_INTERVAL_MS);
    for (const type of ['online', SYNC_REQUEST_EVENT]) {
      window.addEventListener(type, run);
      window.addEventListener(type, fill);
    }
    // A save: should the tab close before it is sent, the worker sends it.
    window.addEventListener(SYNC_REQUEST_EVENT, sendLater);
    return () => {
      window.removeEventListener(SYNC_REQUEST_EVENT, sendLater);
      isActive = false;
      stopSealing();
      clearInterval(timer);
      for (const type of ['online', SYNC_REQUEST_EVENT]) {
        window.removeEventListener(type, run);
        window.removeEventListener(type, fill);
      }
    };
  }, [queryClient, userId]);

  return null;
}
