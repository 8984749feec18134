import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../../setup/stripe-stand-in.mjs';

/** Stripe's webhooks come from its own addresses, with no browser's headers. */
export const STRIPE_IP = '54.187.174.169';

/** The three plans' Stripe prices, as the app's settings name them. */
export interface StripePrices {
  standard: string;
  premium: string;
  professional: string;
}

/** The app's settings for a Stripe account reached at `apiBase` (the stand-in, or a proxy to it). */
export function stripeEnv(input: {
  secretKey: string;
  webhookSecret: string;
  prices: StripePrices;
  apiBase: string;
}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: input.secretKey,
    STRIPE_WEBHOOK_SECRET: input.webhookSecret,
    STRIPE_PRICE_STANDARD: input.prices.standard,
    STRIPE_PRICE_PREMIUM: input.prices.premium,
    STRIPE_PRICE_PROFESSIONAL: input.prices.professional,
    STRIPE_API_BASE: input.apiBase,
  };
}

/** A signed webhook sent to the app's real route, as Stripe sends it. */
export async function deliverWebhook(app: FastifyInstance, payload: string, signature: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    remoteAddress: STRIPE_IP,
    payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signature,
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
    },
  });
  return { status: res.statusCode, body: res.body };
}

/**
 * Stripe's stand-in for a file's tests, its webhooks delivered to `app()`'s real route. Call it
 * before `useTestApp`, whose settings read its `apiBase`: it starts first and closes last. The
 * answer stands for the stand-in once `beforeAll` has run.
 */
export function useStripeStandIn(input: {
  webhookSecret: string;
  app: () => FastifyInstance;
}): StripeStandIn {
  let started: StripeStandIn | undefined;
  beforeAll(async () => {
    started = await startStripeStandIn({
      webhookUrl: 'http://localhost:5000/api/billing/webhook',
      webhookSecret: input.webhookSecret,
      deliver: ({ payload, signature }) => deliverWebhook(input.app(), payload, signature),
    });
  });
  afterAll(async () => {
    await started?.close();
  });
  // Every member is read from the running stand-in, as `useTestApp`'s are from the app.
  return new Proxy({} as StripeStandIn, {
    get(_target, key) {
      if (!started) throw new Error('useStripeStandIn: the stand-in exists only after beforeAll');
      return Reflect.get(started, key, started);
    },
  });
}
