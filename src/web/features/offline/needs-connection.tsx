import { lazy, Suspense, type ReactNode } from 'react';
import { useIsOffline } from '@web/lib/use-online-status';

const NeedsConnectionMessage = lazy(() => import('./needs-connection-message'));

/**
 * A screen that is nothing without the server (recipients, the audit log, administration,
 * sign-in, the legacy release) says so plainly with no network, rather than failing or waiting.
 * It comes back by itself when the connection does.
 */
export function NeedsConnection({ children }: { children: ReactNode }) {
  if (!useIsOffline()) return children;
  return (
    <Suspense fallback={null}>
      <NeedsConnectionMessage />
    </Suspense>
  );
}
