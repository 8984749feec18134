/** Stripe's objects as the stand-in keeps them: the fields Memento reads, and any others. */
export interface StandInObject {
  id: string;
  object: string;
  [field: string]: unknown;
}
export interface StandInSubscription extends StandInObject {
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  trial_end: number | null;
  created: number;
  latest_invoice: string | null;
  metadata: Record<string, string>;
  items: {
    data: Array<{
      current_period_start: number;
      current_period_end: number;
      price: { id: string; unit_amount: number };
    }>;
  };
}
export interface StandInCheckoutSession extends StandInObject {
  object: 'checkout.session';
  /** null once expired, as Stripe answers it. */
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  expires_at: number;
  customer: string | null;
  client_reference_id: string | null;
  line_items: Array<{ price: string; quantity?: string }>;
  subscription_data: { trial_period_days?: string; metadata?: Record<string, string> } | null;
  success_url: string;
  cancel_url: string;
  subscription: string | null;
}
export interface StandInPortalSession extends StandInObject {
  customer: string;
  return_url: string;
  url: string;
}
export interface StandInEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: StandInObject };
  [field: string]: unknown;
}
export interface StandInDelivery {
  event: StandInEvent;
  status: number;
  body: string;
}
export interface StandInRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  /** The Idempotency-Key header, when sent. */
  idempotencyKey: string | null;
  /** Answered from an earlier request with the same key. */
  replayed?: boolean;
}
export interface StandInRefund extends StandInObject {
  object: 'refund';
  payment_intent: string;
  amount: number;
}
export interface StandInHold {
  /** Settles when the first held call arrives. */
  reached: Promise<void>;
  /** How many calls have arrived and been held. */
  readonly arrivals: number;
  /** True once the calls were let through. */
  readonly released: boolean;
  release(): void;
}
export interface SendOptions {
  /** The event's id (a fresh one when absent). */
  id?: string;
  /** The signature's time, in seconds (now when absent). */
  timestamp?: number;
  /** Sign with another secret (the webhook secret when absent). */
  secret?: string;
}
export interface StripeStandIn {
  /** What STRIPE_API_BASE is set to: `http://127.0.0.1:PORT`. */
  apiBase: string;
  customers: Map<string, StandInObject>;
  checkoutSessions: Map<string, StandInCheckoutSession>;
  portalSessions: Map<string, StandInPortalSession>;
  subscriptions: Map<string, StandInSubscription>;
  invoices: Map<string, StandInObject>;
  refunds: Map<string, StandInRefund>;
  /** Opens a Checkout session directly at 'Stripe', as another tab or someone else could. */
  openCheckout(params: {
    customer?: string;
    client_reference_id?: string;
    line_items: Array<{ price: string; quantity?: string }>;
    metadata?: Record<string, string>;
    subscription_data?: { metadata?: Record<string, string> };
  }): StandInCheckoutSession;
  /**
   * Holds every `method path` API call (e.g. 'POST', '/v1/checkout/sessions') until `release()`,
   * or `releaseAfterMs` (5 s) so a failing test never waits on the SDK's timeout.
   */
  hold(method: string, path: string, options?: { releaseAfterMs?: number }): StandInHold;
  /** Makes a customer directly at 'Stripe', one the app never made. */
  createCustomer(params: {
    email?: string;
    name?: string;
    metadata?: Record<string, string>;
  }): StandInObject;
  /** Starts a subscription directly at 'Stripe' without telling Memento. */
  createSubscription(params: {
    customer: string;
    priceId: string;
    trialDays?: number | null;
    metadata?: Record<string, string>;
  }): StandInSubscription;
  /** Every API call the app made, in order. */
  requests: StandInRequest[];
  /** Every webhook sent, in order, with Memento's answer. */
  deliveries: StandInDelivery[];
  buildEvent(type: string, object: object, options?: { id?: string }): StandInEvent;
  sendEvent(type: string, object: object, options?: SendOptions): Promise<StandInDelivery>;
  /** Sends an event (again, as Stripe's retries do). */
  sendSigned(
    event: StandInEvent,
    options?: Pick<SendOptions, 'timestamp' | 'secret'>,
  ): Promise<StandInDelivery>;
  invoiceFor(subscription: StandInSubscription, status: 'paid' | 'failed'): StandInObject;
  /** Changes a subscription without telling Memento (send an event to do that). */
  updateSubscription(
    id: string,
    patch: {
      status?: string;
      cancel_at_period_end?: boolean;
      priceId?: string;
      currentPeriodEnd?: number;
      trial_end?: number | null;
    },
  ): StandInSubscription;
  /** Ends a subscription now without telling Memento. */
  endSubscription(id: string): StandInSubscription;
  /** 'Pay and subscribe': customer, subscription, then the three webhooks (in `order`). */
  completeCheckout(
    sessionId: string,
    options?: {
      order?: Array<
        'checkout.session.completed' | 'customer.subscription.created' | 'invoice.paid'
      >;
    },
  ): Promise<{
    session: StandInCheckoutSession;
    subscription?: StandInSubscription;
    deliveries: StandInDelivery[];
  }>;
  /** The portal's 'Cancel plan', with its webhook. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<StandInDelivery>;
  /** A renewal fails: invoice.payment_failed, then customer.subscription.updated. */
  failPayment(subscriptionId: string): Promise<StandInDelivery[]>;
  /** A payment goes through: invoice.paid, then customer.subscription.updated. */
  payInvoice(subscriptionId: string): Promise<StandInDelivery[]>;
  /** The subscription ends: customer.subscription.deleted. */
  sendSubscriptionEnded(subscriptionId: string): Promise<StandInDelivery>;
  /** Waits for webhooks still on their way after API calls. */
  settled(): Promise<void>;
  close(): Promise<void>;
}
export declare function parseStripeForm(text: string): Record<string, unknown>;
export declare function startStripeStandIn(options: {
  webhookUrl: string;
  webhookSecret: string;
  /** Sends each webhook instead of an HTTP POST (the API tests use app.inject). */
  deliver?: (request: {
    payload: string;
    signature: string;
  }) => Promise<{ status: number; body: string }>;
}): Promise<StripeStandIn>;
