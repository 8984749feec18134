import { CARE_HOME_TRIAL_DAYS, TRIAL_TIER, type TPaidTier } from '../../../shared/domain/plans';
import { BILLING_MESSAGES } from '../../../shared/schemas/billing';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { updateUser, type UserRow } from '../users/users.repository';
import { GRANTING, hasAdminOverride } from './billing-state';
import {
  closeCheckout,
  countCheckouts,
  findOpenCheckout,
  insertCheckout,
  lockUser,
} from './billing.repository';
import { callProvider, requireAccount, requireProvider, type Deps } from './billing.service';
import type { PaymentProvider } from './payment-provider';

/** An open page this close to its end is replaced rather than handed out again. */
const REUSE_MARGIN_MS = 15 * 60_000;

/**
 * The account's Stripe customer, made once. The key is the account's own (its id and when it was
 * made), so a request repeated after a failure, or from another window, gets the same customer.
 */
async function customerFor(
  deps: Deps,
  tx: DbOrTx,
  stripe: PaymentProvider,
  account: UserRow,
): Promise<string> {
  if (account.paymentCustomerId) return account.paymentCustomerId;
  const customerId = await callProvider(deps, 'creating a customer', () =>
    stripe.createCustomer({
      userId: account.id,
      email: account.email,
      name: `${account.firstName} ${account.lastName}`,
      idempotencyKey: `customer-${account.id}-${account.createdAt.getTime()}`,
    }),
  );
  await updateUser(tx, account.id, { paymentCustomerId: customerId });
  return customerId;
}

/** Refuses a second plan: one already live at Stripe, even if its webhook has not come yet. */
async function refuseIfSubscribed(deps: Deps, stripe: PaymentProvider, customerId: string) {
  const subscriptions = await callProvider(deps, 'reading subscriptions', () =>
    stripe.listSubscriptions(customerId),
  );
  if (subscriptions.some((subscription) => GRANTING.has(subscription.status))) {
    throw new AppError('CONFLICT', BILLING_MESSAGES.justPaid);
  }
}

/**
 * POST /api/billing/checkout: Stripe's hosted Checkout for one plan, the trial where offered.
 * Under the account's lock, so two clicks or two windows queue: the account has one customer and
 * at most one open Checkout page. The same plan again gets the same page; another plan closes the
 * open one at Stripe first, so only one can ever be paid. A plan already paid for is changed in
 * the portal, never bought twice.
 */
export async function startCheckout(
  deps: Deps,
  provider: PaymentProvider | null,
  input: { userId: number; tier: TPaidTier },
): Promise<{ url: string }> {
  const stripe = requireProvider(provider);
  await requireAccount(deps.db, input.userId);
  return deps.db.transaction(async (tx) => {
    const account = (await lockUser(tx, input.userId))!;
    if (hasAdminOverride(account)) throw new AppError('CONFLICT', BILLING_MESSAGES.setByAdmin);
    if (account.billedTier) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadySubscribed);
    const hadCustomer = account.paymentCustomerId !== null;
    const customerId = await customerFor(deps, tx, stripe, account);
    if (hadCustomer) await refuseIfSubscribed(deps, stripe, customerId);

    const open = await findOpenCheckout(tx, account.id);
    if (open?.tier === input.tier && open.expiresAt.getTime() - Date.now() > REUSE_MARGIN_MS) {
      return { url: open.url };
    }
    if (open) {
      const ended = await callProvider(deps, 'closing a Checkout page', () =>
        stripe.expireCheckout(open.id),
      );
      if (ended === 'complete') throw new AppError('CONFLICT', BILLING_MESSAGES.justPaid);
      await closeCheckout(tx, open.id, 'expired');
    }

    const opened = await countCheckouts(tx, account.id);
    const appUrl = deps.config.APP_URL;
    const checkout = await callProvider(deps, 'opening Checkout', () =>
      stripe.createCheckout({
        userId: account.id,
        customerId,
        tier: input.tier,
        trialDays:
          input.tier === TRIAL_TIER && account.trialUsedAt === null ? CARE_HOME_TRIAL_DAYS : null,
        successUrl: `${appUrl}/premium?checkout=success`,
        cancelUrl: `${appUrl}/premium?checkout=cancelled`,
        // A repeat after a failed save gets the same page back, not a second one.
        idempotencyKey: `checkout-${account.id}-${opened + 1}-${input.tier}`,
      }),
    );
    await insertCheckout(tx, {
      id: checkout.id,
      userId: account.id,
      customerId,
      tier: input.tier,
      url: checkout.url,
      expiresAt: checkout.expiresAt,
    });
    return { url: checkout.url };
  });
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
