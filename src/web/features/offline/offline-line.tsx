import { Suspense, lazy } from 'react';
import { CloudOff } from 'lucide-react';
import { OFFLINE_MESSAGES } from './offline-messages';

const WaitingCount = lazy(() => import('./waiting-count'));

/** The calm line a signed-in person sees with no network: what is safe, and what waits. */
export default function OfflineLine({ userId, hasCloud }: { userId: number; hasCloud: boolean }) {
  return (
    <p
      role="status"
      className="mx-auto mb-6 flex w-full max-w-5xl items-start gap-3 rounded-xl border-2 border-warm-foreground/25 bg-warm px-5 py-3 text-lg text-foreground"
    >
      <CloudOff className="mt-0.5 size-6 shrink-0 text-warm-foreground" aria-hidden="true" />
      <span className="flex flex-wrap gap-x-3">
        <span className="font-semibold">{OFFLINE_MESSAGES.safe}</span>
        <Suspense fallback={null}>
          <WaitingCount userId={userId} hasCloud={hasCloud} />
        </Suspense>
      </span>
    </p>
  );
}
