import { BILLING_MESSAGES } from '../../../shared/schemas/billing';
import { AppError } from '../../errors';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { markHomeTrialUsed } from '../care-homes/care-homes.repository';
import { secondPlanRefundedMail } from './billing.mails';
import type { UserRow } from '../users/users.repository';
import { deriveBilling, GRANTING } from './billing-state';
import {
  closeCheckout,
  closeOpenCheckoutsOf,
  findUserByCustomer,
  isEventApplied,
  lockUser,
  recordEvent,
} from './billing.repository';
import {
  STRIPE_ACTOR,
  applyChange,
  callProvider,
  planName,
  requireProvider,
  type Deps,
} from './billing.service';
import {
  SignatureRefused,
  UnusableEvent,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderSubscription,
} from './payment-provider';

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** The event, verified and read; a refusal or an unusable body is a 400 and changes nothing. */
function verifiedEvent(
  deps: Deps,
  stripe: PaymentProvider,
  input: { payload: Buffer; signature: string | undefined },
): ProviderEvent {
  try {
    return stripe.readEvent(input.payload, input.signature);
  } catch (error) {
    if (error instanceof SignatureRefused) {
      deps.log.warn({ reason: error.message }, 'billing: a webhook was refused');
      throw new AppError('VALIDATION', BILLING_MESSAGES.badSignature);
    }
    if (error instanceof UnusableEvent) {
      deps.log.warn({ reason: error.message }, 'billing: a signed webhook could not be used');
      throw new AppError('VALIDATION', BILLING_MESSAGES.unusableEvent);
    }
    throw error;
  }
}

/** A subscription the account should follow: its own, or a new one that grants a plan. */
function follows(account: UserRow, subscription: ProviderSubscription): boolean {
  if (!account.paymentSubscriptionId || account.paymentSubscriptionId === subscription.id) {
    return true;
  }
  return GRANTING.has(subscription.status);
}

/**
 * An account pays for one plan. When its customer has more than one live subscription, the one
 * the account follows stays (else the first made) and each other is cancelled now and refunded in
 * full; the owner's log and an email say so, once. Answers the ids cancelled.
 */
async function cancelSecondPlans(
  deps: Deps,
  stripe: PaymentProvider,
  context: RequestContext,
  account: UserRow,
  customerId: string,
): Promise<Set<string>> {
  const cancelled = new Set<string>();
  const live = (
    await callProvider(deps, 'reading subscriptions', () => stripe.listSubscriptions(customerId))
  ).filter((subscription) => GRANTING.has(subscription.status));
  if (live.length < 2) return cancelled;
  const byAge = [...live].sort(
    (a, b) => a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id),
  );
  const kept = live.find((s) => s.id === account.paymentSubscriptionId) ?? byAge[0]!;
  const nameOf = (s: ProviderSubscription) => {
    const tier = stripe.tierOfPrice(s.priceId);
    return tier ? planName(tier) : 'a plan';
  };
  for (const extra of live) {
    if (extra.id === kept.id) continue;
    const refunded = await callProvider(deps, 'cancelling a second subscription', () =>
      stripe.cancelAndRefund(extra),
    );
    cancelled.add(extra.id);
    deps.log.warn(
      { userId: account.id, subscriptionId: extra.id, kept: kept.id, refunded },
      'billing: a second subscription was cancelled and refunded',
    );
    await deps.db.transaction(async (tx) => {
      // Several events can name the same extra subscription: the owner hears of it once.
      const first = await recordEvent(tx, {
        id: `second-plan-cancelled:${extra.id}`,
        type: 'second_subscription_cancelled',
        userId: account.id,
      });
      const owner = first ? await lockUser(tx, account.id) : undefined;
      if (!owner) return;
      const refund = refunded > 0 ? pounds(refunded) : null;
      await recordAccountEvent(tx, context, owner, {
        eventType: 'subscription_cancelled',
        details: {
          message: `A second plan (${nameOf(extra)}) was started and cancelled at once: the account already has ${nameOf(kept)}. ${refund ? `${refund} was refunded in full.` : 'Nothing had been charged.'}`,
          actor: STRIPE_ACTOR,
          subscription: extra.id,
          kept: kept.id,
          refunded,
        },
      });
      await deps.mail.enqueue(
        tx,
        secondPlanRefundedMail({
          owner,
          extraPlanName: nameOf(extra),
          keptPlanName: nameOf(kept),
          refundLabel: refund,
          appUrl: deps.config.APP_URL,
        }),
      );
    });
  }
  return cancelled;
}

/**
 * Once a plan is granted, no Checkout page of the account can still be paid. The rows close first:
 * a page being opened meanwhile then finds its claim closed and closes itself at Stripe.
 */
async function closeCheckoutPages(
  deps: Deps,
  stripe: PaymentProvider,
  userId: number,
  customerId: string,
): Promise<void> {
  try {
    await closeOpenCheckoutsOf(deps.db, userId);
    for (const sessionId of await stripe.listOpenCheckouts(customerId)) {
      await stripe.expireCheckout(sessionId);
    }
  } catch (error) {
    // A page paid anyway makes a second subscription, which is cancelled and refunded.
    deps.log.warn({ err: error, userId }, 'billing: open Checkout pages could not be closed');
  }
}

/**
 * POST /api/billing/webhook. The signature and its time are checked first, then the body is read
 * with a schema (a refusal changes nothing). Each event is applied once: its id is recorded in the
 * transaction that applies it. Order does not matter: the subscription is read again from Stripe
 * and its state now applied, and a read older than the one already applied is left. Only the
 * customer the app made for an account moves that account.
 */
export async function receiveWebhook(
  deps: Deps,
  provider: PaymentProvider | null,
  context: RequestContext,
  input: { payload: Buffer; signature: string | undefined },
): Promise<{ received: true }> {
  const stripe = requireProvider(provider);
  const event = verifiedEvent(deps, stripe, input);
  if (await isEventApplied(deps.db, event.id)) return { received: true };

  const readAt = deps.clock.now();
  const subscription = event.subscriptionId
    ? await callProvider(deps, 'reading a subscription', () =>
        stripe.retrieveSubscription(event.subscriptionId!),
      )
    : null;
  if (event.subscriptionId && !subscription) {
    deps.log.warn(
      { eventId: event.id },
      'billing: an event names a subscription Stripe does not have',
    );
  }
  const customerId = subscription?.customerId || event.customerId;
  const account = customerId ? await findUserByCustomer(deps.db, customerId) : undefined;
  // Stripe's own user agent says nothing to the owner reading their log.
  const stripeContext = { ...context, deviceId: null, userAgent: undefined };
  const cancelled =
    account && customerId && subscription && GRANTING.has(subscription.status)
      ? await cancelSecondPlans(deps, stripe, stripeContext, account, customerId)
      : new Set<string>();

  let granted = false;
  await deps.db.transaction(async (tx) => {
    if (!(await recordEvent(tx, { id: event.id, type: event.type, userId: account?.id ?? null })))
      return;
    if (event.checkoutSessionId) {
      const paid = event.type === 'checkout.session.completed';
      await closeCheckout(tx, event.checkoutSessionId, paid ? 'complete' : 'expired');
    }
    const locked = account ? await lockUser(tx, account.id) : undefined;
    if (!locked || !customerId || locked.paymentCustomerId !== customerId) return;
    if (!subscription || cancelled.has(subscription.id) || !follows(locked, subscription)) return;
    if (locked.billingSyncedAt && locked.billingSyncedAt > readAt) return;

    const next = deriveBilling(subscription, {
      previous: locked,
      tier: stripe.tierOfPrice(subscription.priceId),
      now: readAt,
    });
    if (subscription.priceId && !stripe.tierOfPrice(subscription.priceId)) {
      deps.log.warn({ priceId: subscription.priceId }, 'billing: a price no plan is set to');
    }
    await applyChange(deps, tx, stripeContext, {
      account: locked,
      next: {
        ...next,
        paymentSubscriptionId: subscription.id,
        billingSyncedAt: readAt,
        ...(subscription.trialEnd && !locked.trialUsedAt ? { trialUsedAt: readAt } : {}),
      },
      actor: STRIPE_ACTOR,
      endReason:
        next.billedTier === null && locked.graceEndsAt && locked.graceEndsAt <= readAt
          ? 'unpaid'
          : 'ended',
      now: readAt,
    });
    // The trial is once per care home too: the manager's home has had it now.
    if (subscription.trialEnd) await markHomeTrialUsed(tx, locked.id, readAt);
    granted = next.billedTier !== null && locked.billedTier === null;
  });
  if (account && customerId && (granted || event.type === 'checkout.session.completed')) {
    await closeCheckoutPages(deps, stripe, account.id, customerId);
  }
  deps.mail.kick();
  return { received: true };
}
