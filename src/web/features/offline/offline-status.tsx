import { lazy, Suspense, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { hasCloudSync } from '@shared/domain/plans';
import { useAuth } from '@web/features/auth';
import { VIDEO_INDEX_QUERY_KEY } from '@web/features/videos';
import { useKeptQueries } from '@web/lib/kept-queries';
import { OFFLINE_MESSAGES } from './offline-messages';

const WaitingCount = lazy(() => import('./waiting-count'));

/**
 * When the connection returns, what waited is sent by itself (the saving code loads then, not
 * with the page); the dashboard's counts follow.
 */
function useSendWhenOnline(userId: number | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
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
}

/**
 * The calm line a signed-in person sees with no network: their videos are safe, and what waits
 * to be sent. Nothing at all while online.
 */
export function OfflineStatus() {
  const { user, isOffline } = useAuth();
  const userId = user?.id ?? null;
  useKeptQueries(userId);
  useSendWhenOnline(userId);
  if (!isOffline || !user) return null;
  return (
    <p
      role="status"
      className="mx-auto mb-6 flex w-full max-w-5xl items-start gap-3 rounded-xl border-2 border-warm-foreground/25 bg-warm px-5 py-3 text-lg text-foreground"
    >
      <WifiOff className="mt-0.5 size-6 shrink-0 text-warm-foreground" aria-hidden="true" />
      <span className="flex flex-wrap gap-x-3">
        <span className="font-semibold">{OFFLINE_MESSAGES.safe}</span>
        <Suspense fallback={null}>
          <WaitingCount userId={user.id} hasCloud={hasCloudSync(user)} />
        </Suspense>
      </span>
    </p>
  );
}
