import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config';
import { auditLogs, billingEvents, tierDowngrades, users } from '../../src/server/db/schema';
import type { TAuditEventType } from '../../src/shared/domain/enums';
import {
  ADMIN_MESSAGES,
  type TAdminUser,
  type TAdminUsersPage,
} from '../../src/shared/schemas/admin';
import { BILLING_MESSAGES, type TBillingStatus } from '../../src/shared/schemas/billing';
import { createOnboardedUser, createPrimaryUser, TestDevice, useTestApp } from '../setup/app';
import { enrolSecondFactor } from './support/admin';
import { TEST_PRICES as PRICES, useBillingTestApp } from './support/billing';
import { createDeviceSignedInByCode } from './support/recipients';

// Billing: Stripe Checkout and the portal open from the app, and Stripe's webhooks (played by
// the stand-in, signed as Stripe signs them, delivered to the real route) drive the account:
// applied once, in any order, with the downgrade going the way an admin's change goes.

const DAY_MS = 24 * 3600_000;
let admin: TestDevice;

const { t, stripe } = useBillingTestApp({
  mail: true,
  admin: { email: 'admin@care.test' },
  stripe: {
    secretKey: 'sk_test_memento_api',
    webhookSecret: 'whsec_billing_test_secret_0123456789',
  },
});
beforeAll(async () => {
  admin = t.admin.device;
  await enrolSecondFactor(admin);
});

async function status(device: TestDevice): Promise<TBillingStatus> {
  const res = await device.get('/api/billing');
  expect(res.statusCode).toBe(200);
  return res.json<TBillingStatus>();
}

async function account(userId: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, userId));
  return row!;
}

async function auditsOf(userId: number, eventType?: TAuditEventType) {
  return t.db
    .select()
    .from(auditLogs)
    .where(
      and(eq(auditLogs.userId, userId), eventType ? eq(auditLogs.eventType, eventType) : undefined),
    )
    .orderBy(auditLogs.id);
}

async function billingAudits(userId: number) {
  const rows = await auditsOf(userId);
  return rows.filter((row) => row.eventType.startsWith('subscription_'));
}

async function eventsRecorded(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(billingEvents);
  return row!.n;
}

async function downgradesOf(userId: number) {
  return t.db.select().from(tierDowngrades).where(eq(tierDowngrades.userId, userId));
}

/** The account's downgrade record from premium to free, with its cloud copies kept 30 days. */
async function premiumToFreeDowngrade(userId: number) {
  const [record] = await downgradesOf(userId);
  expect(record).toMatchObject({
    previousTier: 'premium',
    newTier: 'free',
    cloudRetentionDays: 30,
    cloudCleanupCompleted: false,
  });
  return record!;
}

/** The Checkout session the app opened, as the stand-in holds it. */
function sessionAt(url: string) {
  const id = new URL(url).pathname.split('/').at(-1)!;
  const session = stripe.checkoutSessions.get(id);
  expect(session).toBeDefined();
  return session!;
}

/** Chooses a plan, pays on the stand-in's Checkout page: the account's subscription id. */
async function subscribe(device: TestDevice, tier: keyof typeof PRICES): Promise<string> {
  const res = await device.post('/api/billing/checkout', { tier });
  expect(res.statusCode).toBe(200);
  const paid = await stripe.completeCheckout(sessionAt(res.json<{ url: string }>().url).id);
  expect(paid.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
  return paid.subscription!.id;
}

/** The plan changed at Stripe (in its portal), and Stripe's webhook saying so delivered. */
async function changePlanAtStripe(subscriptionId: string, tier: keyof typeof PRICES) {
  const changed = stripe.updateSubscription(subscriptionId, { priceId: PRICES[tier] });
  expect((await stripe.sendEvent('customer.subscription.updated', changed)).status).toBe(200);
  return changed;
}

describe('choosing a plan', () => {
  it('opens Checkout for the account with the plan’s price, and the webhooks put the account on it', async () => {
    const owner = await createOnboardedUser(t);
    expect(await status(owner.device)).toMatchObject({
      enabled: true,
      tier: 'free',
      billedTier: null,
      status: 'none',
      trialAvailable: true,
      override: null,
      canManage: false,
    });

    const res = await owner.device.post('/api/billing/checkout', { tier: 'premium' });
    expect(res.statusCode).toBe(200);
    const session = sessionAt(res.json<{ url: string }>().url);
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: String(owner.user.id),
      line_items: [{ price: PRICES.premium, quantity: '1' }],
      success_url: 'http://localhost:5000/premium?checkout=success',
      cancel_url: 'http://localhost:5000/premium?checkout=cancelled',
    });
    // No trial on Premium; the customer was made for this account and is kept on it.
    expect(session.subscription_data?.trial_period_days).toBeUndefined();
    const customer = stripe.customers.get(session.customer!);
    expect(customer).toMatchObject({ email: owner.user.email });
    expect((await account(owner.user.id)).paymentCustomerId).toBe(session.customer);

    // The Checkout page shows the plan and price; paying sends Stripe's three webhooks.
    const page = await fetch(session.url);
    expect(await page.text()).toContain('£9.99 a month');
    const paid = await stripe.completeCheckout(session.id);
    expect(paid.deliveries.map((d) => [d.event.type, d.status])).toEqual([
      ['checkout.session.completed', 200],
      ['customer.subscription.created', 200],
      ['invoice.paid', 200],
    ]);

    const now = await status(owner.device);
    const periodEnd = paid.subscription!.items.data[0]!.current_period_end * 1000;
    expect(now).toMatchObject({
      tier: 'premium',
      billedTier: 'premium',
      status: 'active',
      currentPeriodEnd: new Date(periodEnd).toISOString(),
      cancelAtPeriodEnd: false,
      graceEndsAt: null,
      trialEndsAt: null,
      canManage: true,
    });
    const user = (await owner.device.get('/api/user')).json<{
      subscriptionTier: string;
      subscriptionStatus: string;
    }>();
    expect(user).toMatchObject({ subscriptionTier: 'premium', subscriptionStatus: 'active' });

    // Written down once, in words, and the owner is told.
    const audits = await billingAudits(owner.user.id);
    expect(audits.map((row) => row.eventType)).toEqual(['subscription_created']);
    expect(audits[0]!.summary).toContain('Started Premium (£9.99 a month).');
    expect(audits[0]!.actor).toBe('Stripe (payments)');
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(owner.user.email) && m.subject === 'You are on Memento Premium now',
    );
    expect(mail.text).toContain('The plan is £9.99 a month and renews on');

    // Premium has no recipient limit now.
    const added = await owner.device.post('/api/recipients', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${owner.user.username}@example.test`,
      category: 'friend',
    });
    expect(added.statusCode).toBe(201);

    // A second plan is refused: the portal changes plans.
    const again = await owner.device.post('/api/billing/checkout', { tier: 'standard' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: BILLING_MESSAGES.alreadySubscribed });

    const portal = await owner.device.post('/api/billing/portal');
    expect(portal.statusCode).toBe(200);
    const portalSession = [...stripe.portalSessions.values()].at(-1)!;
    expect(portal.json()).toEqual({ url: portalSession.url });
    expect(portalSession).toMatchObject({
      customer: session.customer,
      return_url: 'http://localhost:5000/premium',
    });
  });

  it('offers the 30-day trial on Professional once per account', async () => {
    const owner = await createPrimaryUser(t);
    const res = await owner.device.post('/api/billing/checkout', { tier: 'professional' });
    const session = sessionAt(res.json<{ url: string }>().url);
    expect(session.subscription_data?.trial_period_days).toBe('30');
    const paid = await stripe.completeCheckout(session.id);
    const subscriptionId = paid.subscription!.id;

    const onTrial = await status(owner.device);
    expect(onTrial).toMatchObject({
      tier: 'professional',
      status: 'active',
      trialAvailable: false,
    });
    expect(Date.parse(onTrial.trialEndsAt!) - Date.now()).toBeGreaterThan(29 * DAY_MS);
    await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.user.email) &&
        m.subject === 'Your Memento Professional free trial has started',
    );

    // The trial is cancelled and ends; a later Professional checkout has no trial.
    expect((await stripe.sendSubscriptionEnded(subscriptionId)).status).toBe(200);
    expect(await status(owner.device)).toMatchObject({
      tier: 'free',
      billedTier: null,
      status: 'cancelled',
      trialAvailable: false,
    });
    const later = await owner.device.post('/api/billing/checkout', { tier: 'professional' });
    expect(later.statusCode).toBe(200);
    const second = sessionAt(later.json<{ url: string }>().url);
    expect(second.subscription_data?.trial_period_days).toBeUndefined();
    expect(second.customer).toBe(session.customer);
  });

  it('refuses an unknown plan with a plain message', async () => {
    const owner = await createPrimaryUser(t);
    const res = await owner.device.post('/api/billing/checkout', { tier: 'enterprise' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { tier: 'Please choose a plan' },
    });
    expect((await owner.device.post('/api/billing/portal')).json()).toMatchObject({
      code: 'CONFLICT',
      message: BILLING_MESSAGES.noCustomer,
    });
  });

  it('is only for the account holder: recipients get 403', async () => {
    const owner = await createOnboardedUser(t);
    const device = await createDeviceSignedInByCode(t, owner.nextOfKin.id);
    for (const res of [
      await device.get('/api/billing'),
      await device.post('/api/billing/checkout', { tier: 'premium' }),
      await device.post('/api/billing/portal'),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: BILLING_MESSAGES.primaryOnly });
    }
    expect(
      stripe.requests.filter((r) => r.params.client_reference_id === String(owner.nextOfKin.id)),
    ).toEqual([]);
  });
});

describe('webhooks', () => {
  it('refuses a bad signature and an old replayed one, changing nothing', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'standard');
    const before = await account(owner.user.id);
    const recorded = await eventsRecorded();
    const ended = stripe.endSubscription(subscriptionId);

    const forged = await stripe.sendEvent('customer.subscription.deleted', ended, {
      secret: 'whsec_someone_else',
    });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toMatchObject({ message: BILLING_MESSAGES.badSignature });

    // A real event, signed with the real secret, but captured and sent again ten minutes later.
    const replayed = await stripe.sendEvent('customer.subscription.deleted', ended, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(replayed.status).toBe(400);

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      payload: JSON.stringify(stripe.buildEvent('customer.subscription.deleted', ended)),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);

    expect(await account(owner.user.id)).toEqual(before);
    expect(await eventsRecorded()).toBe(recorded);
    expect((await status(owner.device)).tier).toBe('standard');
  });

  it('refuses an id Stripe never makes, before it goes into a call to Stripe, changing nothing', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'standard');
    const before = await account(owner.user.id);
    const recorded = await eventsRecorded();
    const invoice = stripe.invoiceFor(stripe.updateSubscription(subscriptionId, {}), 'paid');
    for (const odd of ['sub_\ud800', 'sub_../customers', 'sub_1 2']) {
      const res = await stripe.sendEvent('invoice.paid', {
        ...invoice,
        parent: { subscription_details: { subscription: odd } },
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ message: BILLING_MESSAGES.unusableEvent });
    }
    expect(await account(owner.user.id)).toEqual(before);
    expect(await eventsRecorded()).toBe(recorded);
  });

  it('applies the same event once, however often Stripe sends it', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'premium');
    const cancelled = await stripe.cancelAtPeriodEnd(subscriptionId);
    expect(cancelled.status).toBe(200);
    await t.smtp.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('now'));
    await t.smtp.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('ends on'));
    const after = await account(owner.user.id);
    const audits = await billingAudits(owner.user.id);
    const mails = t.smtp.messages.filter((m) => m.to.includes(owner.user.email)).length;

    // Stripe's retry of the same event (same id): answered, and nothing happens again.
    const again = await stripe.sendSigned(cancelled.event);
    expect(again.status).toBe(200);
    expect(await account(owner.user.id)).toEqual(after);
    expect(await billingAudits(owner.user.id)).toEqual(audits);
    const [row] = await t.db
      .select({ n: count() })
      .from(billingEvents)
      .where(eq(billingEvents.id, cancelled.event.id));
    expect(row!.n).toBe(1);
    await t.app.jobs.deliverMail();
    expect(t.smtp.messages.filter((m) => m.to.includes(owner.user.email))).toHaveLength(mails);
  });

  it('ends in Stripe’s current state whatever order the events arrive in', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'standard');
    const activeSnapshot = structuredClone(stripe.subscriptions.get(subscriptionId)!);

    // The plan changes to Premium at Stripe; the older 'created' snapshot arrives after.
    const changed = await changePlanAtStripe(subscriptionId, 'premium');
    expect((await stripe.sendEvent('customer.subscription.created', activeSnapshot)).status).toBe(
      200,
    );
    expect(await status(owner.device)).toMatchObject({ tier: 'premium', billedTier: 'premium' });

    // It ends; the 'deleted' event comes before a late 'updated' and a late 'invoice.paid'.
    const ended = stripe.endSubscription(subscriptionId);
    expect((await stripe.sendEvent('customer.subscription.deleted', ended)).status).toBe(200);
    expect((await stripe.sendEvent('customer.subscription.updated', changed)).status).toBe(200);
    const invoice = stripe.invoiceFor(changed, 'paid');
    expect((await stripe.sendEvent('invoice.paid', invoice)).status).toBe(200);

    expect(await status(owner.device)).toMatchObject({
      tier: 'free',
      billedTier: null,
      status: 'cancelled',
    });
    expect((await billingAudits(owner.user.id)).map((row) => row.eventType)).toEqual([
      'subscription_created',
      'subscription_updated',
      'subscription_cancelled',
    ]);
    expect((await billingAudits(owner.user.id))[1]!.summary).toContain(
      'Changed from Standard to Premium.',
    );
  });

  it('starts the plan when the first webhooks arrive backwards', async () => {
    const owner = await createPrimaryUser(t);
    const res = await owner.device.post('/api/billing/checkout', { tier: 'standard' });
    const paid = await stripe.completeCheckout(sessionAt(res.json<{ url: string }>().url).id, {
      order: ['invoice.paid', 'customer.subscription.created', 'checkout.session.completed'],
    });
    expect(paid.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    expect(await status(owner.device)).toMatchObject({
      tier: 'standard',
      billedTier: 'standard',
      status: 'active',
    });
    expect((await billingAudits(owner.user.id)).map((row) => row.eventType)).toEqual([
      'subscription_created',
    ]);
  });

  it('applies an event once when two deliveries of it arrive together', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'premium');
    const changed = stripe.updateSubscription(subscriptionId, { priceId: PRICES.professional });
    const event = stripe.buildEvent('customer.subscription.updated', changed);
    const answers = await Promise.all([stripe.sendSigned(event), stripe.sendSigned(event)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await status(owner.device)).tier).toBe('professional');
    expect((await billingAudits(owner.user.id)).map((row) => row.eventType)).toEqual([
      'subscription_created',
      'subscription_updated',
    ]);
  });

  it('takes Stripe’s call without a device, session or Origin, and answers an event it does not follow', async () => {
    const res = await stripe.sendEvent('customer.created', {
      id: 'cus_elsewhere',
      object: 'customer',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ received: true });
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      payload: '{}',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(415);
  });
});

describe('a failed payment', () => {
  it('keeps the plan for 14 days, then moves the account to free the way an admin’s change does', async () => {
    const owner = await createOnboardedUser(t);
    const subscriptionId = await subscribe(owner.device, 'premium');

    const before = Date.now();
    const failed = await stripe.failPayment(subscriptionId);
    expect(failed.map((d) => d.status)).toEqual([200, 200]);
    const due = await status(owner.device);
    expect(due).toMatchObject({ tier: 'premium', billedTier: 'premium', status: 'past_due' });
    const graceEndsAt = Date.parse(due.graceEndsAt!);
    expect(graceEndsAt - before).toBeGreaterThanOrEqual(14 * DAY_MS - 60_000);
    expect(graceEndsAt - before).toBeLessThanOrEqual(14 * DAY_MS + 60_000);
    const graceDay = new Date(graceEndsAt).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const mail = await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.user.email) && m.subject === 'We could not take your Memento payment',
    );
    expect(mail.text).toContain(`your plan stays until ${graceDay}`);

    // The card is put right: the plan carries on and the grace date goes.
    expect((await stripe.payInvoice(subscriptionId)).map((d) => d.status)).toEqual([200, 200]);
    expect(await status(owner.device)).toMatchObject({
      tier: 'premium',
      status: 'active',
      graceEndsAt: null,
    });

    // It fails again and nothing is paid: the hourly pass ends the plan once the grace is over.
    await stripe.failPayment(subscriptionId);
    const grace = Date.parse((await status(owner.device)).graceEndsAt!);
    expect(await t.app.jobs.endRunOutPlans(new Date(grace - 60_000))).toBe(0);
    expect((await status(owner.device)).tier).toBe('premium');
    expect(await t.app.jobs.endRunOutPlans(new Date(grace + 60_000))).toBe(1);
    expect(await status(owner.device)).toMatchObject({
      tier: 'free',
      billedTier: null,
      status: 'cancelled',
      graceEndsAt: null,
    });

    // The downgrade record and the 30-day cloud retention, as an admin's change writes them.
    const record = await premiumToFreeDowngrade(owner.user.id);
    expect(record.cloudRetentionExpiry.getTime() - (grace + 60_000)).toBe(30 * DAY_MS);
    const ended = (await billingAudits(owner.user.id)).at(-1)!;
    expect(ended.eventType).toBe('subscription_cancelled');
    expect(ended.summary).toContain('Premium ended: the payment was not received in time.');

    // The unpaid subscription is cancelled at Stripe; its 'deleted' event changes nothing more.
    await stripe.settled();
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(stripe.deliveries.at(-1)).toMatchObject({
      event: { type: 'customer.subscription.deleted' },
      status: 200,
    });
    expect(await downgradesOf(owner.user.id)).toHaveLength(1);
    expect((await billingAudits(owner.user.id)).at(-1)!.id).toBe(ended.id);
    expect(await t.app.jobs.endRunOutPlans(new Date(grace + 2 * 60_000))).toBe(0);
  });
});

describe('cancelling', () => {
  it('keeps the plan to the end of the paid period, then moves to free; recipients stay but none can be added', async () => {
    const owner = await createOnboardedUser(t);
    const subscriptionId = await subscribe(owner.device, 'standard');
    for (const name of ['Ada', 'Grace', 'Alan']) {
      const res = await owner.device.post('/api/recipients', {
        firstName: name,
        lastName: 'Hill',
        email: `${name.toLowerCase()}.${owner.user.username}@example.test`,
        category: 'family',
      });
      expect(res.statusCode).toBe(201);
    }

    expect((await stripe.cancelAtPeriodEnd(subscriptionId)).status).toBe(200);
    const cancelling = await status(owner.device);
    expect(cancelling).toMatchObject({
      tier: 'standard',
      billedTier: 'standard',
      status: 'cancelled',
      cancelAtPeriodEnd: true,
    });
    const endsOn = new Date(cancelling.currentPeriodEnd!).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const mail = await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.user.email) &&
        m.subject === `Your Memento Standard plan ends on ${endsOn}`,
    );
    expect(mail.text).toContain('Every recipient stays, but no new one can be added');
    expect((await billingAudits(owner.user.id)).at(-1)!.summary).toContain(
      `Cancelled: Standard stays until ${endsOn}.`,
    );

    // Not yet: the period has not ended.
    expect(await t.app.jobs.endRunOutPlans(new Date())).toBe(0);

    // The period runs out at Stripe and its 'deleted' event is lost: the hourly pass ends it.
    const periodEnd = Math.floor(Date.now() / 1000) - 60;
    stripe.updateSubscription(subscriptionId, { currentPeriodEnd: periodEnd });
    await t.db
      .update(users)
      .set({ currentPeriodEnd: new Date(periodEnd * 1000) })
      .where(eq(users.id, owner.user.id));
    expect(await t.app.jobs.endRunOutPlans(new Date())).toBe(1);
    expect(await status(owner.device)).toMatchObject({ tier: 'free', billedTier: null });
    expect(await downgradesOf(owner.user.id)).toHaveLength(1);
    expect((await billingAudits(owner.user.id)).at(-1)!.summary).toContain(
      'Standard ended at the end of its paid period.',
    );

    // Every recipient stays; none can be added over the free limit.
    const list = await owner.device.get('/api/recipients');
    expect(list.json<{ recipients: unknown[] }>().recipients).toHaveLength(4);
    const refused = await owner.device.post('/api/recipients', {
      firstName: 'Tom',
      lastName: 'Hill',
      email: `tom.${owner.user.username}@example.test`,
      category: 'friend',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'UPGRADE_REQUIRED' });

    // Stripe's late 'deleted' event agrees and changes nothing.
    const audits = await billingAudits(owner.user.id);
    expect((await stripe.sendSubscriptionEnded(subscriptionId)).status).toBe(200);
    expect(await billingAudits(owner.user.id)).toEqual(audits);
    expect(await downgradesOf(owner.user.id)).toHaveLength(1);
  });
});

describe('an administrator’s tier or VIP setting', () => {
  async function override(userId: number, tier: string, isVIP: boolean, reason: string) {
    const res = await admin.post(`/api/admin/users/${userId}/override`, { tier, isVIP, reason });
    expect(res.statusCode).toBe(200);
    return res.json<TAdminUser>();
  }

  /** A Premium subscriber whose plan an administrator then set (not VIP). */
  async function subscriberSetByAdmin(tier: string, reason: string) {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'premium');
    await override(owner.user.id, tier, false, reason);
    return { owner, subscriptionId };
  }

  it('wins over billing: webhooks record the subscription but never change the tier', async () => {
    const { owner, subscriptionId } = await subscriberSetByAdmin(
      'professional',
      'Care home partner',
    );

    await changePlanAtStripe(subscriptionId, 'standard');
    expect(await status(owner.device)).toMatchObject({
      tier: 'professional',
      billedTier: 'standard',
      override: { tier: 'professional', vip: false, reason: 'Care home partner' },
    });

    expect((await stripe.sendSubscriptionEnded(subscriptionId)).status).toBe(200);
    expect(await status(owner.device)).toMatchObject({
      tier: 'professional',
      billedTier: null,
      status: 'cancelled',
    });
    expect(await downgradesOf(owner.user.id)).toHaveLength(0);
    expect((await billingAudits(owner.user.id)).at(-1)!.summary).toContain(
      'The plan an administrator set stays (Professional).',
    );

    // Buying is refused while the setting holds.
    const res = await owner.device.post('/api/billing/checkout', { tier: 'premium' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: BILLING_MESSAGES.setByAdmin });
  });

  it('shows each account’s subscription and whether a setting is in force on the admin’s list', async () => {
    const owner = await createPrimaryUser(t);
    await subscribe(owner.device, 'standard');
    const card = await override(owner.user.id, 'standard', true, 'Family of staff');
    expect(card).toMatchObject({
      subscriptionTier: 'standard',
      isVIP: true,
      subscriptionStatus: 'active',
      billedTier: 'standard',
      cancelAtPeriodEnd: false,
      graceEndsAt: null,
      isSetByAdministrator: true,
    });
    expect(card.currentPeriodEnd).toBe(
      (await account(owner.user.id)).currentPeriodEnd!.toISOString(),
    );
    const page = (
      await admin.get(`/api/admin/users?q=${encodeURIComponent(owner.user.username)}`)
    ).json<TAdminUsersPage>();
    expect(page.users).toEqual([card]);
  });

  async function returnToBilling(userId: number) {
    return admin.post(`/api/admin/users/${userId}/return-to-billing`);
  }

  it('hands the plan back to billing: from then on it follows the subscription', async () => {
    const { owner, subscriptionId } = await subscriberSetByAdmin(
      'standard',
      'Trying the smaller plan',
    );

    // While the setting holds, a plan change at Stripe is recorded but the tier stays.
    await changePlanAtStripe(subscriptionId, 'professional');
    expect(await status(owner.device)).toMatchObject({
      tier: 'standard',
      billedTier: 'professional',
    });

    // Only an administrator can hand it back.
    expect(
      (await owner.device.post(`/api/admin/users/${owner.user.id}/return-to-billing`)).statusCode,
    ).toBe(403);

    const res = await returnToBilling(owner.user.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<TAdminUser>()).toMatchObject({
      subscriptionTier: 'professional',
      billedTier: 'professional',
      tierOverriddenBy: null,
      tierOverrideReason: null,
      isSetByAdministrator: false,
    });
    expect(await status(owner.device)).toMatchObject({ tier: 'professional', override: null });
    expect(await downgradesOf(owner.user.id)).toHaveLength(0);
    const audits = await auditsOf(owner.user.id, 'admin_tier_override');
    expect(audits.at(-1)!.summary).toContain(
      'Returned to billing: the plan follows their payments again (Professional).',
    );
    expect(audits.at(-1)!.actor).toMatch(/^Administrator /);

    // Pressed again: nothing more happens.
    expect((await returnToBilling(owner.user.id)).statusCode).toBe(200);
    expect(await auditsOf(owner.user.id, 'admin_tier_override')).toHaveLength(audits.length);

    // The next change at Stripe moves the tier.
    await changePlanAtStripe(subscriptionId, 'standard');
    expect(await status(owner.device)).toMatchObject({ tier: 'standard', billedTier: 'standard' });
  });

  it('moves an account with no live subscription to free the way every downgrade goes, and lets it buy', async () => {
    const owner = await createPrimaryUser(t);
    await override(owner.user.id, 'premium', false, 'Gift from the care home');
    const refused = await owner.device.post('/api/billing/checkout', { tier: 'standard' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: BILLING_MESSAGES.setByAdmin });

    const before = Date.now();
    const res = await returnToBilling(owner.user.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<TAdminUser>()).toMatchObject({
      subscriptionTier: 'free',
      isSetByAdministrator: false,
    });
    const record = await premiumToFreeDowngrade(owner.user.id);
    expect(record.cloudRetentionExpiry.getTime() - before).toBeGreaterThanOrEqual(30 * DAY_MS);
    expect((await auditsOf(owner.user.id, 'admin_tier_override')).at(-1)!.summary).toContain(
      'Returned to billing: no plan is paid for, so the account is on Community Edition.',
    );

    // The account can now choose a plan itself.
    expect(
      (await owner.device.post('/api/billing/checkout', { tier: 'standard' })).statusCode,
    ).toBe(200);
  });

  it('leaves a VIP account alone: VIP is turned off in Manage Tier first', async () => {
    const owner = await createPrimaryUser(t);
    await override(owner.user.id, 'premium', true, 'Family of staff');
    const res = await returnToBilling(owner.user.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: ADMIN_MESSAGES.vipHoldsPlan });
    expect(await account(owner.user.id)).toMatchObject({
      subscriptionTier: 'premium',
      isVIP: true,
    });
    expect(await downgradesOf(owner.user.id)).toHaveLength(0);
  });
});

describe('deleting a paying account', () => {
  it('cancels its subscription at Stripe, so the card is not charged again', async () => {
    const owner = await createPrimaryUser(t);
    const subscriptionId = await subscribe(owner.device, 'premium');
    const res = await admin.delete('/api/admin/users', { ids: [owner.user.id] });
    expect(res.statusCode).toBe(200);
    await stripe.settled();
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    // Stripe's word that it ended finds no account and is simply recorded.
    expect(stripe.deliveries.at(-1)).toMatchObject({
      event: { type: 'customer.subscription.deleted' },
      status: 200,
    });
  });
});

describe('without Stripe configured', () => {
  const off = useTestApp({ limits: { billingWebhook: { max: 2, timeWindow: 60_000 } } });

  it('says billing is off, answers checkout and portal with BILLING_DISABLED, and keeps a per-IP limit on the webhook', async () => {
    const owner = await createPrimaryUser(off);
    expect((await owner.device.get('/api/billing')).json()).toMatchObject({
      enabled: false,
      tier: 'free',
      canManage: false,
    });
    for (const res of [
      await owner.device.post('/api/billing/checkout', { tier: 'premium' }),
      await owner.device.post('/api/billing/portal'),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'BILLING_DISABLED', message: BILLING_MESSAGES.disabled });
    }
    expect((await owner.device.get('/api/config')).json()).toMatchObject({ billingEnabled: false });
    expect((await TestDevice.create(t.app).then((d) => d.get('/api/config'))).json()).toMatchObject(
      {
        billingEnabled: true,
      },
    );

    const webhook = () =>
      off.app.inject({
        method: 'POST',
        url: '/api/billing/webhook',
        remoteAddress: '198.51.100.7',
        payload: '{}',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      });
    expect((await webhook()).json()).toMatchObject({ code: 'BILLING_DISABLED' });
    expect((await webhook()).statusCode).toBe(400);
    expect((await webhook()).statusCode).toBe(429);
  });

  it('refuses half a billing configuration at start-up, naming what is missing', () => {
    expect(() =>
      parseConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_PREMIUM: 'price_1' }),
    ).toThrow(ConfigError);
    try {
      parseConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_PREMIUM: 'price_1' });
    } catch (error) {
      const message = (error as Error).message;
      for (const missing of [
        'STRIPE_WEBHOOK_SECRET',
        'STRIPE_PRICE_STANDARD',
        'STRIPE_PRICE_PROFESSIONAL',
      ]) {
        expect(message).toContain(`${missing}: billing needs`);
      }
      expect(message).not.toContain('STRIPE_PRICE_PREMIUM:');
    }
  });
});
