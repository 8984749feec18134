import { Link } from 'react-router';
import { CalendarClock, CreditCard } from 'lucide-react';
import { findPlan } from '@shared/domain/plans';
import type { TUser } from '@shared/schemas/auth';
import type { TBillingStatus } from '@shared/schemas/billing';
import { Button } from '@web/components/ui/button';
import { useAppConfig } from '@web/lib/app-config';
import { useBillingStatus } from '../billing-api';
import { formatBillingDate } from '@web/lib/billing-wording';

type TNotice =
  | { kind: 'payment-failed'; until: string | null }
  | { kind: 'ending'; planName: string; on: string | null };

/** What the account's billing needs a person to know, from the status or, sooner, the user. */
function findNotice(user: TUser, billing: TBillingStatus | undefined): TNotice | null {
  if (billing) {
    const isOverridden = billing.override && (billing.override.tier || billing.override.vip);
    if (isOverridden || !billing.billedTier) return null;
    if (billing.status === 'past_due')
      return { kind: 'payment-failed', until: billing.graceEndsAt };
    if (billing.cancelAtPeriodEnd) {
      return {
        kind: 'ending',
        planName: findPlan(billing.billedTier).name,
        on: billing.currentPeriodEnd,
      };
    }
    return null;
  }
  // The user arrives with the page: these two are known before the dates are, so the banner's
  // place is taken from the first paint and only its date fills in.
  if (user.subscriptionStatus === 'past_due') return { kind: 'payment-failed', until: null };
  if (user.subscriptionStatus === 'cancelled' && user.subscriptionTier !== 'free') {
    return { kind: 'ending', planName: findPlan(user.subscriptionTier).name, on: null };
  }
  return null;
}

/**
 * A plain banner in the page's flow (never over it) when a payment failed or the plan is ending,
 * with the date and the way to /premium. For the account holder on the pages they work from.
 */
export function BillingNotice({ user }: { user: TUser }) {
  const billingEnabled = useAppConfig().data?.billingEnabled ?? false;
  // A failed payment or an ending both keep a paid plan until their date.
  const mayHaveNotice =
    billingEnabled && user.category === 'primary' && user.subscriptionTier !== 'free';
  const billing = useBillingStatus({ enabled: mayHaveNotice });
  if (!mayHaveNotice) return null;
  const notice = findNotice(user, billing.data);
  if (!notice) return null;

  const isPaymentFailed = notice.kind === 'payment-failed';
  const title = isPaymentFailed
    ? 'We could not take your last payment'
    : `Your ${notice.planName} plan is ending`;
  const detail = isPaymentFailed
    ? notice.until
      ? `Your plan stays until ${formatBillingDate(notice.until)}. Please update your card in Manage billing.`
      : 'Your plan stays for now. Please update your card in Manage billing.'
    : notice.on
      ? `Your plan ends on ${formatBillingDate(notice.on)}. You keep everything until then.`
      : 'You keep everything until the end of the period you paid for.';

  return (
    <section
      aria-label={title}
      className="flex flex-col gap-3 rounded-xl border-2 border-warm-foreground/25 bg-warm p-5 sm:flex-row sm:items-center"
    >
      <div className="flex flex-1 items-start gap-3">
        {isPaymentFailed ? (
          <CreditCard className="mt-0.5 size-7 shrink-0 text-warm-foreground" aria-hidden="true" />
        ) : (
          <CalendarClock
            className="mt-0.5 size-7 shrink-0 text-warm-foreground"
            aria-hidden="true"
          />
        )}
        <div className="flex flex-col gap-1">
          <p className="text-lg font-bold">{title}</p>
          <p className="text-lg">{detail}</p>
        </div>
      </div>
      <Button asChild variant="outline" className="self-start sm:self-center">
        <Link to="/premium">See your plan</Link>
      </Button>
    </section>
  );
}
