import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { isUpdateWaiting, subscribeToUpdate } from './update-signal';

const UpdateReady = lazy(() => import('./update-ready'));

/**
 * A new version is installed and waits: the person reloads when they choose. Never on the
 * Record page, where a reload would interrupt a recording.
 */
export function UpdatePrompt() {
  const isWaiting = useSyncExternalStore(subscribeToUpdate, isUpdateWaiting, () => false);
  const isRecordPage = useLocation().pathname === '/record';
  if (!isWaiting || isRecordPage) return null;
  return (
    <Suspense fallback={null}>
      <UpdateReady />
    </Suspense>
  );
}
