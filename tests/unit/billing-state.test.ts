import { describe, expect, it } from 'vitest';
import {
  deriveBilling,
  endedBilling,
  grantedTier,
  hasAdminOverride,
  hasRunOut,
  paidTierNow,
  type StoredBilling,
} from '../../src/server/modules/billing/billing-state';
import type { ProviderSubscription } from '../../src/server/modules/billing/payment-provider';

const DAY = 24 * 3600_000;
const now = new Date('2030-06-01T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * DAY);

const none: StoredBilling = {
  billedTier: null,
  subscriptionStatus: 'none',
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  graceEndsAt: null,
  trialEndsAt: null,
};
const paying: StoredBilling = {
  ...none,
  billedTier: 'standard',
  subscriptionStatus: 'active',
  currentPeriodEnd: inDays(20),
};

const subscription = (fields: Partial<ProviderSubscription>): ProviderSubscription => ({
  id: 'sub_1',
  customerId: 'cus_1',
  status: 'active',
  priceId: 'price_standard',
  currentPeriodEnd: inDays(20),
  cancelAtPeriodEnd: false,
  trialEnd: null,
  created: inDays(-10),
  latestInvoiceId: null,
  ...fields,
});

describe('the account’s billing from the subscription as Stripe has it', () => {
  it('an active subscription grants its plan to the end of the period', () => {
    expect(deriveBilling(subscription({}), { previous: none, tier: 'standard', now })).toEqual({
      billedTier: 'standard',
      subscriptionStatus: 'active',
      currentPeriodEnd: inDays(20),
      cancelAtPeriodEnd: false,
      graceEndsAt: null,
      trialEndsAt: null,
    });
  });

  it('a trial grants the plan and says when the trial ends', () => {
    const trial = subscription({ status: 'trialing', trialEnd: inDays(30) });
    const state = deriveBilling(trial, { previous: none, tier: 'professional', now });
    expect(state.billedTier).toBe('professional');
    expect(state.trialEndsAt).toEqual(inDays(30));
  });

  it('a failed payment keeps the plan for 14 days of grace, counted from the first failure', () => {
    const failed = subscription({ status: 'past_due' });
    const first = deriveBilling(failed, { previous: paying, tier: null, now });
    expect(first).toMatchObject({ billedTier: 'standard', subscriptionStatus: 'past_due' });
    expect(first.graceEndsAt).toEqual(inDays(14));
    // Seen again later: the grace does not start over.
    const again = deriveBilling(failed, { previous: first, tier: null, now: inDays(5) });
    expect(again.graceEndsAt).toEqual(inDays(14));
  });

  it('once the grace is over the plan ends, even before Stripe says so', () => {
    const failed = subscription({ status: 'unpaid' });
    const previous = { ...paying, graceEndsAt: inDays(-1) };
    const state = deriveBilling(failed, { previous, tier: null, now });
    expect(state).toMatchObject({ billedTier: null, subscriptionStatus: 'cancelled' });
    expect(state.graceEndsAt).toEqual(inDays(-1));
  });

  it('a cancelled plan keeps its tier to the end of the paid period, then grants nothing', () => {
    const cancelled = subscription({ cancelAtPeriodEnd: true });
    const running = deriveBilling(cancelled, { previous: paying, tier: null, now });
    expect(running).toMatchObject({ billedTier: 'standard', subscriptionStatus: 'cancelled' });
    const over = subscription({ cancelAtPeriodEnd: true, currentPeriodEnd: inDays(-1) });
    expect(deriveBilling(over, { previous: paying, tier: null, now }).billedTier).toBeNull();
  });

  it('an ended subscription grants nothing; one that never started stays none', () => {
    const ended = deriveBilling(subscription({ status: 'canceled' }), {
      previous: paying,
      tier: null,
      now,
    });
    expect(ended).toMatchObject({ billedTier: null, subscriptionStatus: 'cancelled' });
    const neverPaid = deriveBilling(subscription({ status: 'incomplete' }), {
      previous: none,
      tier: 'standard',
      now,
    });
    expect(neverPaid.subscriptionStatus).toBe('none');
  });
});

describe('when a plan has run out', () => {
  it('never for an account without a plan', () => {
    expect(hasRunOut({ ...none, graceEndsAt: inDays(-1) }, now)).toBe(false);
  });

  it('when the grace is over, or a cancelled period has ended; not a moment before', () => {
    expect(hasRunOut({ ...paying, graceEndsAt: now }, now)).toBe(true);
    expect(hasRunOut({ ...paying, graceEndsAt: inDays(1) }, now)).toBe(false);
    expect(hasRunOut({ ...paying, cancelAtPeriodEnd: true, currentPeriodEnd: now }, now)).toBe(
      true,
    );
    expect(hasRunOut({ ...paying, cancelAtPeriodEnd: false, currentPeriodEnd: now }, now)).toBe(
      false,
    );
  });

  it('a plan that ran out pays for nothing; one still running pays for its tier', () => {
    expect(paidTierNow({ ...paying, graceEndsAt: inDays(-1) }, now)).toBeNull();
    expect(paidTierNow(paying, now)).toBe('standard');
  });

  it('the ended account keeps its grace date, so a late read agrees', () => {
    const state = { ...paying, graceEndsAt: inDays(-1), trialEndsAt: inDays(3) };
    expect(endedBilling(state)).toEqual({
      billedTier: null,
      subscriptionStatus: 'cancelled',
      currentPeriodEnd: paying.currentPeriodEnd,
      cancelAtPeriodEnd: false,
      graceEndsAt: inDays(-1),
      trialEndsAt: null,
    });
  });
});

describe('the tier the app grants', () => {
  const plain = { tierOverriddenBy: null, isVIP: false, subscriptionTier: 'free' as const };

  it("is billing's plan, or Community Edition without one", () => {
    expect(grantedTier(plain, { billedTier: 'premium' })).toBe('premium');
    expect(grantedTier(plain, { billedTier: null })).toBe('free');
  });

  it("an admin's tier setting or VIP holds the tier: billing only records its state", () => {
    const overridden = { ...plain, tierOverriddenBy: 7, subscriptionTier: 'enterprise' as const };
    expect(hasAdminOverride(overridden)).toBe(true);
    expect(grantedTier(overridden, { billedTier: null })).toBe('enterprise');
    const vip = { ...plain, isVIP: true, subscriptionTier: 'standard' as const };
    expect(hasAdminOverride(vip)).toBe(true);
    expect(grantedTier(vip, { billedTier: 'premium' })).toBe('standard');
    expect(hasAdminOverride(plain)).toBe(false);
  });
});
