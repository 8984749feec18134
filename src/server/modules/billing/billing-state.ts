import type { TSubscriptionStatus, TTier } from '../../../shared/domain/enums';
import { PAYMENT_GRACE_DAYS } from '../../../shared/domain/plans';
import type { UserRow } from '../users/users.repository';
import type { ProviderSubscription } from './payment-provider';

const DAY_MS = 24 * 3600_000;

/** What billing keeps on the account (the columns of the same names). */
export interface BillingState {
  /** The plan the subscription grants now; null when it grants none. */
  billedTier: TTier | null;
  subscriptionStatus: TSubscriptionStatus;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  graceEndsAt: Date | null;
  trialEndsAt: Date | null;
}

export type StoredBilling = Pick<UserRow, keyof BillingState>;

/** Stripe statuses in which the customer still has the plan (paid, on trial, or being retried). */
export const GRANTING: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due', 'unpaid']);

/**
 * The account's billing from the subscription as Stripe has it now. A failed
 * payment keeps the plan until the grace period ends (counted from when we first saw it fail);
 * a cancelled plan keeps it to the end of the paid period. Both then grant nothing, even if
 * Stripe has not said so yet: the hourly pass applies the same rule to the stored state.
 */
export function deriveBilling(
  subscription: ProviderSubscription,
  input: { previous: StoredBilling; tier: TTier | null; now: Date },
): BillingState {
  const { previous, now } = input;
  const tier = input.tier ?? previous.billedTier;
  const periodEnd = subscription.currentPeriodEnd;
  if (!GRANTING.has(subscription.status) || !tier) {
    return {
      billedTier: null,
      subscriptionStatus:
        subscription.status === 'incomplete' && previous.subscriptionStatus === 'none'
          ? 'none'
          : 'cancelled',
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
      graceEndsAt: null,
      trialEndsAt: null,
    };
  }
  const isPastDue = subscription.status === 'past_due' || subscription.status === 'unpaid';
  const graceEndsAt = isPastDue
    ? (previous.graceEndsAt ?? new Date(now.getTime() + PAYMENT_GRACE_DAYS * DAY_MS))
    : null;
  const state: BillingState = {
    billedTier: tier,
    subscriptionStatus: isPastDue
      ? 'past_due'
      : subscription.cancelAtPeriodEnd
        ? 'cancelled'
        : 'active',
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    graceEndsAt,
    trialEndsAt: subscription.status === 'trialing' ? subscription.trialEnd : null,
  };
  return hasRunOut(state, now) ? endedBilling(state) : state;
}

/** A plan whose grace or paid period is over grants nothing any more. */
export function hasRunOut(state: StoredBilling, now: Date): boolean {
  if (!state.billedTier) return false;
  const graceOver = state.graceEndsAt !== null && state.graceEndsAt <= now;
  const periodOver =
    state.cancelAtPeriodEnd && state.currentPeriodEnd !== null && state.currentPeriodEnd <= now;
  return graceOver || periodOver;
}

/** The same account once its plan has ended; the grace date stays, so a late read agrees. */
export function endedBilling(state: StoredBilling): BillingState {
  return {
    billedTier: null,
    subscriptionStatus: 'cancelled',
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: false,
    graceEndsAt: state.graceEndsAt,
    trialEndsAt: null,
  };
}

/** An admin's tier setting or VIP holds the account's tier: billing only records its state. */
export function hasAdminOverride(user: Pick<UserRow, 'tierOverriddenBy' | 'isVIP'>): boolean {
  return user.tierOverriddenBy !== null || user.isVIP;
}

/** The tier the app grants once billing has changed: billing's plan, unless an admin holds it. */
export function grantedTier(
  user: Pick<UserRow, 'tierOverriddenBy' | 'isVIP' | 'subscriptionTier'>,
  billing: Pick<BillingState, 'billedTier'>,
): TTier {
  return hasAdminOverride(user) ? user.subscriptionTier : (billing.billedTier ?? 'free');
}

/** What the subscription pays for now; a plan whose grace or paid period is over pays for none. */
export function paidTierNow(state: StoredBilling, now: Date): TTier | null {
  return hasRunOut(state, now) ? null : state.billedTier;
}
