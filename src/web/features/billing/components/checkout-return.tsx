import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { CircleCheck, Clock, Info } from 'lucide-react';
import { findPlan } from '@shared/domain/plans';
import type { TBillingStatus } from '@shared/schemas/billing';
import { Button } from '@web/components/ui/button';
import { hasLiveSubscription, useBillingStatus } from '../billing-api';

/** How often the page asks whether the payment has been confirmed, and for how long. */
export const CONFIRM_POLL_MS = 2000;
const CONFIRM_PATIENCE_MS = 120_000;
/** Past that, still asked now and then, so the page updates by itself if it stays open. */
const CONFIRM_SLOW_POLL_MS = 15_000;

export type TCheckoutPhase = 'confirming' | 'slow' | 'confirmed' | 'cancelled' | null;

/**
 * Coming back from checkout: the provider's webhook may arrive a moment after the person does, so
 * the page asks again until the subscription is there, then every page is refreshed with the new
 * plan. Returns the phase and the account's billing status, asked for as often as the phase needs.
 */
export function useCheckoutReturn({ enabled }: { enabled: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<TCheckoutPhase>(() => {
    const checkout = searchParams.get('checkout');
    if (checkout === 'success') return 'confirming';
    if (checkout === 'cancelled') return 'cancelled';
    return null;
  });

  useEffect(() => {
    if (phase !== 'confirming') return;
    const timer = setTimeout(() => setPhase('slow'), CONFIRM_PATIENCE_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  const isWaiting = phase === 'confirming' || phase === 'slow';
  const billingQuery = useBillingStatus({
    enabled,
    refetchInterval:
      phase === 'confirming' ? CONFIRM_POLL_MS : phase === 'slow' ? CONFIRM_SLOW_POLL_MS : false,
  });
  const billing = billingQuery.data;
  // Set while rendering, as soon as the answer shows the subscription: no render in between.
  if (isWaiting && billing !== undefined && hasLiveSubscription(billing)) setPhase('confirmed');
  const hasRefreshed = useRef(false);
  useEffect(() => {
    if (phase !== 'confirmed' || hasRefreshed.current) return;
    hasRefreshed.current = true;
    // The user, the recipients' limits, the banner, cloud sync: every page reads the new plan.
    void queryClient.invalidateQueries();
    // A reload or a bookmark later does not wait for a payment again.
    setSearchParams(
      (params) => {
        params.delete('checkout');
        return params;
      },
      { replace: true },
    );
  }, [phase, queryClient, setSearchParams]);

  return { phase, billingQuery };
}

/** The calm words for each phase, in one polite live region that stays on the page. */
export function CheckoutReturnNotice({
  phase,
  billing,
}: {
  phase: TCheckoutPhase;
  billing: TBillingStatus | undefined;
}) {
  const planName = billing?.billedTier ? findPlan(billing.billedTier).name : null;
  if (phase === null) return null;
  return (
    <div role="status" aria-live="polite">
      {(phase === 'confirming' || phase === 'slow') && (
        <div className="flex flex-col gap-2 rounded-xl border-2 border-primary/30 bg-primary-soft p-6">
          <p className="flex items-center gap-3 text-xl font-bold">
            <Clock className="size-6 shrink-0 text-primary" aria-hidden="true" />
            Confirming your payment…
          </p>
          <p className="text-lg sm:pl-9">
            {phase === 'slow'
              ? 'This is taking longer than usual. You can leave this page; your plan will update by itself.'
              : 'This usually takes a few seconds. You do not need to do anything.'}
          </p>
        </div>
      )}
      {phase === 'confirmed' && (
        <div className="flex flex-col gap-3 rounded-xl border-2 border-success/40 bg-success-soft p-6">
          <p className="flex items-center gap-3 text-xl font-bold">
            <CircleCheck className="size-6 shrink-0 text-success" aria-hidden="true" />
            {planName ? `You're on ${planName} now` : 'Your new plan is ready'}
          </p>
          <p className="text-lg sm:pl-9">
            Thank you. Everything your plan includes is ready to use.
          </p>
          <Button asChild variant="outline" className="self-start sm:ml-9">
            <Link to="/">Back to your dashboard</Link>
          </Button>
        </div>
      )}
      {phase === 'cancelled' && (
        <p className="flex items-start gap-3 rounded-xl border-2 border-border bg-muted p-5 text-lg">
          <Info className="mt-1 size-5 shrink-0 text-primary" aria-hidden="true" />
          <span>
            You left the payment page before paying. Nothing was charged. You can choose a plan
            whenever you like.
          </span>
        </p>
      )}
    </div>
  );
}
