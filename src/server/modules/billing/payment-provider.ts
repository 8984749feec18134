import type Stripe from 'stripe';
import { PAID_TIERS, type TPaidTier } from '../../../shared/domain/plans';
import { isBillingEnabled, type TConfig } from '../../config';

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
  /** The account it was bought for, as the checkout wrote it. */
  userId: number | null;
}

/** What a verified webhook names: its id and type, and the objects billing follows. */
export interface ProviderEvent {
  id: string;
  type: string;
  subscriptionId: string | null;
  customerId: string | null;
  /** checkout.session.completed: the account the checkout was opened for. */
  clientReferenceId: string | null;
}

export class SignatureRefused extends Error {}

const fromSeconds = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

function toSubscription(subscription: Stripe.Subscription): ProviderSubscription {
  const item = subscription.items.data[0];
  const userId = Number(subscription.metadata?.userId);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    priceId: item?.price.id ?? null,
    currentPeriodEnd: fromSeconds(item?.current_period_end),
    // A cancellation set for a date (the portal can do either) ends the plan then, too.
    cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    trialEnd: fromSeconds(subscription.trial_end),
    userId: Number.isSafeInteger(userId) && userId > 0 ? userId : null,
  };
}

/** The object an event is about, read for the few types billing follows. */
function toEvent(event: Stripe.Event): ProviderEvent {
  const base = { id: event.id, type: event.type, clientReferenceId: null };
  const object = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        ...base,
        subscriptionId: session.mode === 'subscription' ? idOf(session.subscription) : null,
        customerId: idOf(session.customer),
        clientReferenceId: session.client_reference_id,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return {
        ...base,
        subscriptionId: String(object.id),
        customerId: idOf(object.customer as string),
      };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      return {
        ...base,
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        customerId: idOf(invoice.customer),
      };
    }
    default:
      return { ...base, subscriptionId: null, customerId: null };
  }
}

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

  /** Checks Stripe's signature and its time (five minutes), then reads the event. */
  readEvent(payload: Buffer, signature: string | undefined): ProviderEvent {
    if (!signature) throw new SignatureRefused('no signature');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(payload, signature, this.webhookSecret);
    } catch (error) {
      throw new SignatureRefused(error instanceof Error ? error.message : 'signature refused');
    }
    return toEvent(event);
  }

  async createCustomer(input: { userId: number; email: string; name: string }): Promise<string> {
    const customer = await this.stripe.customers.create({
      email: input.email,
      name: input.name,
      metadata: { userId: String(input.userId) },
    });
    return customer.id;
  }

  async createCheckout(input: {
    userId: number;
    customerId: string;
    tier: TPaidTier;
    trialDays: number | null;
    successUrl: string;
    cancelUrl: string;
  }): Promise<string> {
    const userId = String(input.userId);
    const session = await this.stripe.checkout.sessions.create({
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
    });
    if (!session.url) throw new Error('Stripe answered a Checkout session without a URL');
    return session.url;
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

  async cancelSubscription(id: string): Promise<void> {
    await this.stripe.subscriptions.cancel(id);
  }
}
