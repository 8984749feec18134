import { z } from 'zod';

/** What a verified webhook names: its id and type, and the objects billing follows. */
export interface ProviderEvent {
  id: string;
  type: string;
  subscriptionId: string | null;
  customerId: string | null;
  /** checkout.session.*: the Checkout session it is about. */
  checkoutSessionId: string | null;
}

/** A signed event billing cannot use: answered 400, nothing recorded. */
export class UnusableEvent extends Error {}

const ZId = z.string().trim().min(1).max(255);

/**
 * An object's id as Stripe makes them ('sub_…', 'cus_…'): letters, digits and underscores. It goes
 * into the address of the next call to Stripe, so nothing else may pass (a lone surrogate cannot
 * even be put in an address).
 */
const ZObjectId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{1,255}$/, 'is not an id Stripe makes');

/** Stripe names an object by its id, or gives the object itself when expanded. */
const ZRef = z
  .union([ZObjectId, z.looseObject({ id: ZObjectId })])
  .nullish()
  .transform((value) => (value == null ? null : typeof value === 'string' ? value : value.id));

const ZEnvelope = z.looseObject({
  id: ZId,
  type: ZId,
  data: z.looseObject({ object: z.looseObject({}) }),
});

const ZCheckoutSession = z.looseObject({
  id: ZObjectId,
  mode: z.string().nullish(),
  subscription: ZRef,
  customer: ZRef,
});

const ZSubscription = z.looseObject({ id: ZObjectId, customer: ZRef });

const ZInvoice = z.looseObject({
  customer: ZRef,
  parent: z
    .looseObject({
      subscription_details: z.looseObject({ subscription: ZRef }).nullish(),
    })
    .nullish(),
});

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the body';
    throw new UnusableEvent(`${what}: ${where} ${issue?.message ?? 'is not valid'}`);
  }
  return parsed.data;
}

/**
 * A verified event's body, read with a schema: the id, type and object every event has, and for
 * the types billing follows, the ids it needs. Anything else is refused whole.
 */
export function toEvent(body: unknown): ProviderEvent {
  const event = parse(ZEnvelope, body, 'event');
  const object = event.data.object;
  const base = {
    id: event.id,
    type: event.type,
    subscriptionId: null,
    customerId: null,
    checkoutSessionId: null,
  };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.expired': {
      const session = parse(ZCheckoutSession, object, event.type);
      return {
        ...base,
        subscriptionId: session.mode === 'subscription' ? session.subscription : null,
        customerId: session.customer,
        checkoutSessionId: session.id,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = parse(ZSubscription, object, event.type);
      return { ...base, subscriptionId: subscription.id, customerId: subscription.customer };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = parse(ZInvoice, object, event.type);
      return {
        ...base,
        subscriptionId: invoice.parent?.subscription_details?.subscription ?? null,
        customerId: invoice.customer,
      };
    }
    default:
      return base;
  }
}
