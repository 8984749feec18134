import { lazy, Suspense, useEffect } from 'react';
import { hasCloudSync } from '@shared/domain/plan-limits';
import { useAuth } from '@web/lib/auth-provider';
import { useAfterFirstPaint } from '@web/lib/use-after-first-paint';

// Each part loads after the first paint, so the first page of a visitor carries none of it. The
// offline line is fetched then too, while the network is there: loaded only once it is gone, it
// could not arrive where no service worker keeps it, and the page gave way to an error.
const loadOfflineLine = () => import('./offline-line');
const OfflineLine = lazy(loadOfflineLine);
const OfflineSync = lazy(() => import('./offline-sync'));

/**
 * For a signed-in person: the offline line while there is no network, and, after the first
 * paint, the work that keeps the app usable offline and sends what waited.
 */
export function OfflineStatus() {
  const { user, isOffline } = useAuth();
  const isPainted = useAfterFirstPaint();
  const isSignedIn = user !== null;
  useEffect(() => {
    // A failed fetch (offline already) is tried again when the line is first needed.
    if (!isPainted || !isSignedIn) return;
    // The line and the count of what waits, which it loads in turn.
    void Promise.all([loadOfflineLine(), import('./waiting-count')]).catch(() => undefined);
  }, [isPainted, isSignedIn]);
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      {isPainted && <OfflineSync userId={user.id} />}
      {isOffline && <OfflineLine userId={user.id} hasCloud={hasCloudSync(user)} />}
    </Suspense>
  );
}
