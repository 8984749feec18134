import { Link, useNavigate } from 'react-router';
import { Check, Clock, Sparkles } from 'lucide-react';
import type { TPlan } from '@shared/domain/plans';
import { Button } from '@web/components/ui/button';
import { useAuth } from '@web/lib/auth-provider';
import { useAppConfig } from '@web/lib/app-config';
import { cn } from '@web/lib/utils';
import { PlanFeatureList } from './feature-status';
import { rememberPlanChoice, usePlanChoice } from '@web/lib/plan-choice';

export function PlanBadge({ badge }: { badge: TPlan['badge'] }) {
  if (!badge) return null;
  return (
    <span
      className={cn(
        'rounded-full px-3 py-0.5 text-base font-semibold',
        badge === 'Most popular'
          ? 'bg-primary text-primary-foreground'
          : 'bg-warm text-warm-foreground',
      )}
    >
      {badge}
    </span>
  );
}

/** A plan's name, badge, price and what it includes, unfinished parts marked. */
export function PlanSummary({
  plan,
  headingId,
  Heading,
}: {
  plan: TPlan;
  headingId: string;
  Heading: 'h2' | 'h3';
}) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <Heading id={headingId} className="text-2xl font-bold tracking-tight">
          {plan.name}
        </Heading>
        <PlanBadge badge={plan.badge} />
      </div>
      <p className="text-2xl font-bold text-primary">{plan.priceLabel}</p>
      <PlanFeatureList plan={plan} />
    </>
  );
}

/** The remembered choice while payments are not taken. */
export function ComingSoon({ plan }: { plan: TPlan }) {
  return (
    <div className="flex flex-col gap-2">
      <Button size="lg" disabled aria-describedby={`coming-soon-${plan.tier}`}>
        <Clock aria-hidden="true" />
        Coming Soon
      </Button>
      <p id={`coming-soon-${plan.tier}`} role="status" className="text-base">
        We have noted that you chose {plan.name}. Paying for a plan is not available yet; your
        videos and recipients stay as they are in the meantime.
      </p>
    </div>
  );
}

/** The plan the account is on now. */
export function CurrentPlanMark() {
  return (
    <p className="flex min-h-12 items-center gap-2 rounded-lg bg-success-soft px-4 text-base font-semibold text-success">
      <Check className="size-5" aria-hidden="true" />
      Your current plan
    </p>
  );
}

/**
 * Signed out, a plan leads to /auth (the free plan to /auth?mode=community);
 * signed in, the choice is remembered; where billing is not switched on it shows 'Coming Soon',
 * where it is the choice leads to /premium.
 */
function PlanAction({ plan }: { plan: TPlan }) {
  const { user } = useAuth();
  const config = useAppConfig();
  const navigate = useNavigate();
  const choice = usePlanChoice(user?.id);
  const label = `Choose ${plan.name}`;

  if (plan.isContactOnly) {
    return (
      <p className="rounded-lg bg-muted px-4 py-3 text-base font-semibold">
        Contact only: arranged directly with each organisation.
      </p>
    );
  }

  if (!user) {
    return (
      <Button asChild size="lg" variant={plan.badge === 'Most popular' ? 'default' : 'outline'}>
        <Link to={plan.tier === 'free' ? '/auth?mode=community' : '/auth'}>
          {plan.tier === 'free' ? 'Start for Free' : label}
        </Link>
      </Button>
    );
  }

  if (plan.tier === user.subscriptionTier) return <CurrentPlanMark />;

  if (plan.tier === 'free') return null;

  const isChosen = choice?.tier === plan.tier;
  if (isChosen && config.data?.billingEnabled === false) return <ComingSoon plan={plan} />;

  return (
    <Button
      size="lg"
      variant={plan.badge === 'Most popular' ? 'default' : 'outline'}
      onClick={() => {
        rememberPlanChoice(user.id, plan.tier);
        if (config.data?.billingEnabled) navigate('/premium');
      }}
    >
      <Sparkles aria-hidden="true" />
      {label}
    </Button>
  );
}

export function PlanCard({ plan }: { plan: TPlan }) {
  const headingId = `plan-${plan.tier}`;
  return (
    <li
      aria-labelledby={headingId}
      className={cn(
        'flex flex-col gap-4 rounded-xl border-2 bg-card p-6 shadow-soft',
        plan.badge === 'Most popular' ? 'border-primary' : 'border-border',
      )}
    >
      <PlanSummary plan={plan} headingId={headingId} Heading="h3" />
      <div className="mt-auto flex flex-col pt-2">
        <PlanAction plan={plan} />
      </div>
    </li>
  );
}
