import { randomInt, randomUUID } from 'node:crypto';
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import type { OwnServer } from './support/own-server';
import { callApi } from './support/page-api';
import { buildFingerprint } from '../../src/web/lib/fingerprint';

export { expect };

export interface TestUser {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

/** A password that passes the policy (12+ characters, upper, lower, digit, symbol). */
export const GOOD_PASSWORD = 'Tulips&Tea-2026';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TestNextOfKin {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  relationship: string;
}

/** A unique next of kin for the onboarding form; nothing is sent anywhere. */
export function makeNextOfKin(overrides: Partial<TestNextOfKin> = {}): TestNextOfKin {
  return {
    firstName: 'Susan',
    lastName: 'Hughes',
    email: `kin-${randomUUID().slice(0, 8)}@example.test`,
    phone: '+44 20 7946 0018',
    relationship: 'Daughter',
    ...overrides,
  };
}

/** The emergency code format: four groups of four from A–Z and 2–9. */
export const EMERGENCY_CODE_PATTERN = /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/;

/** A unique user; nothing is sent anywhere. */
export function makeUser(overrides: Partial<TestUser> = {}): TestUser {
  const username = overrides.username ?? `user-${randomUUID().slice(0, 8)}`;
  return {
    firstName: 'Margaret',
    lastName: 'Hughes',
    email: `${username}@example.test`,
    username,
    password: GOOD_PASSWORD,
    ...overrides,
  };
}

/**
 * Each browser context plays a household of its own: the server trusts X-Forwarded-For in the
 * browser tests, so its per-IP limits (meant for a whole care home) are not spent by one run.
 */
function makeClientAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

async function createDevice(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': makeClientAddress() },
  });
  return context.newPage();
}

/**
 * A page in a fresh browser context on a spec's own server: a device the server has never seen,
 * from a household of its own unless `ip` names one.
 */
export async function pageOn(
  browser: Browser,
  server: Pick<OwnServer, 'url'>,
  options: {
    viewport?: { width: number; height: number };
    ip?: string;
    /** The offline worker, for the specs that test it; blocked otherwise (see the config). */
    serviceWorkers?: 'allow';
  } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.serviceWorkers ? { serviceWorkers: options.serviceWorkers } : {}),
    extraHTTPHeaders: { 'X-Forwarded-For': options.ip ?? makeClientAddress() },
  });
  return context.newPage();
}

/**
 * The toast on screen (the app shows one at a time). Found by its markup rather than its role: while a
 * modal dialog is open, everything outside it, the toast too, is hidden from the accessibility
 * tree.
 */
export const toastMessage = (page: Page, title: string) =>
  page.locator('li[data-state="open"]').filter({ hasText: title });

export const cookieDialog = (page: Page) =>
  page.getByRole('dialog', { name: 'Cookie Preferences' });

/** The first visit's question: a banner in the page's flow, not a dialog. */
export const cookieBanner = (page: Page) =>
  page.getByRole('region', { name: 'Cookies on Memento' });

/** The device id the app keeps in localStorage (null until it has one). */
export function readDeviceId(
  page: Page,
  area: 'local' | 'session' = 'local',
): Promise<string | null> {
  return page.evaluate(
    (storage) => (storage === 'local' ? localStorage : sessionStorage).getItem('deviceId'),
    area,
  );
}

/**
 * Opens a path. On a first visit (no stored cookie choice) the cookie banner asks, and the helper
 * answers 'Accept All', as most people do.
 */
export async function openApp(page: Page, path: string): Promise<void> {
  // The Support page holds the banner back on a first visit, so the choice is made elsewhere.
  const isSupport = path.startsWith('/support');
  await page.goto(isSupport ? '/faq' : path);
  const hasChoice = await page.evaluate(() => localStorage.getItem('cookieConsent') !== null);
  if (!hasChoice) {
    // A click before the prerendered banner is hydrated does nothing yet: click until it goes.
    await expect(async () => {
      const banner = cookieBanner(page);
      if (await banner.isVisible()) {
        await banner.getByRole('button', { name: 'Accept All' }).click({ timeout: 2_000 });
      }
      await expect(banner).toBeHidden({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  }
  if (isSupport) await page.goto(path);
}

/** Fills the registration form and presses 'Create Account'. */
export async function fillRegistration(page: Page, user: TestUser): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  await page.getByLabel('First name', { exact: true }).fill(user.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(user.lastName);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Username', { exact: true }).fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

export const termsDialog = (page: Page) => page.getByRole('dialog', { name: 'Terms of Service' });

/** Ticks the agreement and presses 'Accept and Continue', which sends the registration. */
export async function acceptTerms(page: Page): Promise<void> {
  const terms = termsDialog(page);
  await terms
    .getByRole('checkbox', { name: 'I have read and agree to the Terms of Service' })
    .check();
  await terms.getByRole('button', { name: 'Accept and Continue' }).click();
  await expect(terms).toBeHidden();
}

/** Fills the registration form and accepts the Terms of Service; does not wait for the result. */
export async function submitRegistration(page: Page, user: TestUser): Promise<void> {
  await fillRegistration(page, user);
  await acceptTerms(page);
}

/** Fills the next-of-kin step of the onboarding wizard. */
export async function fillNextOfKin(page: Page, nextOfKin: TestNextOfKin): Promise<void> {
  await page.getByLabel('First name', { exact: true }).fill(nextOfKin.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(nextOfKin.lastName);
  await page.getByLabel('Email', { exact: true }).fill(nextOfKin.email);
  await page.getByLabel('Phone', { exact: true }).fill(nextOfKin.phone);
  await page.getByLabel('Relationship', { exact: true }).fill(nextOfKin.relationship);
}

/** Ticks every box of the current onboarding step. */
export async function tickAllBoxes(page: Page): Promise<void> {
  const boxes = page.getByRole('main').getByRole('checkbox');
  await expect(boxes).toHaveCount(2);
  for (const box of await boxes.all()) await box.check();
}

/**
 * A newly registered primary user is sent to /onboarding. Goes through the four steps as a person
 * would, reads the next of kin's code from the success screen (shown once) and continues to the
 * dashboard.
 */
export async function completeOnboarding(
  page: Page,
  nextOfKin: TestNextOfKin = makeNextOfKin(),
): Promise<{ nextOfKin: TestNextOfKin; code: string }> {
  await expect(page).toHaveURL(/\/onboarding$/);
  const proceed = page.getByRole('button', { name: 'Continue' });

  await expect(page.getByRole('heading', { name: 'Why This Matters' })).toBeVisible();
  await tickAllBoxes(page);
  await proceed.click();

  await expect(page.getByRole('heading', { name: 'Next of Kin Registration' })).toBeVisible();
  await fillNextOfKin(page, nextOfKin);
  await proceed.click();

  await expect(page.getByRole('heading', { name: 'Emergency Access Setup' })).toBeVisible();
  await tickAllBoxes(page);
  await proceed.click();

  await expect(page.getByRole('heading', { name: 'Review & Confirm' })).toBeVisible();
  await page.getByRole('button', { name: 'Complete Setup' }).click();

  const codeCard = page.getByTestId('emergency-code');
  await expect(codeCard).toHaveText(EMERGENCY_CODE_PATTERN);
  const code = (await codeCard.textContent()) ?? '';
  await page.getByRole('button', { name: 'Continue to Memento' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  return { nextOfKin, code };
}

export type RegisteredUser = TestUser & { nextOfKin: TestNextOfKin; emergencyCode: string };

/**
 * What a first visit leaves in this browser before anyone types, without loading the app for it:
 * a device id registered with the server (the app's own request) and stored where the app keeps
 * it, and the cookie choice 'Accept All'; a browser that already has either keeps it. Done from
 * the app's favicon, a document of its address with none of the app's code: loading the whole
 * app for this was a second full page load in every test that needs an account (the dashboard is
 * the first). The tests of a first visit open the app itself.
 */
async function prepareDevice(page: Page): Promise<{ deviceId: string; fingerprint: string }> {
  await page.goto('/favicon.svg');
  // The app's own function, run in the page: Playwright sends its source.
  const fingerprint = await page.evaluate(buildFingerprint);
  const deviceId = await page.evaluate(
    async ({ fingerprint, uuid }) => {
      if (localStorage.getItem('cookieConsent') === null) {
        const acceptAll = { essential: true, analytics: true, marketing: true };
        const timestamp = new Date().toISOString();
        localStorage.setItem('cookieConsent', JSON.stringify({ ...acceptAll, timestamp }));
      }
      const stored = localStorage.getItem('deviceId');
      if (stored && new RegExp(uuid, 'i').test(stored)) return stored;
      const response = await fetch('/api/device/register', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ fingerprint }),
      });
      if (!response.ok) throw new Error(`device registration: ${response.status}`);
      const { deviceId } = (await response.json()) as { deviceId: string };
      localStorage.setItem('deviceId', deviceId);
      sessionStorage.setItem('deviceId', deviceId);
      return deviceId;
    },
    { fingerprint, uuid: UUID_PATTERN.source },
  );
  return { deviceId, fingerprint };
}

/**
 * A unique user as registration and onboarding leave them (registered, next of kin saved and
 * emailed their code, setup completed), made with the requests the app itself sends, from inside
 * the page (its device id, its cookie); the app itself is not opened yet. Set-up for tests about
 * what comes after: clicking through the form and the four onboarding steps took most of such a
 * test's time. The tests of registration and onboarding themselves click through them
 * (`submitRegistration`, `completeOnboarding`).
 */
async function createAccount(page: Page, overrides: Partial<TestUser>): Promise<RegisteredUser> {
  const user = makeUser(overrides);
  const nextOfKin = makeNextOfKin();
  const { deviceId, fingerprint } = await prepareDevice(page);
  await callApi(page, 'POST', '/api/register', {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    username: user.username,
    password: user.password,
    category: 'primary',
    createdById: null,
    tosAccepted: true,
    tosAcceptedAt: new Date().toISOString(),
    deviceId,
    fingerprint,
  });
  const saved = await callApi<{ emergencyAccessCode: string }>(page, 'POST', '/api/recipients', {
    firstName: nextOfKin.firstName,
    lastName: nextOfKin.lastName,
    email: nextOfKin.email,
    phoneNumber: nextOfKin.phone,
    relationship: nextOfKin.relationship,
    category: 'next_of_kin',
  });
  expect(saved.emergencyAccessCode).toMatch(EMERGENCY_CODE_PATTERN);
  await callApi(page, 'POST', '/api/user/complete-onboarding', {
    onboardingCompletedAt: new Date().toISOString(),
  });
  return { ...user, nextOfKin, emergencyCode: saved.emergencyAccessCode };
}

/** `createAccount`, then the dashboard opened on it. */
export async function registerUser(
  page: Page,
  overrides: Partial<TestUser> = {},
): Promise<RegisteredUser> {
  const user = await createAccount(page, overrides);
  await page.goto('/');
  // A first page load on a server that has just started, beside other tests, can take a while.
  await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible({
    timeout: 30_000,
  });
  return user;
}

/**
 * Reloads a page that was open while its server restarted. A page chunk that failed meanwhile
 * makes the app reload itself once the server answers, and Chromium refuses a reload asked for
 * while that one hands the page over ('Not attached to an active page', or an aborted
 * navigation): then the page is let finish its own reload and asked again.
 */
export async function reloadAfterRestart(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.reload();
      return;
    } catch (error) {
      const isHandover = /Not attached to an active page|ERR_ABORTED|interrupted/.test(
        String(error),
      );
      if (!isHandover || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
      await page.waitForLoadState('load');
    }
  }
}

/**
 * A user as `registerUser` leaves them, on the Premium plan: the plan is written straight into the
 * database of the test's own server (set-up, not a step of the test) before the app is opened (on
 * the embedded database the server restarts for it), then the dashboard shows the cloud library.
 */
export async function registerPremiumUser(
  page: Page,
  server: Pick<OwnServer, 'setTier'>,
  overrides: Partial<TestUser> = {},
): Promise<RegisteredUser> {
  const user = await createAccount(page, overrides);
  await server.setTier(user.username, 'premium');
  await page.goto('/');
  // The first page load of a server that has just started can take a while.
  await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: 'Your messages in the cloud' })).toBeVisible();
  return user;
}

/** Fills the sign-in form and submits it; does not wait for the result. */
export async function submitSignIn(
  page: Page,
  credentials: Pick<TestUser, 'username' | 'password'>,
) {
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await page.getByLabel('Username', { exact: true }).fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** The dashboard's own Sign Out button (the header has one too). */
export async function signOutFromDashboard(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
}

/**
 * For a test that waits on real time for a minute or more (a recording's plan limit, an upload
 * through a server crash): playwright.config.ts queues these first, so they run beside the rest
 * rather than after it.
 */
export const LONG_WAIT = { tag: '@long-wait' };

/**
 * For a test whose outcome can depend on the database engine (playwright.config.ts): CI runs it
 * on PostgreSQL as well as on PGlite.
 */
export const ENGINE = { tag: '@engine' };

/** Both: a long wait that depends on the engine. */
export const LONG_WAIT_ON_ENGINE = { tag: ['@long-wait', '@engine'] };

interface Fixtures {
  /** Opens a page in a brand-new browser context: a device the server has never seen. */
  newDevice: () => Promise<Page>;
  /** Closes the browser contexts an earlier spec file of this worker left open. */
  closeEarlierFiles: void;
}

/** The spec file that opened each browser context. */
const openedBy = new WeakMap<BrowserContext, string>();

function fileRunningNow(): string | undefined {
  try {
    return base.info().file;
  } catch {
    return undefined;
  }
}

export const test = base.extend<Fixtures>({
  // Playwright reads the fixture's dependencies from the destructuring pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, use) => {
    await use({ 'X-Forwarded-For': makeClientAddress() });
  },
  // Serial specs open their devices with `browser.newContext` and keep them for the whole file;
  // the worker then runs other files with those pages still polling the server. Each context is
  // marked with the file that opened it, and the next file's first test closes the earlier ones.
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        const file = fileRunningNow();
        if (file) openedBy.set(context, file);
        return context;
      };
      await use(browser);
    },
    { scope: 'worker' },
  ],
  closeEarlierFiles: [
    async ({ browser }, use, testInfo) => {
      const earlier = browser.contexts().filter((context) => {
        const file = openedBy.get(context);
        return file !== undefined && file !== testInfo.file;
      });
      await Promise.all(earlier.map((context) => context.close().catch(() => undefined)));
      await use();
    },
    { auto: true },
  ],
  newDevice: async ({ browser, baseURL }, use) => {
    const pages: Page[] = [];
    await use(async () => {
      const page = await createDevice(browser, baseURL);
      pages.push(page);
      return page;
    });
    await Promise.all(pages.map((page) => page.context().close()));
  },
});
