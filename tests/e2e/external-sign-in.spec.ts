import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { startTestIdentityProvider } from '../setup/oidc-idp.mjs';
import { expectNoSeriousViolations } from './support/axe';
import {
  acceptTerms,
  completeOnboarding,
  expect,
  GOOD_PASSWORD,
  LONG_WAIT,
  openApp,
  registerUser,
  signOutFromDashboard,
  test as base,
} from './fixtures';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { readCode, waitForMail } from './support/outbox';
import { findFreePort, startOwnServer, type OwnServer } from './support/own-server';

// A real OpenID Connect provider plays Google, Apple and 'Sunrise Care Login' (OIDC_NAME); its
// sign-in page asks for an email and name. Each worker runs it beside a server of its own with
// every provider setting the README lists pointing at it (the suite's shared server has none, so
// the rendered first screens are what the other tests meet).
const test = base.extend<object, { providerServer: OwnServer }>({
  providerServer: [
    // Playwright reads the fixture's dependencies from the destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const port = await findFreePort();
      const url = `http://localhost:${port}`;
      const identityProvider = await startTestIdentityProvider({
        appUrls: [url],
        issuerHost: 'localhost',
      });
      const server = await startOwnServer({
        port,
        env: { ...identityProvider.env, ADMIN_EMAIL: E2E_ADMIN_EMAIL },
      });
      await use(server);
      await server.stop();
      await identityProvider.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ providerServer }, use) => {
    await use(providerServer.url);
  },
});

const BUTTONS = ['Continue with Google', 'Continue with Apple', 'Continue with Sunrise Care Login'];

function makeEmail(name: string) {
  return `${name}-${randomUUID().slice(0, 8)}@example.test`;
}

/** At the provider's own page: signs in as this person, or cancels. */
async function answerAtProvider(
  page: Page,
  provider: string,
  person: { email: string; firstName?: string; lastName?: string } | 'cancel',
) {
  await expect(page.getByRole('heading', { name: `Sign in to ${provider}` })).toBeVisible();
  if (person === 'cancel') {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByLabel('First name').fill(person.firstName ?? '');
  await page.getByLabel('Last name').fill(person.lastName ?? '');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new account through a provider: terms, the first password, then onboarding. */
async function signUpWith(page: Page, button: string, provider: string, email: string) {
  await openApp(page, '/auth?mode=register');
  await page.getByRole('button', { name: button }).click();
  await answerAtProvider(page, provider, { email, firstName: 'Dorothy', lastName: 'Vaughan' });
  await expect(page.getByRole('heading', { name: 'Welcome, Dorothy' })).toBeVisible();
  await expect(page.getByText(`You signed in with ${provider} as ${email}`)).toBeVisible();
  await page.getByRole('button', { name: 'Create My Account' }).click();
  await acceptTerms(page);
  await expect(page).toHaveURL(/\/setup-password$/);
  await page.getByLabel('New Password', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByLabel('Confirm Password', { exact: true }).fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await completeOnboarding(page);
  await expect(page.getByRole('heading', { name: 'Welcome, Dorothy' })).toBeVisible();
}

// One provider and one server of their own for the whole file: its tests run in order in one
// worker rather than spread over all of them (each worker started its own pair, and as this file's
// fixtures differ from the others', Playwright queued its tests after every other file's, at the
// end of the run). Queued with the long waits, so the file runs beside the rest.
test.describe.configure({ mode: 'default' });

test.describe('signing in with a provider', LONG_WAIT, () => {
  test('the sign-in page offers each configured provider, calm on a phone and a laptop, and passes axe', async ({
    page,
  }, testInfo) => {
    for (const [name, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['laptop', { width: 1366, height: 900 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await openApp(page, '/auth');
      for (const label of BUTTONS) {
        const button = page.getByRole('button', { name: label });
        await expect(button).toBeVisible();
        const box = await button.boundingBox();
        expect(box!.height).toBeGreaterThanOrEqual(44);
        expect(box!.width).toBeGreaterThanOrEqual(44);
        const fontSize = await button.evaluate((node) => getComputedStyle(node).fontSize);
        expect(parseFloat(fontSize)).toBeGreaterThanOrEqual(18);
      }
      await expect(page.getByText('or with your username and password')).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `/auth with providers (${name})`);
      await page.screenshot({
        path: testInfo.outputPath(`auth-providers-${name}.png`),
        fullPage: true,
      });
    }
  });

  test('a new person signs up with Google, accepts the terms, sets up and sees it in the security log', async ({
    page,
  }) => {
    const email = makeEmail('dorothy');
    await signUpWith(page, 'Continue with Google', 'Google', email);

    await page.getByRole('link', { name: 'View Security Audit Logs' }).click();
    const created = page.getByRole('row').filter({ hasText: 'Account created' });
    await expect(created.first()).toContainText('with Google');

    // Signing out and back in with Google on the same device needs nothing more.
    await page.goto('/');
    await signOutFromDashboard(page);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // The provider remembers this browser, as Google does: straight back to Memento.
    await expect(page.getByRole('heading', { name: 'Welcome, Dorothy' })).toBeVisible();
  });

  test('Apple answers with a form POST and gives the name once', async ({ page }) => {
    const email = makeEmail('apple');
    await signUpWith(page, 'Continue with Apple', 'Apple', email);
    await expect(page.getByText(email)).toBeVisible();
  });

  test('the same provider account on another device meets Device Access Denied', async ({
    page,
    newDevice,
  }) => {
    const email = makeEmail('elsie');
    await signUpWith(page, 'Continue with Sunrise Care Login', 'Sunrise Care Login', email);

    const other = await newDevice();
    await openApp(other, '/auth');
    await other.getByRole('button', { name: 'Continue with Sunrise Care Login' }).click();
    await answerAtProvider(other, 'Sunrise Care Login', { email });
    const denied = other.getByRole('alert', { name: 'Device Access Denied' });
    await expect(denied).toBeVisible();
    await expect(denied).toContainText(
      'This account can only be used on its primary device. Please sign in on the device where the account was created.',
    );
    await expect(other).toHaveURL(/\/auth/);
    await expect(other.getByRole('heading', { name: 'Welcome, Dorothy' })).toBeHidden();
  });

  test('a cancelled sign-in comes back to /auth with a plain message', async ({ page }) => {
    await openApp(page, '/auth');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await answerAtProvider(page, 'Google', 'cancel');
    await expect(page).toHaveURL(/\/auth\?signInError=cancelled/);
    const notice = page.getByRole('alert', { name: 'Not signed in' });
    await expect(notice).toContainText(
      'Sign-in with Google was cancelled, so you are not signed in. You can try again.',
    );
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
  });

  test('a provider email that matches an account asks for its password once, then links; unlinking needs another way in', async ({
    page,
  }) => {
    const user = await registerUser(page);
    await signOutFromDashboard(page);

    await page.getByRole('button', { name: 'Continue with Sunrise Care Login' }).click();
    await answerAtProvider(page, 'Sunrise Care Login', { email: user.email });
    await expect(page.getByRole('heading', { name: 'You already have an account' })).toBeVisible();
    await expect(page.getByText(`Your username is ${user.username}`)).toBeVisible();

    const password = page.getByLabel('Your Memento password');
    await password.fill('Not-the-right-one-1');
    await page.getByRole('button', { name: 'Link Sunrise Care Login and Sign In' }).click();
    await expect(page.getByText('Invalid username or password')).toBeVisible();

    await password.fill(user.password);
    await page.getByRole('button', { name: 'Link Sunrise Care Login and Sign In' }).click();
    await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();

    await page.getByRole('link', { name: 'Sign-in Methods' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Sunrise Care Login' });
    await expect(row).toContainText(`Linked as ${user.email}`);
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove Sunrise Care Login' }).click();
    await expect(row).toContainText('Not linked');

    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByRole('link', { name: 'View Security Audit Logs' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Sign-in provider removed' })).toHaveCount(
      1,
    );
    await expect(page.getByRole('row').filter({ hasText: 'Sign-in provider linked' })).toHaveCount(
      1,
    );
  });

  test('a provider email that matches an account can be proven with an emailed code instead of the password', async ({
    page,
    providerServer,
  }, testInfo) => {
    const user = await registerUser(page);
    await signOutFromDashboard(page);

    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await answerAtProvider(page, 'Google', { email: user.email });
    await expect(page.getByRole('heading', { name: 'You already have an account' })).toBeVisible();
    const ask = page.getByRole('button', { name: 'Email me a code' });
    await expect(page.getByText('Never set a password, or forgotten it?')).toBeVisible();
    const box = await ask.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(
      parseFloat(await ask.evaluate((node) => getComputedStyle(node).fontSize)),
    ).toBeGreaterThanOrEqual(18);
    await ask.click();
    await expect(page.getByRole('status')).toContainText(
      /We sent a code to .+\. It works for 30 minutes\./,
    );

    await expectNoSeriousViolations(page, testInfo, 'linking with an emailed code');
    await page.screenshot({ path: testInfo.outputPath('link-by-code.png'), fullPage: true });

    const mail = await waitForMail(user.email, /code to sign in with Google/, {
      dataDir: providerServer.dataDir,
    });
    const codeField = page.getByLabel('Code from the email');
    await codeField.fill('ABCD-EFGH');
    await page.getByRole('button', { name: 'Link Google and Sign In' }).click();
    await expect(
      page.getByText(
        'This code is not right or has expired. Please check it, or ask for a new one.',
      ),
    ).toBeVisible();

    await codeField.fill(readCode(mail));
    await page.getByRole('button', { name: 'Link Google and Sign In' }).click();
    await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
    await page.getByRole('link', { name: 'Sign-in Methods' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: 'Google' })).toContainText(
      `Linked as ${user.email}`,
    );
  });
});
