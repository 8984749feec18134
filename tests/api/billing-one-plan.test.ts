import { and, count, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLogs, billingCheckouts, billingEvents, users } from '../../src/server/db/schema';
import { CONCURRENT_CHANGE, REMOVED_MEANWHILE } from '../../src/server/errors';
import { BILLING_MESSAGES } from '../../src/shared/schemas/billing';
import { createPrimaryUser, TestDevice } from '../setup/app';
import { enrolSecondFactor } from './support/admin';
import { deliverWebhook, TEST_PRICES as PRICES, useBillingTestApp } from './support/billing';

// One account, one plan: two clicks or two windows never buy two subscriptions, a second one
// Stripe reports anyway is cancelled and refunded, a customer the app did not make grants nothing,
// a deleted account stops paying for everything, and a signed event billing cannot use is refused
// whole. Stripe is the stand-in over HTTP; its webhooks go to the real route.

const WEBHOOK_SECRET = 'whsec_one_plan_test_secret_0123456789';

const { t, stripe } = useBillingTestApp({
  mail: true,
  admin: { email: 'admin@one-plan.test' },
  stripe: { secretKey: 'sk_test_memento_one_plan', webhookSecret: WEBHOOK_SECRET },
});

beforeAll(async () => {
  // Deleting an account is an admin's step behind the second factor.
  await enrolSecondFactor(t.admin.device);
});

async function account(userId: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, userId));
  return row!;
}

async function eventsRecorded(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(billingEvents);
  return row!.n;
}

async function checkout(device: TestDevice, tier: keyof typeof PRICES) {
  return device.post('/api/billing/checkout', { tier });
}

const sessionIdOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const sessionsOf = (customerId: string) =>
  [...stripe.checkoutSessions.values()].filter((session) => session.customer === customerId);
const customersOf = (userId: number) =>
  [...stripe.customers.values()].filter(
    (customer) => (customer.metadata as Record<string, string>).userId === String(userId),
  );

/** Chooses a plan and pays for it on the stand-in's page: the subscription's id. */
async function subscribe(device: TestDevice, tier: keyof typeof PRICES): Promise<string> {
  const res = await checkout(device, tier);
  expect(res.statusCode).toBe(200);
  const paid = await stripe.completeCheckout(sessionIdOf(res.json<{ url: string }>().url));
  expect(paid.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
  await stripe.settled();
  return paid.subscription!.id;
}

describe('two clicks or two windows', () => {
  it('make one customer and one Checkout page when both ask for the same plan at once', async () => {
    const owner = await createPrimaryUser(t);
    const [first, second] = await Promise.all([
      checkout(owner.device, 'premium'),
      checkout(owner.device, 'premium'),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.json<{ url: string }>().url).toBe(second.json<{ url: string }>().url);

    expect(customersOf(owner.user.id)).toHaveLength(1);
    const customerId = (await account(owner.user.id)).paymentCustomerId!;
    expect(customersOf(owner.user.id)[0]!.id).toBe(customerId);
    expect(sessionsOf(customerId).map((session) => session.status)).toEqual(['open']);

    // Every write the app made at Stripe carried its own key, so a repeat is the same write.
    const writes = stripe.requests.filter(
      (request) =>
        request.method !== 'GET' &&
        (request.params.customer === customerId ||
          (request.params.metadata as Record<string, string> | undefined)?.userId ===
            String(owner.user.id)),
    );
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes) expect(write.idempotencyKey).toMatch(/^(customer|checkout)-/);
  });

  it('leave one page that can be paid when two plans are chosen at once', async () => {
    const owner = await createPrimaryUser(t);
    const answers = await Promise.all([
      checkout(owner.device, 'standard'),
      checkout(owner.device, 'premium'),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(customersOf(owner.user.id)).toHaveLength(1);
    const customerId = (await account(owner.user.id)).paymentCustomerId!;
    const sessions = sessionsOf(customerId);
    expect(sessions.map((session) => session.status).sort()).toEqual(['expired', 'open']);
    const rows = await t.db
      .select()
      .from(billingCheckouts)
      .where(and(eq(billingCheckouts.userId, owner.user.id), eq(billingCheckouts.status, 'open')));
    expect(rows.map((row) => row.id)).toEqual([sessions.find((s) => s.status === 'open')!.id]);

    // The closed page cannot be paid: no subscription, no webhook.
    const closed = sessions.find((session) => session.status === 'expired')!;
    const paid = await stripe.completeCheckout(closed.id);
    expect(paid.deliveries).toEqual([]);
    expect([...stripe.subscriptions.values()].filter((s) => s.customer === customerId)).toEqual([]);
  });

  it('refuses a second plan while the first one’s payment is still on its way', async () => {
    const owner = await createPrimaryUser(t);
    const standard = await checkout(owner.device, 'standard');
    // Paid at Stripe; its webhooks have not reached the app yet.
    await stripe.completeCheckout(sessionIdOf(standard.json<{ url: string }>().url), {
      order: [],
    });
    expect((await account(owner.user.id)).billedTier).toBeNull();
    const customerId = (await account(owner.user.id)).paymentCustomerId!;

    const premium = await checkout(owner.device, 'premium');
    expect(premium.statusCode).toBe(409);
    expect(premium.json()).toEqual({ code: 'CONFLICT', message: BILLING_MESSAGES.justPaid });
    expect(sessionsOf(customerId)).toHaveLength(1);
  });

  it('closes a Checkout page left open in another tab once the plan is granted', async () => {
    const owner = await createPrimaryUser(t);
    const res = await checkout(owner.device, 'standard');
    const customerId = (await account(owner.user.id)).paymentCustomerId!;
    // A page opened for this customer some other way (an older tab, before this version).
    const other = stripe.openCheckout({
      customer: customerId,
      line_items: [{ price: PRICES.premium, quantity: '1' }],
    });

    const paid = await stripe.completeCheckout(sessionIdOf(res.json<{ url: string }>().url));
    expect(paid.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    await stripe.settled();
    expect(stripe.checkoutSessions.get(other.id)!.status).toBe('expired');
    expect((await account(owner.user.id)).billedTier).toBe('standard');
  });
});

describe('a second subscription Stripe reports anyway', () => {
  it('is cancelled at once and refunded in full; the owner’s log and an email say so, once', async () => {
    const owner = await createPrimaryUser(t);
    const kept = await subscribe(owner.device, 'standard');
    const customerId = (await account(owner.user.id)).paymentCustomerId!;

    // A second page for the same customer, paid: Stripe makes a second subscription.
    const second = stripe.openCheckout({
      customer: customerId,
      client_reference_id: String(owner.user.id),
      line_items: [{ price: PRICES.premium, quantity: '1' }],
    });
    const paid = await stripe.completeCheckout(second.id);
    expect(paid.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    await stripe.settled();

    const extra = paid.subscription!.id;
    expect(stripe.subscriptions.get(extra)!.status).toBe('canceled');
    expect(stripe.subscriptions.get(kept)!.status).toBe('active');
    const paymentIntents = stripe.requests
      .filter((request) => request.path === '/v1/refunds' && !request.replayed)
      .map((request) => request.params.payment_intent);
    const refunds = [...stripe.refunds.values()].filter((refund) =>
      paymentIntents.includes(refund.payment_intent),
    );
    expect(refunds.map((refund) => refund.amount)).toEqual([999]);

    expect(await account(owner.user.id)).toMatchObject({
      billedTier: 'standard',
      subscriptionTier: 'standard',
      paymentSubscriptionId: kept,
    });
    const audits = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'subscription_cancelled')),
      );
    expect(audits).toHaveLength(1);
    expect(audits[0]!.summary).toContain(
      'A second plan (Premium) was started and cancelled at once: the account already has Standard. £9.99 was refunded in full.',
    );
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(owner.user.email) && m.subject.includes('second'),
    );
    expect(mail.subject).toBe('We cancelled a second Memento plan and refunded it');
    expect(mail.text).toContain('£9.99');
  });
});

describe('a customer the app did not make', () => {
  it('grants no plan and is never adopted, whatever its metadata or reference names', async () => {
    const owner = await createPrimaryUser(t);
    const before = await account(owner.user.id);
    const named = { userId: String(owner.user.id) };
    const stranger = stripe.createCustomer({ email: 'someone@elsewhere.test', metadata: named });
    const session = stripe.openCheckout({
      customer: stranger.id,
      client_reference_id: String(owner.user.id),
      line_items: [{ price: PRICES.premium, quantity: '1' }],
      metadata: named,
      subscription_data: { metadata: named },
    });
    const paid = await stripe.completeCheckout(session.id);
    expect(paid.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);

    expect(await account(owner.user.id)).toMatchObject({
      subscriptionTier: 'free',
      billedTier: null,
      paymentCustomerId: null,
      paymentSubscriptionId: null,
    });
    expect((await account(owner.user.id)).updatedAt).toEqual(before.updatedAt);
  });
});

describe('deleting an account', () => {
  it('cancels every subscription of its customer and closes its open Checkout pages', async () => {
    const owner = await createPrimaryUser(t);
    const followed = await subscribe(owner.device, 'premium');
    const customerId = (await account(owner.user.id)).paymentCustomerId!;
    // Another subscription and an open page on the same customer that the app never heard of.
    const other = stripe.createSubscription({ customer: customerId, priceId: PRICES.standard });
    const page = stripe.openCheckout({
      customer: customerId,
      line_items: [{ price: PRICES.professional, quantity: '1' }],
    });

    const admin = t.admin.device;
    const res = await admin.delete('/api/admin/users', { ids: [owner.user.id] });
    expect(res.statusCode).toBe(200);
    await stripe.settled();
    expect(stripe.subscriptions.get(followed)!.status).toBe('canceled');
    expect(stripe.subscriptions.get(other.id)!.status).toBe('canceled');
    expect(stripe.checkoutSessions.get(page.id)!.status).toBe('expired');
  });
});

describe('a signed event billing cannot use', () => {
  const sign = (payload: string) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

  it('is refused with 400 and a plain message, and nothing is recorded', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'standard');
    const before = await account(owner.user.id);
    const recorded = await eventsRecorded();
    const ended = stripe.endSubscription(subscriptionId);
    const whole = stripe.buildEvent('customer.subscription.deleted', ended);
    const { id: _id, ...withoutId } = whole;
    const { data: _data, ...withoutData } = whole;

    const bodies = [
      'null',
      '{}',
      '[]',
      '"evt"',
      '{',
      JSON.stringify({ ...whole, data: { object: null } }),
      JSON.stringify(withoutData),
      JSON.stringify(withoutId),
      JSON.stringify({ ...whole, id: '' }),
      JSON.stringify({ ...whole, data: { object: { ...ended, id: undefined } } }),
      JSON.stringify({ ...whole, data: { object: { ...ended, customer: 42 } } }),
      JSON.stringify({ ...whole, type: 'invoice.paid', data: { object: { parent: 'x' } } }),
    ];
    for (const payload of bodies) {
      const answer = await deliverWebhook(t.app, payload, sign(payload));
      expect({ payload, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
        payload,
        status: 400,
        body: { code: 'VALIDATION', message: BILLING_MESSAGES.unusableEvent },
      });
    }
    expect(await eventsRecorded()).toBe(recorded);
    expect(await account(owner.user.id)).toEqual(before);
  });
});

describe('a unique key two writes raced for', () => {
  it('answers 409 with a plain message, never 500, and saves nothing half', async () => {
    const owner = await createPrimaryUser(t);
    const other = await createPrimaryUser(t);
    // Stripe answers this account's customer key with a customer the database already gives to
    // another account (as two servers writing the same customer at once would leave it).
    const key = `customer-${owner.user.id}-${(await account(owner.user.id)).createdAt.getTime()}`;
    const made = await fetch(`${stripe.apiBase}/v1/customers`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_test_memento_one_plan',
        'idempotency-key': key,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'email=someone%40example.test',
    });
    const { id: customerId } = (await made.json()) as { id: string };
    await t.db
      .update(users)
      .set({ paymentCustomerId: customerId })
      .where(eq(users.id, other.user.id));

    const res = await checkout(owner.device, 'premium');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'CONFLICT', message: CONCURRENT_CHANGE });
    expect((await account(owner.user.id)).paymentCustomerId).toBeNull();
    const rows = await t.db
      .select()
      .from(billingCheckouts)
      .where(eq(billingCheckouts.userId, owner.user.id));
    expect(rows).toEqual([]);
  });
});

describe('an account deleted while its checkout is on its way', () => {
  it('answers 409 with a plain message, never 500, and claims no page', async () => {
    const owner = await createPrimaryUser(t);
    // A customer from an earlier visit: the checkout first asks Stripe for its subscriptions.
    const customer = stripe.createCustomer({
      email: owner.user.email,
      metadata: { userId: String(owner.user.id) },
    });
    await t.db
      .update(users)
      .set({ paymentCustomerId: customer.id })
      .where(eq(users.id, owner.user.id));
    const slow = stripe.hold('GET', '/v1/subscriptions', { releaseAfterMs: 15_000 });
    const asked = checkout(owner.device, 'premium');
    await slow.reached;

    // The admin deletes the account meanwhile; its own look at the customer's subscriptions,
    // once the deletion has committed, waits behind the same hold.
    const deleted = t.admin.device.delete('/api/admin/users', { ids: [owner.user.id] });
    await vi.waitFor(() => expect(slow.arrivals).toBe(2), { timeout: 10_000 });
    slow.release();
    expect((await deleted).statusCode).toBe(200);

    const res = await asked;
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'CONFLICT', message: REMOVED_MEANWHILE });
    expect(await t.db.select().from(users).where(eq(users.id, owner.user.id))).toEqual([]);
    const rows = await t.db
      .select()
      .from(billingCheckouts)
      .where(eq(billingCheckouts.userId, owner.user.id));
    expect(rows).toEqual([]);
  });
});
