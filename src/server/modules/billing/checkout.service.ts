import { CARE_HOME_TRIAL_DAYS, TRIAL_TIER, type TPaidTier } from '../../../shared/domain/plans';
import { BILLING_MESSAGES } from '../../../shared/schemas/billing';
import { AppError, CONCURRENT_CHANGE } from '../../errors';
import type { UserRow } from '../users/users.repository';
import { GRANTING, hasAdminOverride } from './billing-state';
import {
  claimCheckout,
  closeCheckout,
  findActiveCheckout,
  findCheckoutByKey,
  recordOpened,
  saveCustomerOnce,
  type CheckoutRow,
} from './billing.repository';
import { callProvider, requireAccount, requireProvider, type Deps } from './billing.service';
import type { PaymentProvider } from './payment-provider';
import { isTrialAvailable } from './trial';

/** An open page this close to its end is replaced rather than handed out again. */
const REUSE_MARGIN_MS = 15 * 60_000;
/** Looks at the account's page this many times; only windows racing each other need a second. */
const MAX_TURNS = 6;

/** The account's own prefix for Stripe's idempotency keys: its id and when it was made. */
const keyOf = (account: UserRow) => `${account.id}-${account.createdAt.getTime()}`;

/**
 * The account's Stripe customer, made once. Two windows send the same key, so Stripe answers both
 * with the same customer; it is saved only where none is yet, and read back.
 */
async function customerFor(deps: Deps, stripe: PaymentProvider, account: UserRow) {
  if (account.paymentCustomerId) return account.paymentCustomerId;
  const made = await callProvider(deps, 'creating a customer', () =>
    stripe.createCustomer({
      userId: account.id,
      email: account.email,
      name: `${account.firstName} ${account.lastName}`,
      idempotencyKey: `customer-${keyOf(account)}`,
    }),
  );
  await saveCustomerOnce(deps.db, account.id, made, deps.clock.now());
  return (await requireAccount(deps.db, account.id)).paymentCustomerId ?? made;
}

/** The account as it is now, refused when it must not buy a plan here. */
async function accountThatMayBuy(deps: Deps, userId: number): Promise<UserRow> {
  const account = await requireAccount(deps.db, userId);
  if (hasAdminOverride(account)) throw new AppError('CONFLICT', BILLING_MESSAGES.setByAdmin);
  if (account.billedTier) throw new AppError('CONFLICT', BILLING_MESSAGES.alreadySubscribed);
  return account;
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

/** Closes a page at Stripe; one paid meanwhile is not replaced. */
async function expirePage(deps: Deps, stripe: PaymentProvider, sessionId: string) {
  const ended = await callProvider(deps, 'closing a Checkout page', () =>
    stripe.expireCheckout(sessionId),
  );
  if (ended === 'complete') throw new AppError('CONFLICT', BILLING_MESSAGES.justPaid);
}

/**
 * Makes the claimed page at Stripe, whoever claimed it: the claim's key makes a second window's
 * call answer the same page. Undefined when the claim was closed meanwhile (a plan granted, the
 * account deleted): the page just made is closed too.
 */
async function openClaimed(
  deps: Deps,
  stripe: PaymentProvider,
  account: UserRow,
  claim: CheckoutRow,
): Promise<CheckoutRow | undefined> {
  const appUrl = deps.config.APP_URL;
  const withTrial = claim.tier === TRIAL_TIER && (await isTrialAvailable(deps.db, account));
  const page = await callProvider(deps, 'opening Checkout', () =>
    stripe.createCheckout({
      userId: account.id,
      customerId: claim.customerId,
      tier: claim.tier as TPaidTier,
      trialDays: withTrial ? CARE_HOME_TRIAL_DAYS : null,
      successUrl: `${appUrl}/premium?checkout=success`,
      cancelUrl: `${appUrl}/premium?checkout=cancelled`,
      idempotencyKey: claim.key,
    }),
  );
  const recorded = await recordOpened(deps.db, claim.key, page);
  if (recorded) return recorded;
  const now = await findCheckoutByKey(deps.db, claim.key);
  if (now?.status === 'open' && now.id === page.id) return now;
  await expirePage(deps, stripe, page.id);
  return undefined;
}

/**
 * POST /api/billing/checkout: Stripe's hosted Checkout for one plan, the trial where offered.
 * No transaction or lock is held while Stripe is called: the account's one place for a page is
 * claimed first (a row the index allows once), then filled in. Two clicks or two windows share one
 * customer and one page; the same plan again gets the same page; another plan closes the open one
 * at Stripe first, so only one can ever be paid. A plan already paid for is changed in the portal.
 */
export async function startCheckout(
  deps: Deps,
  provider: PaymentProvider | null,
  input: { userId: number; tier: TPaidTier },
): Promise<{ url: string }> {
  const stripe = requireProvider(provider);
  const first = await accountThatMayBuy(deps, input.userId);
  const customerId = await customerFor(deps, stripe, first);
  if (first.paymentCustomerId) await refuseIfSubscribed(deps, stripe, customerId);

  for (let turn = 0; turn < MAX_TURNS; turn += 1) {
    // Read again each turn: a plan granted meanwhile ends the asking.
    const account = turn === 0 ? first : await accountThatMayBuy(deps, input.userId);
    let page = await findActiveCheckout(deps.db, account.id);
    page ??= await claimCheckout(deps.db, {
      userId: account.id,
      keyPrefix: `checkout-${keyOf(account)}`,
      customerId,
      tier: input.tier,
    });
    // Another window claimed first: look again.
    if (!page) continue;
    if (page.status === 'opening') page = await openClaimed(deps, stripe, account, page);
    if (!page?.id || !page.url || !page.expiresAt) continue;
    if (
      page.tier === input.tier &&
      page.expiresAt.getTime() - deps.clock.now().getTime() > REUSE_MARGIN_MS
    ) {
      return { url: page.url };
    }
    await expirePage(deps, stripe, page.id);
    await closeCheckout(deps.db, page.id, 'expired');
  }
  throw new AppError('CONFLICT', CONCURRENT_CHANGE);
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
