import type { TBillingStatus } from '../../../shared/schemas/billing';
import type { UserRow } from '../users/users.repository';
import { hasAdminOverride } from './billing-state';

/**
 * GET /api/billing: the account's plan as billing sees it, override included. `trialAvailable`
 * is the checkout's own answer (the account's trial and its care home's), so no page offers a
 * trial the checkout would not give.
 */
export function toBillingStatus(
  account: UserRow,
  enabled: boolean,
  trialAvailable: boolean,
): TBillingStatus {
  return {
    enabled,
    tier: account.subscriptionTier,
    billedTier: account.billedTier,
    status: account.subscriptionStatus,
    currentPeriodEnd: account.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: account.cancelAtPeriodEnd,
    // The grace date is kept after a plan ends for want of payment; it is news only while due.
    graceEndsAt:
      account.subscriptionStatus === 'past_due'
        ? (account.graceEndsAt?.toISOString() ?? null)
        : null,
    trialEndsAt: account.trialEndsAt?.toISOString() ?? null,
    trialAvailable,
    override: hasAdminOverride(account)
      ? {
          tier: account.tierOverriddenBy !== null ? account.subscriptionTier : null,
          vip: account.isVIP,
          reason: account.tierOverrideReason,
        }
      : null,
    canManage:
      enabled && account.paymentCustomerId !== null && account.paymentSubscriptionId !== null,
  };
}
