import { useState } from 'react';
import { CalendarClock, CreditCard } from 'lucide-react';
import { hasFullAccess } from '@shared/domain/plan-limits';
import { findPlan } from '@shared/domain/plans';
import type { TUser } from '@shared/schemas/auth';
import type { TBillingStatus } from '@shared/schemas/billing';
import { Button } from '@web/components/ui/button';
import { describeError } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { openBillingPortal } from '../billing-api';
import {
  describePlanStatus,
  formatBillingDate,
  whatChangesOnFreePlan,
} from '@web/lib/billing-wording';

/** 'Manage billing': the provider's portal for the plan, the card, invoices and cancelling. */
export function ManageBillingButton({ className }: { className?: string }) {
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function open() {
    setIsBusy(true);
    setError(null);
    try {
      await openBillingPortal();
    } catch (reason) {
      setIsBusy(false);
      setError(describeError(reason, 'We could not open Manage billing. Please try again.'));
    }
  }
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Button
        size="lg"
        variant="outline"
        className="self-start"
        disabled={isBusy}
        aria-describedby={error ? 'manage-billing-error' : undefined}
        onClick={() => void open()}
      >
        <CreditCard aria-hidden="true" />
        {isBusy ? 'Opening Manage billing…' : 'Manage billing'}
      </Button>
      {error && (
        <p
          id="manage-billing-error"
          role="alert"
          className="text-base font-semibold text-destructive"
        >
          {error}
        </p>
      )}
    </div>
  );
}

/** Whether 'Your plan' has anything to say: a paid plan, a subscription, an administrator's. */
export function hasPlanToDescribe(user: TUser, billing: TBillingStatus): boolean {
  return (
    user.subscriptionTier !== 'free' ||
    hasFullAccess(user) ||
    billing.billedTier !== null ||
    billing.canManage ||
    Boolean(billing.override && (billing.override.tier || billing.override.vip))
  );
}

/**
 * The top of /premium for an account holder with a plan: its name, plain status lines (renewal,
 * an ending, a payment that failed, a trial, an administrator's setting), what changes when it
 * ends, and 'Manage billing'.
 */
export function YourPlan({ user, billing }: { user: TUser; billing: TBillingStatus }) {
  const plan = findPlan(billing.tier);
  const status = describePlanStatus(user, billing);
  return (
    <section
      aria-labelledby="your-plan-heading"
      className={cn(
        'flex flex-col gap-4 rounded-xl border-2 p-5 sm:p-8',
        status.tone === 'attention'
          ? 'border-warm-foreground/25 bg-warm'
          : 'border-primary/30 bg-primary-soft',
      )}
    >
      <h2 id="your-plan-heading" className="text-2xl font-bold tracking-tight">
        You are on {plan.name}
      </h2>
      {status.lines.map((line) => (
        <p key={line} className="flex items-start gap-3 text-lg" data-testid="plan-status">
          <CalendarClock className="mt-1 size-5 shrink-0 text-primary" aria-hidden="true" />
          <span>{line}</span>
        </p>
      ))}
      {/* The way to put it right comes before the details of what would change. */}
      {billing.enabled && billing.canManage && <ManageBillingButton />}
      {status.endsAt && (
        <div className="flex flex-col gap-2 text-lg">
          <p className="font-semibold">
            {billing.status === 'past_due'
              ? `If the payment is not taken by ${formatBillingDate(status.endsAt)}, your account moves to the free Community Edition:`
              : `On ${formatBillingDate(status.endsAt)} your account moves to the free Community Edition:`}
          </p>
          <ul className="flex list-disc flex-col gap-1.5 pl-6">
            {whatChangesOnFreePlan(status.endsAt).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
