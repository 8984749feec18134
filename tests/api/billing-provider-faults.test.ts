import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, expect, it, vi } from 'vitest';
import { billingCheckouts, users } from '../../src/server/db/schema';
import { BILLING_MESSAGES } from '../../src/shared/schemas/billing';
import { createOnboardedUser } from '../setup/app';
import { TcpProxy } from '../setup/tcp-proxy';
import { useBillingTestApp } from './support/billing';

// Stripe out of reach mid-use: the person is told plainly and nothing is charged or changed;
// once Stripe answers again, the same request works with no restart. Stripe slow to answer: the
// app keeps answering everyone else, and a page opened meanwhile is still the account's only one.

let proxy: TcpProxy;
afterAll(async () => {
  await proxy?.close();
});

const { t, stripe } = useBillingTestApp({
  admin: true,
  stripe: {
    secretKey: 'sk_test_memento_faults',
    webhookSecret: 'whsec_billing_faults_0123456789',
    prices: {
      standard: 'price_standard_faults',
      premium: 'price_premium_faults',
      professional: 'price_professional_faults',
    },
    // The app reaches Stripe through a proxy the tests can cut.
    reach: async (apiBase) => {
      const target = new URL(apiBase);
      proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port) });
      return `http://127.0.0.1:${proxy.port}`;
    },
  },
});

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

// One database connection (PGlite) must never wait on Stripe: a checkout Stripe is slow to answer
// holds no transaction, so everyone else's requests carry on meanwhile.
it.each(['/v1/customers', '/v1/checkout/sessions'])(
  'answers another account at once while Stripe is slow to answer POST %s',
  async (path) => {
    const owner = await createOnboardedUser(t);
    const other = await createOnboardedUser(t);
    const slow = stripe.hold('POST', path);
    const checkout = owner.device.post('/api/billing/checkout', { tier: 'premium' });
    await slow.reached;

    const [user, health, billing] = await Promise.all([
      other.device.get('/api/user'),
      other.device.get('/api/health'),
      other.device.get('/api/billing'),
    ]);
    // Answered while Stripe still held the checkout's call, not after.
    const answeredWhileHeld = !slow.released;
    slow.release();
    expect(answeredWhileHeld).toBe(true);
    expect([user.statusCode, health.statusCode, billing.statusCode]).toEqual([200, 200, 200]);
    expect(health.json()).toMatchObject({ database: 'ok' });

    const opened = await checkout;
    expect(opened.statusCode).toBe(200);
    expect(opened.json<{ url: string }>().url).toContain('/checkout/');
  },
);

it('gives two windows one page while Stripe is slow to open it', async () => {
  const owner = await createOnboardedUser(t);
  const slow = stripe.hold('POST', '/v1/checkout/sessions');
  const first = owner.device.post('/api/billing/checkout', { tier: 'standard' });
  await slow.reached;
  // The second window finds the first one's claim and asks Stripe with the same key.
  const second = owner.device.post('/api/billing/checkout', { tier: 'standard' });
  await vi.waitFor(() => expect(slow.arrivals).toBe(2));
  slow.release();

  const answers = await Promise.all([first, second]);
  expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
  expect(answers[0]!.json<{ url: string }>().url).toBe(answers[1]!.json<{ url: string }>().url);
  const [account] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
  const pages = [...stripe.checkoutSessions.values()].filter(
    (session) => session.customer === account!.paymentCustomerId,
  );
  expect(pages.map((page) => page.status)).toEqual(['open']);
});

it('closes a page Stripe made after the plan was granted meanwhile, and says so', async () => {
  const owner = await createOnboardedUser(t);
  expect((await owner.device.post('/api/billing/checkout', { tier: 'premium' })).statusCode).toBe(
    200,
  );
  const [before] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
  const customerId = before!.paymentCustomerId!;

  // Another plan is chosen; while Stripe is opening its page, a subscription made elsewhere for
  // the same customer reaches the app and grants a plan.
  const slow = stripe.hold('POST', '/v1/checkout/sessions');
  const change = owner.device.post('/api/billing/checkout', { tier: 'standard' });
  await slow.reached;
  const elsewhere = stripe.createSubscription({
    customer: customerId,
    priceId: 'price_premium_faults',
  });
  const granted = await stripe.sendEvent('customer.subscription.created', elsewhere);
  expect(granted.status).toBe(200);
  slow.release();

  const res = await change;
  expect(res.statusCode).toBe(409);
  expect(res.json()).toEqual({ code: 'CONFLICT', message: BILLING_MESSAGES.alreadySubscribed });
  await stripe.settled();
  const pages = [...stripe.checkoutSessions.values()].filter(
    (session) => session.customer === customerId,
  );
  expect(pages.map((page) => page.status)).toEqual(['expired', 'expired']);
  const open = await t.db
    .select()
    .from(billingCheckouts)
    .where(
      and(
        eq(billingCheckouts.userId, owner.user.id),
        inArray(billingCheckouts.status, ['opening', 'open']),
      ),
    );
  expect(open).toEqual([]);
});

it('hands out the page Stripe made for a request whose answer was lost, not a second one', async () => {
  const owner = await createOnboardedUser(t);
  expect((await owner.device.post('/api/billing/checkout', { tier: 'premium' })).statusCode).toBe(
    200,
  );
  // Stripe makes the page, but the link drops before its answer reaches the app.
  const slow = stripe.hold('POST', '/v1/checkout/sessions');
  const lost = owner.device.post('/api/billing/checkout', { tier: 'standard' });
  await slow.reached;
  await proxy.refuse();
  slow.release();
  const away = await lost;
  expect(away.statusCode).toBe(503);
  expect(away.json()).toMatchObject({ message: BILLING_MESSAGES.providerFailed });
  const [claim] = await t.db
    .select()
    .from(billingCheckouts)
    .where(and(eq(billingCheckouts.userId, owner.user.id), eq(billingCheckouts.status, 'opening')));
  expect(claim).toMatchObject({ tier: 'standard', id: null });

  await proxy.restore();
  const again = await owner.device.post('/api/billing/checkout', { tier: 'standard' });
  expect(again.statusCode).toBe(200);
  const made = stripe.requests.filter((request) => request.idempotencyKey === claim!.key);
  expect(made.map((request) => Boolean(request.replayed))).toEqual([false, true]);
  const pages = [...stripe.checkoutSessions.values()].filter(
    (session) => session.customer === claim!.customerId,
  );
  expect(pages.map((page) => page.status)).toEqual(['expired', 'open']);
  expect(again.json<{ url: string }>().url).toBe(pages[1]!.url);
});
