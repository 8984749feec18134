import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { TBillingStatus } from '../../src/shared/schemas/billing';
import { startStripeStandIn, type StripeStandIn } from '../setup/stripe-stand-in.mjs';
import { expectNoSeriousViolations } from './support/axe';
import { ENGINE, LONG_WAIT_ON_ENGINE, expect, registerUser, test as base } from './fixtures';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { findFreePort, startOwnServer, type OwnServer } from './support/own-server';
import { callApi } from './support/page-api';

// Billing switched on, with the Stripe stand-in (tests/setup/stripe-stand-in.mjs) playing Stripe:
// its checkout and portal pages are what a person clicks through, and its webhooks, signed as
// Stripe signs them, reach the server's real webhook route. The suite's shared server has no
// Stripe, so every other test keeps seeing 'Coming Soon'.
const WEBHOOK_SECRET = `whsec_e2e_${randomUUID().replaceAll('-', '')}`;

interface BillingInstallation {
  server: OwnServer;
  standIn: StripeStandIn;
}

const test = base.extend<object, { billing: BillingInstallation }>({
  billing: [
    // Playwright reads the fixture's dependencies from the destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const port = await findFreePort();
      const url = `http://localhost:${port}`;
      const standIn = await startStripeStandIn({
        webhookUrl: `${url}/api/billing/webhook`,
        webhookSecret: WEBHOOK_SECRET,
      });
      const server = await startOwnServer({
        port,
        env: {
          ADMIN_EMAIL: E2E_ADMIN_EMAIL,
          STRIPE_SECRET_KEY: 'sk_test_memento_e2e',
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          STRIPE_PRICE_STANDARD: 'price_standard_e2e',
          STRIPE_PRICE_PREMIUM: 'price_premium_e2e',
          STRIPE_PRICE_PROFESSIONAL: 'price_professional_e2e',
          STRIPE_API_BASE: standIn.apiBase,
        },
      });
      await use({ server, standIn });
      await server.stop();
      await standIn.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ billing }, use) => {
    await use(billing.server.url);
  },
});

const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long' });

const plan = (page: Page, name: string) =>
  page.getByRole('main').getByRole('listitem', { name, exact: true });

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1280, height: 800 },
} as const;

/** Scans the page as it stands on a phone and on a laptop, and leaves it at the laptop's size. */
async function scan(page: Page, label: string) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, test.info(), `${label} (${name})`);
  }
}

// Among the longest tests of the run (a server of its own, two checkouts, ten scans): queued
// with the long waits, so it runs beside the others rather than at the end.
test(
  'a free user at the recipient limit leaves checkout once, pays, adds a recipient, cancels and sees the end date, then keeps every recipient on the free plan',
  LONG_WAIT_ON_ENGINE,
  async ({ page, billing: { standIn } }) => {
    // An account, two checkouts' worth of pages at the stand-in, and four accessibility scans.
    test.slow();
    await registerUser(page);
    // The free plan's one recipient besides the next of kin, added as the app adds one.
    await callApi(page, 'POST', '/api/recipients', {
      firstName: 'Tom',
      lastName: 'Hughes',
      email: `tom-${randomUUID().slice(0, 8)}@example.test`,
      category: 'family',
    });

    await page.goto('/recipients');
    await expect(page.getByRole('complementary', { name: 'Memento plans' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    const upgrade = page.getByRole('dialog', { name: 'Upgrade to add more recipients' });
    await upgrade.getByRole('link', { name: 'Choose Premium' }).click();

    await expect(page).toHaveURL(/\/premium$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Upgrade to Premium' })).toBeVisible();
    await expect(plan(page, 'Community Edition')).toContainText('Your current plan');
    await expect(plan(page, 'Premium')).toContainText('£9.99 a month');
    await expect(
      plan(page, 'Professional').getByRole('button', { name: 'Start 30-day free trial' }),
    ).toBeVisible();
    await scan(page, '/premium with billing, free');

    // Leaving the checkout without paying changes nothing, and the page says so.
    await plan(page, 'Standard').getByRole('button', { name: 'Choose Standard' }).click();
    await expect(page.getByRole('heading', { name: /^Subscribe to .*Standard$/ })).toBeVisible();
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/premium\?checkout=cancelled$/);
    await expect(page.getByRole('main').getByRole('status')).toContainText('Nothing was charged.');
    await expect(plan(page, 'Community Edition')).toContainText('Your current plan');

    await plan(page, 'Premium').getByRole('button', { name: 'Choose Premium' }).click();
    // Stripe's hosted checkout, played by the stand-in. Stripe's webhooks often arrive after the
    // person is back: here the payment's webhooks wait until the page has said it is confirming.
    await expect(page.getByRole('heading', { name: /^Subscribe to .*Premium$/ })).toBeVisible();
    let paidSession = '';
    await page.route(`${standIn.apiBase}/checkout/*/pay`, async (route) => {
      paidSession = new URL(route.request().url()).pathname.split('/')[2] ?? '';
      const session = standIn.checkoutSessions.get(paidSession);
      await route.fulfill({ status: 303, headers: { location: session?.success_url ?? '/' } });
    });
    await page.getByRole('button', { name: 'Pay and subscribe' }).click();

    await expect(page).toHaveURL(/\/premium\?checkout=success$/);
    const notice = page.getByRole('main').getByRole('status');
    await expect(notice).toContainText('Confirming your payment…');
    await expect(notice).toContainText('You do not need to do anything.');
    // No second checkout while the first is being confirmed.
    await expect(plan(page, 'Premium').getByRole('button')).toHaveCount(0);
    await scan(page, '/premium confirming a payment');
    await standIn.completeCheckout(paidSession);
    await expect(notice).toContainText("You're on Premium now");
    await expect(page).toHaveURL(/\/premium$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your plan' })).toBeVisible();
    await expect(plan(page, 'Premium')).toContainText('Your current plan');
    const billing = await callApi<TBillingStatus>(page, 'GET', '/api/billing');
    expect(billing.currentPeriodEnd).not.toBeNull();
    const periodEnd = longDate.format(new Date(billing.currentPeriodEnd!));
    await expect(page.getByText(`Your Premium plan renews on ${periodEnd}.`)).toBeVisible();
    await scan(page, '/premium subscribed');

    // Premium has no recipient limit, and the plans banner is gone.
    await page.goto('/recipients');
    await expect(page.getByText('Your plan has no limit on recipients.')).toBeVisible();
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    const add = page.getByRole('dialog', { name: 'Add Recipient' });
    await add.getByLabel('First name').fill('Ada');
    await add.getByLabel('Last name').fill('Lovelace');
    await add.getByLabel('Email').fill(`ada-${randomUUID().slice(0, 8)}@example.test`);
    await add.getByRole('radio', { name: /^Friend/ }).check();
    await add.getByRole('button', { name: 'Add Recipient' }).click();
    await page
      .getByRole('dialog', { name: 'Share Ada’s access code' })
      .getByRole('button', { name: 'Done' })
      .click();
    await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Memento plans' })).toHaveCount(0);

    // Cancelling in the portal keeps the plan to the end of the period, and says so.
    await page.goto('/premium');
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    await expect(page).toHaveURL(/\/premium$/);
    await expect(
      page.getByText(`Your plan ends on ${periodEnd}. You keep everything until then.`),
    ).toBeVisible();
    await expect(
      page.getByText(`On ${periodEnd} your account moves to the free Community Edition:`),
    ).toBeVisible();
    await expect(plan(page, 'Premium')).toContainText('Your current plan');
    await scan(page, '/premium cancelling');

    // The dashboard says it too, in the page's flow.
    await page.goto('/');
    const ending = page.getByRole('region', { name: 'Your Premium plan is ending' });
    await expect(ending).toContainText(`Your plan ends on ${periodEnd}.`);
    await scan(page, 'the dashboard with an ending plan');
    await ending.getByRole('link', { name: 'See your plan' }).click();
    await expect(page).toHaveURL(/\/premium$/);

    // The period runs out: the account is on the free plan, and nobody it added is lost.
    const subscription = [...standIn.subscriptions.values()].find(
      (candidate) => candidate.status !== 'canceled',
    );
    await standIn.sendSubscriptionEnded(subscription!.id);
    await page.goto('/recipients');
    await expect(
      page.getByText(
        'Your plan includes your next of kin and 1 more recipient. You have 2: every one of them stays, with their messages.',
        { exact: false },
      ),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Memento plans' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Recipient' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Upgrade to add more recipients' }),
    ).toBeVisible();
  },
);

test(
  'a plan paid from another window: the plans page says so in words and then offers Manage billing',
  ENGINE,
  async ({ page, billing: { standIn } }) => {
    await registerUser(page);
    await page.goto('/premium');
    const standard = plan(page, 'Standard');
    await expect(standard.getByRole('button', { name: 'Choose Standard' })).toBeVisible();

    // Another window chose Premium and paid; Stripe's events have not reached Memento yet.
    const { url } = await callApi<{ url: string }>(page, 'POST', '/api/billing/checkout', {
      tier: 'premium',
    });
    const paid = await standIn.completeCheckout(new URL(url).pathname.split('/').at(-1)!, {
      order: [],
    });
    await standard.getByRole('button', { name: 'Choose Standard' }).click();
    await expect(standard.getByRole('alert')).toHaveText(
      'Your payment has gone through. Your plan will show here in a moment: please refresh the page. To change plan, use ‘Manage billing’.',
    );

    // The events arrive; this page has not heard yet, so a second click is refused in words too.
    await standIn.sendEvent('customer.subscription.created', paid.subscription!);
    await standard.getByRole('button', { name: 'Choose Standard' }).click();
    await expect(standard.getByRole('alert')).toHaveText(
      'You already have a plan. Please use ‘Manage billing’ to change or cancel it.',
    );
    // The page catches up: the plan is shown with the way to change it.
    await expect(plan(page, 'Premium')).toContainText('Your current plan');
    await expect(page.getByRole('button', { name: 'Manage billing' })).toBeVisible();
    await scan(page, '/premium refusing a second plan');
    await page.screenshot({ path: 'test-results/billing-second-plan-refused.png', fullPage: true });
  },
);
