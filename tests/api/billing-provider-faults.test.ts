import { afterAll, beforeAll, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../src/shared/schemas/billing';
import { createOnboardedUser, useTestApp } from '../setup/app';
import { startStripeStandIn, type StripeStandIn } from '../setup/stripe-stand-in.mjs';
import { TcpProxy } from '../setup/tcp-proxy';

// Stripe out of reach mid-use: the person is told plainly and nothing is charged or changed;
// once Stripe answers again, the same request works with no restart.

let stripe: StripeStandIn;
let proxy: TcpProxy;

beforeAll(async () => {
  stripe = await startStripeStandIn({
    webhookUrl: 'http://localhost:5000/api/billing/webhook',
    webhookSecret: 'whsec_billing_faults_0123456789',
  });
  const target = new URL(stripe.apiBase);
  proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port) });
});
afterAll(async () => {
  await proxy?.close();
  await stripe?.close();
});
const t = useTestApp(() => ({
  env: {
    STRIPE_SECRET_KEY: 'sk_test_memento_faults',
    STRIPE_WEBHOOK_SECRET: 'whsec_billing_faults_0123456789',
    STRIPE_PRICE_STANDARD: 'price_standard_faults',
    STRIPE_PRICE_PREMIUM: 'price_premium_faults',
    STRIPE_PRICE_PROFESSIONAL: 'price_professional_faults',
    STRIPE_API_BASE: `http://127.0.0.1:${proxy.port}`,
  },
  admin: true,
}));

it('answers 503 with a plain message while Stripe is away, and opens Checkout once it is back', async () => {
  const owner = await createOnboardedUser(t);
  await proxy.refuse();
  const away = await owner.device.post('/api/billing/checkout', { tier: 'premium' });
  expect(away.statusCode).toBe(503);
  expect(away.json()).toMatchObject({ message: BILLING_MESSAGES.providerFailed });
  expect(stripe.checkoutSessions.size).toBe(0);
  const status = await owner.device.get('/api/billing');
  expect(status.statusCode).toBe(200);
  expect(status.json()).toMatchObject({ tier: 'free', status: 'none' });

  await proxy.restore();
  const back = await owner.device.post('/api/billing/checkout', { tier: 'premium' });
  expect(back.statusCode).toBe(200);
  expect(back.json<{ url: string }>().url).toContain('/checkout/');
  expect(stripe.checkoutSessions.size).toBe(1);
});
