import { hasFullAccess } from '@shared/domain/plan-limits';
import { CLOUD_RETENTION_DAYS, findPlan } from '@shared/domain/plans';
import type { TUser } from '@shared/schemas/auth';
import type { TBillingStatus } from '@shared/schemas/billing';
import { lazyDateFormat } from './date-format';

// Billing dates are days, written as a person in the UK says them: 3 January 2027.
const longDate = lazyDateFormat('en-GB', { dateStyle: 'long' });
const DAY_MS = 24 * 3600_000;

export function formatBillingDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : longDate.format(date);
}

/** The day cloud copies go if the plan ends on `endsAt` and nothing is restored before then. */
export function cloudKeptUntil(endsAt: string): string {
  return formatBillingDate(
    new Date(new Date(endsAt).getTime() + CLOUD_RETENTION_DAYS * DAY_MS).toISOString(),
  );
}

const FREE_PLAN = findPlan('free');

/** What the free plan changes for an account that had a paid one: recipients, then recordings. */
export const FREE_PLAN_CHANGES = [
  `Every recipient stays, with every message. The free plan includes your next of kin and ${FREE_PLAN.maxRecipients ?? 0} more recipient, so you can only add someone new while you have fewer than that.`,
  `New messages are kept on this device only, and can be up to ${FREE_PLAN.maxRecordingSeconds / 60} minute long.`,
] as const;

/** What the free plan takes away and when, said plainly (the 30-day cloud retention included). */
export function whatChangesOnFreePlan(endsAt: string): string[] {
  return [
    ...FREE_PLAN_CHANGES,
    `Messages already in the cloud stay there until ${cloudKeptUntil(endsAt)}, so your recipients can still watch them. Your dashboard will offer to keep them all on this device.`,
    'Nothing is deleted on the day your plan ends.',
  ];
}

export type TPlanStatusTone = 'calm' | 'attention';

export interface TPlanStatus {
  tone: TPlanStatusTone;
  lines: string[];
  /** The plan ends on this day (cancelled, or the payment was not taken): what changes then. */
  endsAt: string | null;
}

/**
 * The plain sentences under 'Your plan' on /premium, in the order a person needs them: who set
 * the plan, a payment that failed, an ending, a trial, the next renewal.
 */
export function describePlanStatus(user: TUser, billing: TBillingStatus): TPlanStatus {
  const billed = billing.billedTier ? findPlan(billing.billedTier) : null;
  const override = billing.override;
  if (override && (override.tier !== null || override.vip)) {
    const lines = ['Your plan is set by an administrator.'];
    if (billed && !billing.cancelAtPeriodEnd)
      lines.push(
        `You are still billed for ${billed.name}; use Manage billing to change or cancel it.`,
      );
    return { tone: 'calm', lines, endsAt: null };
  }
  if (hasFullAccess(user)) {
    return {
      tone: 'calm',
      lines: ['As an administrator, your account has every feature of every plan.'],
      endsAt: null,
    };
  }
  if (billing.status === 'past_due' && billing.graceEndsAt) {
    return {
      tone: 'attention',
      lines: [
        `We could not take your last payment. Your plan stays until ${formatBillingDate(billing.graceEndsAt)}. Please update your card in Manage billing.`,
      ],
      endsAt: billing.graceEndsAt,
    };
  }
  if (billing.cancelAtPeriodEnd && billing.currentPeriodEnd) {
    return {
      tone: 'attention',
      lines: [
        `Your plan ends on ${formatBillingDate(billing.currentPeriodEnd)}. You keep everything until then.`,
      ],
      endsAt: billing.currentPeriodEnd,
    };
  }
  if (billed && billing.trialEndsAt && new Date(billing.trialEndsAt).getTime() > Date.now()) {
    return {
      tone: 'calm',
      lines: [
        `Your free trial of ${billed.name} ends on ${formatBillingDate(billing.trialEndsAt)}. After that it is ${billed.priceLabel} unless you cancel in Manage billing.`,
      ],
      endsAt: null,
    };
  }
  if (billed && billing.status === 'active' && billing.currentPeriodEnd) {
    return {
      tone: 'calm',
      lines: [`Your ${billed.name} plan renews on ${formatBillingDate(billing.currentPeriodEnd)}.`],
      endsAt: null,
    };
  }
  return { tone: 'calm', lines: [], endsAt: null };
}
