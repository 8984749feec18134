import { lazy, Suspense } from 'react';
import { hasCloudSync } from '@shared/domain/plan-limits';
import { useAuth } from '@web/lib/auth-provider';
import { useAfterFirstPaint } from '@web/lib/use-after-first-paint';

// Each part loads when it is needed (the service worker keeps them for offline use), so the
// first page of a visitor carries none of it.
const OfflineLine = lazy(() => import('./offline-line'));
const OfflineSync = lazy(() => import('./offline-sync'));

/**
 * For a signed-in person: the offline line while there is no network, and, after the first
 * paint, the work that keeps the app usable offline and sends what waited.
 */
export function OfflineStatus() {
  const { user, isOffline } = useAuth();
  const isPainted = useAfterFirstPaint();
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      {isPainted && <OfflineSync userId={user.id} />}
      {isOffline && <OfflineLine userId={user.id} hasCloud={hasCloudSync(user)} />}
    </Suspense>
  );
}
