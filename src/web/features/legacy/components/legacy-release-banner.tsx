import { CircleCheck, Hourglass } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { useAuth } from '@web/lib/auth-provider';
import { useCancelRelease } from '../use-cancel-release';
import { CANCEL_TEXT, describeAsker, formatLongDate } from '../release-wording';

/**
 * The owner's notice on every signed-in screen while a release waits: calm, in the page's flow,
 * with the one button that stops it. After cancelling it says so, then stays quiet.
 */
export default function LegacyReleaseBanner() {
  const { user } = useAuth();
  const { cancel, isCancelling, isCancelled, error } = useCancelRelease();
  const pending = user?.legacyRelease ?? null;

  if (!user) return null;
  if (isCancelled && !pending) {
    return (
      <div
        role="status"
        className="mx-auto mb-6 flex w-full max-w-5xl items-start gap-3 rounded-xl border-2 border-success/40 bg-success-soft p-4 text-lg"
      >
        <CircleCheck className="mt-0.5 size-6 shrink-0 text-success" aria-hidden="true" />
        <p>{CANCEL_TEXT.done}</p>
      </div>
    );
  }
  if (!pending) return null;
  const asker = describeAsker(pending.requestedBy);
  return (
    <div
      role="status"
      className="mx-auto mb-6 flex w-full max-w-5xl flex-col gap-3 rounded-xl border-2 border-warm-foreground/25 bg-warm p-4 text-lg sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-3">
        <Hourglass className="mt-0.5 size-6 shrink-0 text-warm-foreground" aria-hidden="true" />
        <span>
          {asker} asked to release your legacy on {formatLongDate(pending.requestedAt)}. Unless you
          cancel, it is released on {formatLongDate(pending.releasesAt)}.
          {error && <span className="mt-1 block font-semibold text-destructive">{error}</span>}
        </span>
      </p>
      <Button
        variant="outline"
        className="shrink-0"
        onClick={cancel}
        aria-disabled={isCancelling || undefined}
      >
        {isCancelling ? 'Cancelling...' : CANCEL_TEXT.button}
      </Button>
    </div>
  );
}
