import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CreditCard, Sparkles } from 'lucide-react';
import { hasFullAccess } from '@shared/domain/plan-limits';
import {
  CARE_HOME_TRIAL_DAYS,
  findPlan,
  PAID_TIERS,
  TRIAL_TIER,
  type TPlan,
} from '@shared/domain/plans';
import type { TUser } from '@shared/schemas/auth';
import type { TBillingStatus } from '@shared/schemas/billing';
import { Button } from '@web/components/ui/button';
import { ComingSoon, CurrentPlanMark, PlanSummary } from '@web/components/plan-card';
import { rememberPlanChoice, usePlanChoice } from '@web/lib/plan-choice';
import { describeError, isApiError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { hasLiveSubscription, openBillingPortal, startCheckout } from '../billing-api';

/** The plans a person can be on or buy here: the free plan and the paid ones with a price. */
const PREMIUM_PAGE_PLANS = [findPlan('free'), ...PAID_TIERS.map((tier) => findPlan(tier))];

export interface TPlanActionContext {
  user: TUser | null;
  /** Undefined while GET /api/billing is on its way. */
  billing: TBillingStatus | undefined;
  /** Undefined until the app's settings or the billing state say whether payments are taken. */
  billingEnabled: boolean | undefined;
  /** Back from a payment not yet confirmed: no second checkout while it arrives. */
  isConfirming: boolean;
}

function buttonLabel(plan: TPlan, billing: TBillingStatus | undefined): string {
  if (plan.tier === TRIAL_TIER && billing?.trialAvailable) {
    return `Start ${CARE_HOME_TRIAL_DAYS}-day free trial`;
  }
  return `Choose ${plan.name}`;
}

/**
 * One plan's button: checkout for an account without a subscription, the billing portal to
 * change a live one, and the remembered choice with 'Coming Soon' where payments are not taken.
 */
function PlanAction({
  plan,
  context,
  isChosen,
}: {
  plan: TPlan;
  context: TPlanActionContext;
  isChosen: boolean;
}) {
  const { user, billing, billingEnabled } = context;
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  if (!user || user.category !== 'primary') return null;
  if (plan.tier === user.subscriptionTier) return <CurrentPlanMark />;
  if (plan.tier === 'free') return null;
  // Not known yet: say nothing rather than 'Coming Soon' to someone who can pay.
  if (billingEnabled === undefined) return <div className="min-h-12" aria-hidden="true" />;

  if (!billingEnabled) {
    if (isChosen) return <ComingSoon plan={plan} />;
    return (
      <Button
        size="lg"
        variant={plan.badge === 'Most popular' ? 'default' : 'outline'}
        onClick={() => rememberPlanChoice(user.id, plan.tier)}
      >
        <Sparkles aria-hidden="true" />
        Choose {plan.name}
      </Button>
    );
  }

  // An administrator's setting wins over billing; the status above says so.
  const isOverridden = Boolean(
    billing?.override && (billing.override.tier || billing.override.vip),
  );
  if (isOverridden || hasFullAccess(user)) return null;

  if (context.isConfirming) return null;
  const isChange = billing ? hasLiveSubscription(billing) : false;
  if (isChange && !billing?.canManage) return null;
  const label = isChange ? `Change to ${plan.name}` : buttonLabel(plan, billing);
  const errorId = `plan-error-${plan.tier}`;

  async function go() {
    setIsBusy(true);
    setError(null);
    try {
      rememberPlanChoice(user!.id, plan.tier);
      if (isChange) await openBillingPortal();
      else await startCheckout(plan.tier);
      // The page is leaving for the provider's; the button stays busy until it has.
    } catch (reason) {
      setIsBusy(false);
      // The server's own words: a plan already paid for, and what to do instead.
      setError(
        describeError(reason, 'We could not open the secure payment page. Please try again.'),
      );
      // This page was behind (a plan paid in another window): show the plan and Manage billing.
      if (isApiError(reason, 'CONFLICT')) void queryClient.invalidateQueries();
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Button
        size="lg"
        // A change of plan is offered quietly; a first plan may be suggested.
        variant={!isChange && (isChosen || plan.badge === 'Most popular') ? 'default' : 'outline'}
        disabled={!billing || isBusy}
        aria-describedby={error ? errorId : undefined}
        onClick={() => void go()}
      >
        {isChange ? <CreditCard aria-hidden="true" /> : <Sparkles aria-hidden="true" />}
        {isBusy ? 'Opening the secure payment page…' : label}
      </Button>
      {error && (
        <p id={errorId} role="alert" className="text-base font-semibold text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** /premium's plans: what each adds, its price, the current one marked, a button for each. */
export function PremiumPlans({ context }: { context: TPlanActionContext }) {
  const choice = usePlanChoice(context.user?.id);
  return (
    <ul className="grid gap-5 md:grid-cols-2" aria-label="Plans">
      {PREMIUM_PAGE_PLANS.map((plan) => {
        const headingId = `premium-plan-${plan.tier}`;
        const isCurrent = context.user?.subscriptionTier === plan.tier;
        const isChosen = choice?.tier === plan.tier && !isCurrent;
        return (
          <li
            key={plan.tier}
            aria-labelledby={headingId}
            className={cn(
              'flex flex-col gap-4 rounded-xl border-2 bg-card p-6 shadow-soft',
              isCurrent || isChosen ? 'border-primary' : 'border-border',
            )}
          >
            <PlanSummary plan={plan} headingId={headingId} Heading="h2" />
            {plan.tier === TRIAL_TIER && (context.billing?.trialAvailable ?? true) && (
              <p className="text-lg">Care homes can try it free for {CARE_HOME_TRIAL_DAYS} days.</p>
            )}
            <div className="mt-auto flex flex-col pt-2">
              <PlanAction plan={plan} context={context} isChosen={isChosen} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
