import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { useTestApp, type SharedTestApp, type UseTestAppOptions } from '../../setup/app';
import { startStripeStandIn, type StripeStandIn } from '../../setup/stripe-stand-in.mjs';

/** Stripe's webhooks come from its own addresses, with no browser's headers. */
export const STRIPE_IP = '54.187.174.169';

/** The three plans' Stripe prices, as the app's settings name them. */
export interface StripePrices {
  standard: string;
  premium: string;
  professional: string;
}

/** The prices the stand-in's pages know by name (their ids name the plan). */
export const TEST_PRICES = {
  standard: 'price_standard_test',
  premium: 'price_premium_test',
  professional: 'price_professional_test',
} as const;

/** The app's settings for a Stripe account reached at `apiBase` (the stand-in, or a proxy to it). */
function stripeEnv(input: {
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
 * Stripe's stand-in for a file's tests, its webhooks delivered to `app()`'s real route: started
 * before the app, whose settings read its `apiBase`, and closed after it.
 */
function useStripeStandIn(input: {
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

/**
 * For a file's billing tests: Stripe's stand-in, and the real app (as `useTestApp` builds it) set
 * to bill through it, its webhooks delivered to the app's real route. `reach` puts something
 * between the app and the stand-in (a proxy that can cut the line): the address the app calls.
 */
export function useBillingTestApp(
  options: UseTestAppOptions & {
    stripe: {
      secretKey: string;
      webhookSecret: string;
      prices?: StripePrices;
      reach?: (apiBase: string) => Promise<string>;
    };
  },
): { t: SharedTestApp; stripe: StripeStandIn } {
  const { stripe: account, ...appOptions } = options;
  const stripe = useStripeStandIn({ webhookSecret: account.webhookSecret, app: () => t.app });
  const t = useTestApp(async () => ({
    ...appOptions,
    env: {
      ...stripeEnv({
        secretKey: account.secretKey,
        webhookSecret: account.webhookSecret,
        prices: account.prices ?? TEST_PRICES,
        apiBase: account.reach ? await account.reach(stripe.apiBase) : stripe.apiBase,
      }),
      ...appOptions.env,
    },
  }));
  return { t, stripe };
}
