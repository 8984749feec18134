import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { careHomes, users } from '../../src/server/db/schema';
import type { TBillingStatus } from '../../src/shared/schemas/billing';
import { createPrimaryUser, TestDevice } from '../setup/app';
import { useBillingTestApp } from './support/billing';
import { makeHomeManager } from './support/care-homes';

// Professional's 30-day trial is once per account and once per care home: the home keeps that it
// had the trial, so whoever manages it later gets none, and /premium never offers one the checkout
// would not give. Stripe is its local stand-in; its webhooks go to the app's real route.

const { t, stripe } = useBillingTestApp({
  mail: true,
  stripe: {
    secretKey: 'sk_test_memento_home_trial',
    webhookSecret: 'whsec_home_trial_secret_0123456789',
  },
});

async function trialAvailable(device: TestDevice): Promise<boolean> {
  const res = await device.get('/api/billing');
  expect(res.statusCode).toBe(200);
  return res.json<TBillingStatus>().trialAvailable;
}

/** Opens Professional's Checkout: the session as the stand-in holds it. */
async function checkoutProfessional(device: TestDevice) {
  const res = await device.post('/api/billing/checkout', { tier: 'professional' });
  expect(res.statusCode).toBe(200);
  const id = new URL(res.json<{ url: string }>().url).pathname.split('/').at(-1)!;
  return stripe.checkoutSessions.get(id)!;
}

async function pay(sessionId: string) {
  const paid = await stripe.completeCheckout(sessionId);
  expect(paid.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
}

const homeOf = async (managerId: number) =>
  (await t.db.select().from(careHomes).where(eq(careHomes.managerId, managerId)))[0]!;
const accountOf = async (id: number) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]!;

describe('the care-home trial', () => {
  it('is the home’s as well: a later manager of that home, on a fresh account, gets none', async () => {
    // The home was set up before any trial (the plan given another way), so it has had none.
    const first = await makeHomeManager(t, 'Rosewood House');
    expect((await homeOf(first.user.id)).trialUsedAt).toBeNull();
    expect(await trialAvailable(first.device)).toBe(true);

    const session = await checkoutProfessional(first.device);
    expect(session.subscription_data?.trial_period_days).toBe('30');
    await pay(session.id);
    const trialStarted = (await accountOf(first.user.id)).trialUsedAt;
    expect(trialStarted).not.toBeNull();
    expect((await homeOf(first.user.id)).trialUsedAt).toEqual(trialStarted);

    // No route hands a home to another account; an operator does it in the database.
    const home = await homeOf(first.user.id);
    const next = await createPrimaryUser(t);
    await t.db.update(careHomes).set({ managerId: next.user.id }).where(eq(careHomes.id, home.id));
    expect((await accountOf(next.user.id)).trialUsedAt).toBeNull();

    // The page says so, and the checkout agrees: Professional, paid from the first day.
    expect(await trialAvailable(next.device)).toBe(false);
    const again = await checkoutProfessional(next.device);
    expect(again.subscription_data?.trial_period_days).toBeUndefined();
    await pay(again.id);
    expect((await homeOf(next.user.id)).trialUsedAt).toEqual(trialStarted);

    // An account managing no home still has its own trial.
    const other = await createPrimaryUser(t);
    expect(await trialAvailable(other.device)).toBe(true);
    expect((await checkoutProfessional(other.device)).subscription_data?.trial_period_days).toBe(
      '30',
    );
  });

  it('a home set up during its manager’s trial has had the trial', async () => {
    const manager = await createPrimaryUser(t);
    await pay((await checkoutProfessional(manager.device)).id);
    const saved = await manager.device.request({
      method: 'PUT',
      url: '/api/care-home',
      payload: { name: 'Birch Court' },
    });
    expect(saved.statusCode).toBe(200);
    const trialStarted = (await accountOf(manager.user.id)).trialUsedAt;
    expect(trialStarted).not.toBeNull();
    expect((await homeOf(manager.user.id)).trialUsedAt).toEqual(trialStarted);
    expect(await trialAvailable(manager.device)).toBe(false);
  });
});
