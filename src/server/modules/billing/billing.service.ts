import type { TTier } from '../../../shared/domain/enums';
import { findPlan } from '../../../shared/domain/plans';
import { BILLING_MESSAGES, type TBillingStatus } from '../../../shared/schemas/billing';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { recordAudit, type AuditContext } from '../audit/audit.service';
import { noteCloudEntitlementChange } from '../cloud/retention.service';
import { dayOf } from '../../lib/date-words';
import { paymentFailedMail, planEndingMail, subscriptionStartedMail } from './billing.mails';
import { findUserById, updateUser, type UserRow } from '../users/users.repository';
import {
  endedBilling,
  grantedTier,
  hasAdminOverride,
  hasRunOut,
  type BillingState,
} from './billing-state';
import { findRunOutAccounts, lockUser } from './billing.repository';
import { toBillingStatus } from './billing.presenter';
import { isTrialAvailable } from './trial';
import type { PaymentProvider } from './payment-provider';

/** The part of the app's dependencies this service uses. */
export type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'log' | 'mail' | 'payments' | 'videoStore'
>;

/** Stripe's statuses of a subscription that has ended for good: nothing left to cancel. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** Who changed a plan, as the owner's log says it. */
export const STRIPE_ACTOR = 'Stripe (payments)';
const SCHEDULE_ACTOR = 'Memento (billing check)';
/** The hourly pass, as its audit rows name it. */
const BILLING_CHECK: AuditContext = { job: 'scheduled billing check' };

export const planName = (tier: TTier) => findPlan(tier).name;

export function requireProvider(provider: PaymentProvider | null): PaymentProvider {
  if (!provider) throw new AppError('BILLING_DISABLED', BILLING_MESSAGES.disabled);
  return provider;
}

export async function requireAccount(db: DbOrTx, userId: number): Promise<UserRow> {
  const row = await findUserById(db, userId);
  if (!row) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
  return row;
}

/** A Stripe call that failed: the person is told plainly, the log keeps the reason. */
export async function callProvider<T>(
  deps: Deps,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
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
  const account = await requireAccount(deps.db, userId);
  return toBillingStatus(account, provider !== null, await isTrialAvailable(deps.db, account));
}

/** Why a plan stopped granting, in the owner's log. */
export type EndReason = 'ended' | 'period_over' | 'unpaid';

const END_WORDS: Record<EndReason, string> = {
  ended: '',
  period_over: ' at the end of its paid period',
  unpaid: ': the payment was not received in time',
};

export interface Change {
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
export async function applyChange(
  deps: Deps,
  tx: DbOrTx,
  context: AuditContext,
  change: Change,
): Promise<void> {
  const { account, next, now } = change;
  const tier = grantedTier(account, next);
  await updateUser(tx, account.id, { ...next, subscriptionTier: tier }, deps.clock.now());
  if (tier !== account.subscriptionTier) {
    await noteCloudEntitlementChange(deps, tx, {
      user: account,
      before: account,
      after: { ...account, subscriptionTier: tier },
      now,
    });
  }
  const eventType = eventTypeOf(change);
  await mailChange(deps, tx, change, eventType);
  const sentences = describeChange(change, eventType);
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
      from: account.billedTier,
      to: next.billedTier,
      tier,
      status: next.subscriptionStatus,
    },
  });
}

type PlanEvent = 'subscription_created' | 'subscription_updated' | 'subscription_cancelled';

/** A plan that starts is created (or comes back after a failed payment); one that stops ends. */
function eventTypeOf({ account, next }: Change): PlanEvent {
  const before = account.billedTier;
  const after = next.billedTier;
  if (before && !after) return 'subscription_cancelled';
  if (before || !after) return 'subscription_updated';
  const isNewSubscription =
    next.paymentSubscriptionId !== undefined &&
    next.paymentSubscriptionId !== account.paymentSubscriptionId;
  return isNewSubscription || account.subscriptionStatus === 'none'
    ? 'subscription_created'
    : 'subscription_updated';
}

/** Is this change a payment that just failed, with the plan kept through the grace period? */
const isNewlyPastDue = ({ account, next }: Change) =>
  Boolean(next.billedTier) &&
  next.subscriptionStatus === 'past_due' &&
  account.subscriptionStatus !== 'past_due';

/** Has the owner just asked to end the plan when its paid period is over? */
const isNewlyEnding = ({ account, next }: Change) =>
  Boolean(account.billedTier && next.billedTier) &&
  next.cancelAtPeriodEnd &&
  !account.cancelAtPeriodEnd &&
  Boolean(next.currentPeriodEnd);

/** What the change is, in the owner's log: a sentence for each thing that happened. */
function describeChange(change: Change, eventType: PlanEvent): string[] {
  const { account, next } = change;
  const before = account.billedTier;
  const after = next.billedTier;
  const sentences: string[] = [];
  if (!before && after) {
    const plan = findPlan(after);
    sentences.push(
      eventType === 'subscription_created'
        ? `Started ${plan.name} (${plan.priceLabel})${next.trialEndsAt ? `, free trial until ${dayOf(next.trialEndsAt)}` : ''}.`
        : `${plan.name} is back: the payment went through.`,
    );
  } else if (before && !after) {
    sentences.push(`${planName(before)} ended${END_WORDS[change.endReason]}.`);
  } else if (before && after) {
    if (before !== after) sentences.push(`Changed from ${planName(before)} to ${planName(after)}.`);
    if (isNewlyEnding(change)) {
      sentences.push(`Cancelled: ${planName(after)} stays until ${dayOf(next.currentPeriodEnd!)}.`);
    }
    if (!next.cancelAtPeriodEnd && account.cancelAtPeriodEnd) {
      sentences.push(`The cancellation was withdrawn: ${planName(after)} carries on.`);
    }
  }
  if (after && isNewlyPastDue(change)) {
    sentences.push(`A payment failed: ${planName(after)} stays until ${dayOf(next.graceEndsAt!)}.`);
  }
  if (
    before &&
    after &&
    account.subscriptionStatus === 'past_due' &&
    next.subscriptionStatus !== 'past_due'
  ) {
    sentences.push('The payment went through.');
  }
  return sentences;
}

/** The emails a change sends the owner: a plan started, a plan set to end, a payment failed. */
async function mailChange(deps: Deps, tx: DbOrTx, change: Change, eventType: PlanEvent) {
  const { account: owner, next } = change;
  const after = next.billedTier;
  const appUrl = deps.config.APP_URL;
  if (!after) return;
  if (eventType === 'subscription_created' && !owner.billedTier) {
    const plan = findPlan(after);
    await deps.mail.enqueue(
      tx,
      subscriptionStartedMail({
        owner,
        planName: plan.name,
        priceLabel: plan.priceLabel,
        renewsOn: next.currentPeriodEnd,
        trialEndsAt: next.trialEndsAt,
        appUrl,
      }),
    );
  }
  if (isNewlyEnding(change)) {
    await deps.mail.enqueue(
      tx,
      planEndingMail({ owner, planName: planName(after), endsOn: next.currentPeriodEnd!, appUrl }),
    );
  }
  if (isNewlyPastDue(change)) {
    await deps.mail.enqueue(
      tx,
      paymentFailedMail({
        owner,
        planName: planName(after),
        graceEndsAt: next.graceEndsAt!,
        appUrl,
      }),
    );
  }
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
      await applyChange(deps, tx, BILLING_CHECK, {
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
 * An account deleted by an admin stops paying: every subscription of its Stripe customer is
 * cancelled, and every Checkout page still open closed, once the deletion has committed (a
 * failure is logged for the operator to finish in Stripe).
 */
export async function cancelSubscriptionsOfDeleted(
  deps: Deps,
  accounts: ReadonlyArray<Pick<UserRow, 'id' | 'paymentCustomerId' | 'paymentSubscriptionId'>>,
): Promise<void> {
  const provider = deps.payments;
  if (!provider) return;
  for (const account of accounts) {
    const customerId = account.paymentCustomerId;
    if (!customerId) continue;
    try {
      for (const subscription of await provider.listSubscriptions(customerId)) {
        if (ENDED.has(subscription.status)) continue;
        await provider.cancelSubscription(subscription.id);
      }
      for (const sessionId of await provider.listOpenCheckouts(customerId)) {
        await provider.expireCheckout(sessionId);
      }
    } catch (error) {
      deps.log.warn(
        { err: error, userId: account.id, customerId },
        'billing: a deleted account’s subscriptions could not all be cancelled',
      );
    }
  }
}
