import { and, eq, isNull } from 'drizzle-orm';
import type { TTier } from '../../../shared/domain/enums';
import {
  CARE_HOME_TRIAL_DAYS,
  TRIAL_TIER,
  findPlan,
  type TPaidTier,
} from '../../../shared/domain/plans';
import { BILLING_MESSAGES, type TBillingStatus } from '../../../shared/schemas/billing';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { noteCloudEntitlementChange } from '../cloud/retention.service';
import { paymentFailedMail, planEndingMail, subscriptionStartedMail } from '../mail/mail.templates';
import { findUserById, updateUser, type UserRow } from '../users/users.repository';
import {
  deriveBilling,
  endedBilling,
  grantedTier,
  hasAdminOverride,
  hasRunOut,
  type BillingState,
} from './billing-state';
import {
  findRunOutAccounts,
  findUserIdByCustomer,
  isEventApplied,
  lockUser,
  recordEvent,
} from './billing.repository';
import { toBillingStatus } from './billing.presenter';
import {
  SignatureRefused,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderSubscription,
} from './payment-provider';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'config' | 'db' | 'log' | 'mail' | 'payments' | 'videoStore'>;

/** Who changed a plan, as the owner's log says it. */
const STRIPE_ACTOR = 'Stripe (payments)';
const SCHEDULE_ACTOR = 'Memento (billing check)';
const SCHEDULE_CONTEXT: RequestContext = {
  ip: 'scheduled billing check',
  userAgent: undefined,
  deviceId: null,
};

const dayOf = (date: Date) =>
  date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
const planName = (tier: TTier) => findPlan(tier).name;

function requireProvider(provider: PaymentProvider | null): PaymentProvider {
  if (!provider) throw new AppError('BILLING_DISABLED', BILLING_MESSAGES.disabled);
  return provider;
}

async function requireAccount(db: DbOrTx, userId: number): Promise<UserRow> {
  const row = await findUserById(db, userId);
  if (!row) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  return row;
}

/** A Stripe call that failed: the person is told plainly, the log keeps the reason. */
async function callProvider<T>(deps: Deps, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    deps.log.warn({ err: error }, `billing: ${what} failed at Stripe`);
    throw new AppError('SERVICE_UNAVAILABLE', BILLING_MESSAGES.providerFailed);
  }
}

export async function getBillingStatus(
  deps: Deps,
  provider: PaymentProvider | null,
  userId: number,
): Promise<TBillingStatus> {
  return toBillingStatus(await requireAccount(deps.db, userId), provider !== null);
}

/** The Stripe customer for this account, made once and kept. */
async function customerFor(
  deps: Deps,
  provider: PaymentProvider,
  account: UserRow,
): Promise<string> {
  if (account.paymentCustomerId) return account.paymentCustomerId;
  const customerId = await callProvider(deps, 'creating a customer', () =>
    provider.createCustomer({
      userId: account.id,
      email: account.email,
      name: `${account.firstName} ${account.lastName}`,
    }),
  );
  // Two checkouts at once: the first customer kept wins, the other is left unused at Stripe.
  const [kept] = await deps.db
    .update(users)
    .set({ paymentCustomerId: customerId, updatedAt: new Date() })
    .where(and(eq(users.id, account.id), isNull(users.paymentCustomerId)))
    .returning({ id: users.paymentCustomerId });
  if (kept?.id) return kept.id;
  return (await requireAccount(deps.db, account.id)).paymentCustomerId ?? customerId;
}

/** POST /api/billing/checkout: Stripe's hosted Checkout for one plan, the trial where offered. */
export async function startCheckout(
  deps: Deps,
  provider: PaymentProvider | null,
  input: { userId: number; tier: TPaidTier },
): Promise<{ url: string }> {
  const stripe = requireProvider(provider);
  const account = await requireAccount(deps.db, input.userId);
  if (hasAdminOverride(account)) throw new AppError('CONFLICT', BILLING_MESSAGES.setByAdmin);
  if (account.billedTier) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadySubscribed);
  const customerId = await customerFor(deps, stripe, account);
  const appUrl = deps.config.APP_URL;
  const url = await callProvider(deps, 'opening Checkout', () =>
    stripe.createCheckout({
      userId: account.id,
      customerId,
      tier: input.tier,
      trialDays:
        input.tier === TRIAL_TIER && account.trialUsedAt === null ? CARE_HOME_TRIAL_DAYS : null,
      successUrl: `${appUrl}/premium?checkout=success`,
      cancelUrl: `${appUrl}/premium?checkout=cancelled`,
    }),
  );
  return { url };
}

/** POST /api/billing/portal: Stripe's customer portal (plan, card, invoices, cancelling). */
export async function openPortal(
  deps: Deps,
  provider: PaymentProvider | null,
  userId: number,
): Promise<{ url: string }> {
  const stripe = requireProvider(provider);
  const account = await requireAccount(deps.db, userId);
  const customerId = account.paymentCustomerId;
  if (!customerId || !account.paymentSubscriptionId) {
    throw new AppError('CONFLICT', BILLING_MESSAGES.noCustomer);
  }
  const url = await callProvider(deps, 'opening the portal', () =>
    stripe.createPortal({ customerId, returnUrl: `${deps.config.APP_URL}/premium` }),
  );
  return { url };
}

/** Why a plan stopped granting, in the owner's log. */
type EndReason = 'ended' | 'period_over' | 'unpaid';

const END_WORDS: Record<EndReason, string> = {
  ended: '',
  period_over: ' at the end of its paid period',
  unpaid: ': the payment was not received in time',
};

interface Change {
  account: UserRow;
  next: BillingState & {
    paymentSubscriptionId?: string;
    trialUsedAt?: Date;
    billingSyncedAt?: Date;
  };
  actor: string;
  endReason: EndReason;
  now: Date;
}

/**
 * The one place billing changes an account: its state, the tier it is granted (unless an admin
 * holds it), the downgrade record and cloud retention through the same path an admin's change
 * takes, the audit row and the emails. Called in the transaction that holds the account's lock.
 */
async function applyChange(
  deps: Deps,
  tx: DbOrTx,
  context: RequestContext,
  change: Change,
): Promise<void> {
  const { account, next, now } = change;
  const tier = grantedTier(account, next);
  await updateUser(tx, account.id, { ...next, subscriptionTier: tier });
  if (tier !== account.subscriptionTier) {
    await noteCloudEntitlementChange(deps, tx, {
      user: account,
      before: account,
      after: { ...account, subscriptionTier: tier },
      now,
    });
  }

  const before = account.billedTier;
  const after = next.billedTier;
  const isNewSubscription =
    next.paymentSubscriptionId !== undefined &&
    next.paymentSubscriptionId !== account.paymentSubscriptionId;
  const sentences: string[] = [];
  let eventType: 'subscription_created' | 'subscription_updated' | 'subscription_cancelled' =
    'subscription_updated';

  if (!before && after) {
    eventType =
      isNewSubscription || account.subscriptionStatus === 'none'
        ? 'subscription_created'
        : 'subscription_updated';
    const plan = findPlan(after);
    sentences.push(
      eventType === 'subscription_created'
        ? `Started ${plan.name} (${plan.priceLabel})${next.trialEndsAt ? `, free trial until ${dayOf(next.trialEndsAt)}` : ''}.`
        : `${plan.name} is back: the payment went through.`,
    );
    if (eventType === 'subscription_created') {
      await deps.mail.enqueue(
        tx,
        subscriptionStartedMail({
          owner: account,
          planName: plan.name,
          priceLabel: plan.priceLabel,
          renewsOn: next.currentPeriodEnd,
          trialEndsAt: next.trialEndsAt,
          appUrl: deps.config.APP_URL,
        }),
      );
    }
  } else if (before && !after) {
    eventType = 'subscription_cancelled';
    sentences.push(`${planName(before)} ended${END_WORDS[change.endReason]}.`);
  } else if (before && after) {
    if (before !== after) sentences.push(`Changed from ${planName(before)} to ${planName(after)}.`);
    if (next.cancelAtPeriodEnd && !account.cancelAtPeriodEnd && next.currentPeriodEnd) {
      sentences.push(`Cancelled: ${planName(after)} stays until ${dayOf(next.currentPeriodEnd)}.`);
      await deps.mail.enqueue(
        tx,
        planEndingMail({
          owner: account,
          planName: planName(after),
          endsOn: next.currentPeriodEnd,
          appUrl: deps.config.APP_URL,
        }),
      );
    }
    if (!next.cancelAtPeriodEnd && account.cancelAtPeriodEnd) {
      sentences.push(`The cancellation was withdrawn: ${planName(after)} carries on.`);
    }
  }
  if (
    after &&
    next.subscriptionStatus === 'past_due' &&
    account.subscriptionStatus !== 'past_due'
  ) {
    const graceEndsAt = next.graceEndsAt!;
    sentences.push(`A payment failed: ${planName(after)} stays until ${dayOf(graceEndsAt)}.`);
    await deps.mail.enqueue(
      tx,
      paymentFailedMail({
        owner: account,
        planName: planName(after),
        graceEndsAt,
        appUrl: deps.config.APP_URL,
      }),
    );
  }
  if (
    before &&
    after &&
    account.subscriptionStatus === 'past_due' &&
    next.subscriptionStatus !== 'past_due'
  ) {
    sentences.push('The payment went through.');
  }
  if (sentences.length === 0) return;
  if (hasAdminOverride(account)) {
    sentences.push(
      `The plan an administrator set stays (${planName(account.subscriptionTier)}${account.isVIP ? ', VIP' : ''}).`,
    );
  }
  await recordAudit(tx, context, {
    eventType,
    userId: account.id,
    username: account.username,
    details: {
      message: sentences.join(' '),
      actor: change.actor,
      from: before,
      to: after,
      tier,
      status: next.subscriptionStatus,
    },
  });
}

/** The account an event is for: its Stripe customer, else the account the checkout named. */
async function findAccountId(
  deps: Deps,
  event: ProviderEvent,
  subscription: ProviderSubscription | null,
): Promise<number | null> {
  const customerId = subscription?.customerId ?? event.customerId;
  if (customerId) {
    const byCustomer = await findUserIdByCustomer(deps.db, customerId);
    if (byCustomer) return byCustomer;
  }
  const named = Number(event.clientReferenceId ?? subscription?.userId ?? NaN);
  if (!Number.isSafeInteger(named) || named <= 0) return null;
  const account = await findUserById(deps.db, named);
  // An account already tied to another customer is never taken over by a reference.
  if (!account || !account.isPrimary) return null;
  if (account.paymentCustomerId && customerId && account.paymentCustomerId !== customerId) {
    return null;
  }
  return account.id;
}

/** A subscription the account should follow: its own, or a new one that grants a plan. */
function follows(account: UserRow, subscription: ProviderSubscription): boolean {
  if (!account.paymentSubscriptionId || account.paymentSubscriptionId === subscription.id) {
    return true;
  }
  return ['active', 'trialing', 'past_due', 'unpaid'].includes(subscription.status);
}

/**
 * POST /api/billing/webhook. The signature and its time are checked first (a refusal changes
 * nothing). Each event is applied once: its id is recorded in the transaction that applies it.
 * Order does not matter: the subscription is read again from Stripe and its state now applied,
 * and a read older than the one already applied is left.
 */
export async function receiveWebhook(
  deps: Deps,
  provider: PaymentProvider | null,
  context: RequestContext,
  input: { payload: Buffer; signature: string | undefined },
): Promise<{ received: true }> {
  const stripe = requireProvider(provider);
  let event: ProviderEvent;
  try {
    event = stripe.readEvent(input.payload, input.signature);
  } catch (error) {
    if (!(error instanceof SignatureRefused)) throw error;
    deps.log.warn({ reason: error.message }, 'billing: a webhook was refused');
    throw new AppError('VALIDATION', BILLING_MESSAGES.badSignature);
  }
  if (await isEventApplied(deps.db, event.id)) return { received: true };

  const readAt = new Date();
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
  const accountId = await findAccountId(deps, event, subscription);

  await deps.db.transaction(async (tx) => {
    if (!(await recordEvent(tx, { id: event.id, type: event.type, userId: accountId }))) return;
    if (!accountId) return;
    const account = await lockUser(tx, accountId);
    if (!account) return;
    const customerId = subscription?.customerId ?? event.customerId;
    if (!account.paymentCustomerId && customerId) {
      await updateUser(tx, account.id, { paymentCustomerId: customerId });
    }
    if (!subscription || !follows(account, subscription)) return;
    if (account.billingSyncedAt && account.billingSyncedAt > readAt) return;

    const next = deriveBilling(subscription, {
      previous: account,
      tier: stripe.tierOfPrice(subscription.priceId),
      now: readAt,
    });
    if (subscription.priceId && !stripe.tierOfPrice(subscription.priceId)) {
      deps.log.warn({ priceId: subscription.priceId }, 'billing: a price no plan is set to');
    }
    await applyChange(
      deps,
      tx,
      // Stripe's own user agent says nothing to the owner reading their log.
      { ...context, deviceId: null, userAgent: undefined },
      {
        account,
        next: {
          ...next,
          paymentSubscriptionId: subscription.id,
          billingSyncedAt: readAt,
          ...(subscription.trialEnd && !account.trialUsedAt ? { trialUsedAt: readAt } : {}),
        },
        actor: STRIPE_ACTOR,
        endReason:
          next.billedTier === null && account.graceEndsAt && account.graceEndsAt <= readAt
            ? 'unpaid'
            : 'ended',
        now: readAt,
      },
    );
  });
  deps.mail.kick();
  return { received: true };
}

/**
 * The hourly pass: a plan whose grace period or cancelled period is over ends even if Stripe's
 * event never comes. A plan ended for want of payment is also cancelled at Stripe, so the card
 * is not charged for a plan the account no longer has. Answers how many accounts it ended.
 */
export async function endRunOutPlans(deps: Deps, now: Date): Promise<number> {
  const provider = deps.payments;
  let ended = 0;
  for (const accountId of await findRunOutAccounts(deps.db, now)) {
    const unpaidSubscription = await deps.db.transaction(async (tx) => {
      const account = await lockUser(tx, accountId);
      if (!account || !hasRunOut(account, now)) return undefined;
      const isUnpaid = account.graceEndsAt !== null && account.graceEndsAt <= now;
      await applyChange(deps, tx, SCHEDULE_CONTEXT, {
        account,
        next: endedBilling(account),
        actor: SCHEDULE_ACTOR,
        endReason: isUnpaid ? 'unpaid' : 'period_over',
        now,
      });
      ended += 1;
      return isUnpaid ? account.paymentSubscriptionId : null;
    });
    if (unpaidSubscription && provider) {
      await provider
        .cancelSubscription(unpaidSubscription)
        .catch((error: unknown) =>
          deps.log.warn({ err: error }, 'billing: an unpaid subscription could not be cancelled'),
        );
    }
  }
  if (ended > 0) deps.mail.kick();
  return ended;
}

/**
 * An account deleted by an admin stops paying: its live subscription is cancelled at Stripe once
 * the deletion has committed (a failure is logged for the operator to finish in Stripe).
 */
export async function cancelSubscriptionsOfDeleted(
  deps: Deps,
  accounts: ReadonlyArray<Pick<UserRow, 'id' | 'billedTier' | 'paymentSubscriptionId'>>,
): Promise<void> {
  const provider = deps.payments;
  if (!provider) return;
  for (const account of accounts) {
    if (!account.billedTier || !account.paymentSubscriptionId) continue;
    await provider
      .cancelSubscription(account.paymentSubscriptionId)
      .catch((error: unknown) =>
        deps.log.warn(
          { err: error, userId: account.id },
          'billing: a deleted account’s subscription could not be cancelled',
        ),
      );
  }
}
