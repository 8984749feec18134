import type { ReactNode } from 'react';
import { WifiOff } from 'lucide-react';
import { useIsOffline } from '@web/lib/use-online-status';
import { OFFLINE_MESSAGES } from './offline-messages';

/**
 * A screen that is nothing without the server (recipients, the audit log, administration,
 * sign-in, the legacy release) says so plainly with no network, rather than failing or waiting.
 * It comes back by itself when the connection does.
 */
export function NeedsConnection({ children }: { children: ReactNode }) {
  const isOffline = useIsOffline();
  if (!isOffline) return children;
  return (
    <section
      aria-labelledby="needs-connection"
      className="mx-auto flex w-full max-w-2xl flex-col items-center gap-4 rounded-xl border-2 border-warm-foreground/25 bg-warm p-8 text-center"
    >
      <WifiOff className="size-10 text-warm-foreground" aria-hidden="true" />
      <h1 id="needs-connection" className="text-2xl font-bold tracking-tight">
        {OFFLINE_MESSAGES.needsConnection}
      </h1>
    </section>
  );
}
