import { z } from 'zod';
import type { TSubscriptionStatus, TTier } from '../domain/enums';
import { PAID_TIERS } from '../domain/plans';

export { PAID_TIERS };
export type { TPaidTier } from '../domain/plans';

/** POST /api/billing/checkout: the plan to buy. */
export const ZCheckoutBody = z.object({
  tier: z.enum(PAID_TIERS, { error: 'Please choose a plan' }),
});
export type TCheckoutBody = z.input<typeof ZCheckoutBody>;

/** POST /api/billing/checkout and /api/billing/portal: where the browser goes next (Stripe's page). */
export interface TBillingRedirect {
  url: string;
}

/** GET /api/billing: the account's plan as billing sees it. */
export interface TBillingStatus {
  /** Stripe is configured (key, webhook secret and the three prices). */
  enabled: boolean;
  /** The tier the app grants now (an admin's override included). */
  tier: TTier;
  /** The plan the subscription is for; null without one. */
  billedTier: TTier | null;
  status: TSubscriptionStatus;
  /** ISO; the paid-until date. */
  currentPeriodEnd: string | null;
  /** Cancelled: the plan stays until currentPeriodEnd, then ends. */
  cancelAtPeriodEnd: boolean;
  /** A payment failed: the plan stays until then. */
  graceEndsAt: string | null;
  /** On the care-home trial (Professional, 30 days). */
  trialEndsAt: string | null;
  /** Neither this account nor the care home it manages has had the trial. */
  trialAvailable: boolean;
  /** An admin's override; it wins over billing. */
  override: { tier: TTier | null; vip: boolean; reason: string | null } | null;
  /** Has a Stripe customer: 'Manage billing' opens the portal. */
  canManage: boolean;
}

/** The messages billing routes answer with, one home for server and web. */
export const BILLING_MESSAGES = {
  disabled: 'Payments are not switched on for this Memento yet. Please try again later.',
  alreadySubscribed: 'You already have a plan. Please use ‘Manage billing’ to change or cancel it.',
  setByAdmin:
    'Your plan is set by your administrator, so it cannot be bought here. Please ask your administrator to change your plan, or to return your account to billing so you can choose one yourself.',
  noCustomer: 'There is no billing account to manage yet. Please choose a plan first.',
  primaryOnly: 'Only the account holder can manage the plan.',
  providerFailed:
    'We could not reach the payment provider just now. Nothing was charged. Please try again in a minute.',
  badSignature: 'Webhook signature is not valid.',
  justPaid:
    'Your payment has gone through. Your plan will show here in a moment: please refresh the page. To change plan, use ‘Manage billing’.',
  unusableEvent: 'The webhook event is missing what billing needs, so nothing was changed.',
} as const;
