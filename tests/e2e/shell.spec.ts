import {
  UUID_PATTERN,
  cookieBanner,
  cookieDialog,
  expect,
  openApp,
  readDeviceId,
  registerUser,
  test,
} from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { startOwnServer } from './support/own-server';

test('the first visit gives this browser a device id in local and session storage', async ({
  page,
}) => {
  await page.goto('/auth');
  await expect.poll(() => readDeviceId(page)).toMatch(UUID_PATTERN);
  const deviceId = await readDeviceId(page);
  expect(await readDeviceId(page, 'session')).toBe(deviceId);

  // The same identity survives a reload.
  await page.reload();
  await expect(cookieBanner(page)).toBeVisible();
  expect(await readDeviceId(page)).toBe(deviceId);
  expect(await readDeviceId(page, 'session')).toBe(deviceId);
});

test('opened by another name than its own, the page says where Memento lives', async ({
  page,
  baseURL,
}, testInfo) => {
  // The tests' server is set up as localhost; 127.0.0.1 reaches the same server by another name.
  const otherName = new URL(baseURL!);
  otherName.hostname = '127.0.0.1';
  await page.goto(new URL('/auth', otherName).toString());
  await expect(page.getByRole('heading', { name: 'Memento is at another address' })).toBeVisible();
  await expect(
    page.getByText(`This Memento is set up to be opened at ${new URL(baseURL!).origin}.`),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh Page' })).toHaveCount(0);
  await expectNoSeriousViolations(page, testInfo, 'another address');
});

// Decisions 030 and 045: a visitor's first page arrives rendered and the app adopts the very
// elements on screen, in small steps. Drawn again, it would flash and cost a phone the time the
// rendering saved.
test('the rendered first pages are taken over as they are, never drawn again', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  // Marks the heading the HTML brought, before any script of the app has run.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const heading = document.querySelector('#root h1') as
        (Element & { fromHtml?: boolean }) | null;
      if (heading) heading.fromHtml = true;
    });
  });
  for (const [address, heading] of [
    ['/', 'Sign In'],
    ['/auth', 'Sign In'],
    ['/features', 'Features & Pricing'],
  ] as const) {
    await page.goto(address);
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    const isAdopted = await page.evaluate(
      () =>
        (document.querySelector('#root h1') as { fromHtml?: boolean } | null)?.fromHtml === true,
    );
    expect(isAdopted, `${address}: the heading on screen is the one the HTML brought`).toBe(true);
  }
  expect(warnings.filter((text) => /redrawn|could not start|hydrat/i.test(text))).toEqual([]);
});

test('when the app’s code cannot be fetched, the page says so and what to do', async ({ page }) => {
  // A connection that drops after the page came: the app's own code never arrives.
  await page.route(/\/assets\/app-[^/]+\.js$/, (route) => route.abort('internetdisconnected'));
  await page.goto('/auth');
  await expect(page.getByRole('alert')).toHaveText(
    'Memento could not load. Please refresh the page; if that does not help, clear your browser’s cache or open Memento in a new tab.',
  );
  // The rendered page stays readable and is no longer held still.
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
});

test('a page asked for while the server restarts waits on Memento and opens once it is back', async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const server = await startOwnServer();
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await openApp(page, '/features');
    await expect(page.getByRole('heading', { level: 1, name: 'Features & Pricing' })).toBeVisible();
    await server.whileStopped(async () => {
      // The FAQ page's code is fetched when it is first asked for, and cannot arrive now.
      await page.getByRole('link', { name: 'FAQ', exact: true }).click();
      await expect(
        page.getByRole('heading', { level: 1, name: 'Memento will be back in a moment' }),
      ).toBeVisible();
      for (const [size, viewport] of [
        ['phone', { width: 390, height: 844 }],
        ['laptop', { width: 1280, height: 800 }],
      ] as const) {
        await page.setViewportSize(viewport);
        await expectNoSeriousViolations(page, testInfo, `waiting for the server (${size})`);
      }
      // Still Memento's page, not the browser's own error page.
      expect(page.url()).toBe(`${server.url}/faq`);
    });
    // Back without anyone pressing anything.
    await expect(
      page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
    ).toBeVisible({ timeout: 30_000 });
    expect(page.url()).toBe(`${server.url}/faq`);
    await context.close();
  } finally {
    await server.stop();
  }
});

test('a stored device id that is not a UUID is thrown away and replaced', async ({ page }) => {
  await openApp(page, '/auth');
  await page.evaluate(() => {
    localStorage.setItem('deviceId', 'not-a-real-device-id');
    sessionStorage.setItem('deviceId', 'not-a-real-device-id');
  });
  await page.reload();
  await expect.poll(() => readDeviceId(page)).toMatch(UUID_PATTERN);
  expect(await readDeviceId(page, 'session')).toMatch(UUID_PATTERN);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test('the cookie choice is asked once, without covering the page, and remembered', async ({
  page,
}) => {
  await page.goto('/auth');
  const banner = cookieBanner(page);
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('This Memento uses no analytics or tracking cookies.');
  // A banner in the page's flow: no dialog, and the page beneath can be used straight away.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const username = page.getByLabel('Username', { exact: true });
  await username.fill('edith');
  await expect(username).toHaveValue('edith');

  // The full settings are one tap away.
  await banner.getByRole('button', { name: 'Choose Cookies' }).click();
  const dialog = cookieDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('no analytics or tracking cookies');

  const essential = dialog.getByRole('switch', { name: 'Essential' });
  await expect(essential).toBeChecked();
  await expect(essential).toBeDisabled();
  await expect(dialog.getByRole('switch', { name: 'Analytics' })).not.toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Marketing' })).not.toBeChecked();

  await dialog.getByRole('switch', { name: 'Analytics' }).click();
  await expect(dialog.getByRole('switch', { name: 'Analytics' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Save Preferences' }).click();
  await expect(dialog).toBeHidden();

  const stored = await page.evaluate(() =>
    JSON.parse(localStorage.getItem('cookieConsent') ?? 'null'),
  );
  expect(stored).toMatchObject({ essential: true, analytics: true, marketing: false });

  // The page comes rendered with the config in it: once the app has taken it over, the choice has
  // been read, and the banner was never shown.
  await page.reload();
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(banner).toHaveCount(0);
});

test('Essential Only keeps nothing optional', async ({ page }) => {
  await page.goto('/faq');
  // The rendered page takes taps once the app has taken it over (before, it is inert by design).
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await cookieBanner(page).getByRole('button', { name: 'Essential Only' }).click();
  await expect(cookieBanner(page)).toHaveCount(0);
  const stored = await page.evaluate(() =>
    JSON.parse(localStorage.getItem('cookieConsent') ?? 'null'),
  );
  expect(stored).toMatchObject({ essential: true, analytics: false, marketing: false });
});

test('an unknown address shows Page Not Found, and Go Home leads on', async ({ page }) => {
  await openApp(page, '/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go Home' }).click();
  // Home needs an account, so a signed-out visitor is taken on to sign in.
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test('signed out, the dashboard sends visitors to sign in', async ({ page }) => {
  await openApp(page, '/');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
});

test('signed in, the sign-in page sends the user home', async ({ page }) => {
  const user = await registerUser(page);
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${user.firstName}` })).toBeVisible();
});

test('every public page opens on its own title', async ({ page }) => {
  await openApp(page, '/faq');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }),
  ).toBeVisible();
  for (const path of [
    '/about',
    '/about-memento',
    '/support',
    '/features',
    '/marketing',
    '/premium',
    '/import-from-mobile',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu opens from the Open menu button and leads to each page', async ({ page }) => {
    await openApp(page, '/auth');
    // Too narrow for the header's links: they wait behind the menu button.
    await expect(page.getByRole('link', { name: 'Features & Pricing' })).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    for (const name of ['Home', 'Features & Pricing', 'About', 'Counselling & Support', 'FAQ']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'Features & Pricing' }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/\/features$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Features & Pricing' })).toBeVisible();
  });
});
