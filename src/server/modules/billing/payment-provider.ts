import type Stripe from 'stripe';
import { PAID_TIERS, type TPaidTier } from '../../../shared/domain/plans';
import { isBillingEnabled, type TConfig } from '../../config';
import { toEvent, UnusableEvent, type ProviderEvent } from './provider-events';

/** A subscription as billing reads it: Stripe's object, down to what decides the plan. */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, paused… */
  status: string;
  priceId: string | null;
  currentPeriodEnd: Date | null;
  /** Cancelled by the customer: it runs to the end of the period, then ends. */
  cancelAtPeriodEnd: boolean;
  trialEnd: Date | null;
  created: Date;
  /** The invoice last paid or due; a cancelled extra subscription's payment is refunded from it. */
  latestInvoiceId: string | null;
}

export { UnusableEvent, type ProviderEvent } from './provider-events';

export class SignatureRefused extends Error {}

/** A Checkout page the app opened at Stripe. */
export interface ProviderCheckout {
  id: string;
  url: string;
  expiresAt: Date;
}

const fromSeconds = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

function toSubscription(subscription: Stripe.Subscription): ProviderSubscription {
  const item = subscription.items.data[0];
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    created: new Date(subscription.created * 1000),
    priceId: item?.price.id ?? null,
    currentPeriodEnd: fromSeconds(item?.current_period_end),
    // A cancellation set for a date (the portal can do either) ends the plan then, too.
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    trialEnd: fromSeconds(subscription.trial_end),
    latestInvoiceId: idOf(subscription.latest_invoice),
  };
}

/** Stripe's answer for a request it refused as such (not a network failure or its own fault). */
const isRefusal = (error: unknown) => (error as { statusCode?: number }).statusCode === 400;

/**
 * Stripe, as billing uses it (the official SDK). One per server, made at start-up only when
 * billing is configured; the SDK is loaded only then.
 */
export class PaymentProvider {
  private readonly tierByPrice: Map<string, TPaidTier>;

  private constructor(
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    readonly priceOf: Record<TPaidTier, string>,
  ) {
    this.tierByPrice = new Map(PAID_TIERS.map((tier) => [priceOf[tier], tier]));
  }

  static async create(config: TConfig): Promise<PaymentProvider | null> {
    if (!isBillingEnabled(config)) return null;
    const { default: StripeClient } = await import('stripe');
    const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
    const stripe = new StripeClient(config.STRIPE_SECRET_KEY!, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Memento' },
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'http:' ? 80 : 443),
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
    return new PaymentProvider(stripe, config.STRIPE_WEBHOOK_SECRET!, {
      standard: config.STRIPE_PRICE_STANDARD!,
      premium: config.STRIPE_PRICE_PREMIUM!,
      professional: config.STRIPE_PRICE_PROFESSIONAL!,
    });
  }

  tierOfPrice(priceId: string | null): TPaidTier | null {
    return priceId ? (this.tierByPrice.get(priceId) ?? null) : null;
  }

  /** Checks Stripe's signature and its time (five minutes), then reads the event with a schema. */
  readEvent(payload: Buffer, signature: string | undefined): ProviderEvent {
    if (!signature) throw new SignatureRefused('no signature');
    let body: unknown;
    try {
      body = this.stripe.webhooks.constructEvent(payload, signature, this.webhookSecret);
    } catch (error) {
      if ((error as { type?: string }).type === 'StripeSignatureVerificationError') {
        throw new SignatureRefused(error instanceof Error ? error.message : 'signature refused');
      }
      throw new UnusableEvent('event: the body is not JSON');
    }
    return toEvent(body);
  }

  /** `idempotencyKey` makes a repeat (a retry, a second click) return the same customer. */
  async createCustomer(input: {
    userId: number;
    email: string;
    name: string;
    idempotencyKey: string;
  }): Promise<string> {
    const customer = await this.stripe.customers.create(
      { email: input.email, name: input.name, metadata: { userId: String(input.userId) } },
      { idempotencyKey: input.idempotencyKey },
    );
    return customer.id;
  }

  async createCheckout(input: {
    userId: number;
    customerId: string;
    tier: TPaidTier;
    trialDays: number | null;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<ProviderCheckout> {
    const userId = String(input.userId);
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: input.customerId,
        client_reference_id: userId,
        line_items: [{ price: this.priceOf[input.tier], quantity: 1 }],
        subscription_data: {
          metadata: { userId },
          ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
        },
        metadata: { userId },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout session without a URL');
    return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
  }

  /**
   * Closes a Checkout page so it can no longer be paid. Answers what the page ended as: 'expired',
   * or 'complete' when it was paid first.
   */
  async expireCheckout(id: string): Promise<'expired' | 'complete'> {
    try {
      await this.stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `expire-${id}` });
      return 'expired';
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // Only an open page can be expired: this one was paid or had already closed.
      const session = await this.stripe.checkout.sessions.retrieve(id);
      return session.status === 'complete' ? 'complete' : 'expired';
    }
  }

  /** The Checkout pages of a customer that can still be paid. */
  async listOpenCheckouts(customerId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const session of this.stripe.checkout.sessions.list({
      customer: customerId,
      status: 'open',
      limit: 100,
    })) {
      ids.push(session.id);
    }
    return ids;
  }

  /** Every subscription of a customer, ended ones included. */
  async listSubscriptions(customerId: string): Promise<ProviderSubscription[]> {
    const found: ProviderSubscription[] = [];
    for await (const subscription of this.stripe.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
    })) {
      found.push(toSubscription(subscription));
    }
    return found;
  }

  async createPortal(input: { customerId: string; returnUrl: string }): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    });
    return session.url;
  }

  /** The subscription as Stripe has it now; null when Stripe has none by that id. */
  async retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    try {
      return toSubscription(await this.stripe.subscriptions.retrieve(id));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return null;
      throw error;
    }
  }

  /** Ends a subscription now, without a final invoice or credit. */
  async cancelSubscription(id: string): Promise<void> {
    await this.stripe.subscriptions.cancel(
      id,
      { invoice_now: false, prorate: false },
      { idempotencyKey: `cancel-${id}` },
    );
  }

  /**
   * A subscription that should never have been: ended now and what was paid for it refunded in
   * full. Answers the amount refunded (pence; 0 for a trial).
   */
  async cancelAndRefund(subscription: ProviderSubscription): Promise<number> {
    await this.cancelSubscription(subscription.id);
    if (!subscription.latestInvoiceId) return 0;
    let refunded = 0;
    for await (const payment of this.stripe.invoicePayments.list({
      invoice: subscription.latestInvoiceId,
      status: 'paid',
      limit: 100,
    })) {
      const paymentIntent = idOf(payment.payment.payment_intent);
      const charge = idOf(payment.payment.charge);
      if (!paymentIntent && !charge) continue;
      const refund = await this.stripe.refunds.create(
        paymentIntent ? { payment_intent: paymentIntent } : { charge: charge! },
        { idempotencyKey: `refund-${payment.id}` },
      );
      refunded += refund.amount;
    }
    return refunded;
  }
}
