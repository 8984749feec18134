import type { BrowserContext, Page } from '@playwright/test';
import { expect, registerUser, signOutFromDashboard, test, toastMessage } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { callApi } from './support/page-api';
import { recordFor, savedVideoIds } from './support/recording';

// The offline app is the service worker's work: these tests let it install, as a browser does.
test.use({ serviceWorkers: 'allow' });

const OFFLINE_LINE = 'You are offline. Your videos on this device are safe.';
const NEEDS_CONNECTION =
  'You are offline. This needs a connection; your videos on this device are safe.';

/**
 * Waits until the service worker has precached the app and controls the page. The page that
 * registered it is not controlled; the next page it opens is.
 */
async function openControlledBySw(page: Page, path: string) {
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state === 'activated';
  });
  await expect
    .poll(async () => {
      await page.goto(path);
      return page.evaluate(() => navigator.serviceWorker.controller !== null);
    })
    .toBe(true);
}

/** Every POST of a video's index row that reaches the server from now on (not those refused offline). */
function countIndexRows(context: BrowserContext) {
  const posts: string[] = [];
  context.on('response', (response) => {
    const request = response.request();
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/videos') {
      posts.push(request.postDataJSON()?.id as string);
    }
  });
  return posts;
}

test('installable: a valid manifest, its icons, and a service worker controlling the page', async ({
  page,
}) => {
  await page.goto('/auth');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    'href',
    '/manifest.webmanifest',
  );
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
    'href',
    '/icons/apple-touch-icon.png',
  );
  const response = await page.request.get('/manifest.webmanifest');
  expect(response.headers()['content-type']).toContain('application/manifest+json');
  expect(response.headers()['cache-control']).toContain('max-age=0');
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({
    name: 'Memento',
    short_name: 'Memento',
    start_url: '/',
    display: 'standalone',
  });
  expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of [...manifest.icons.map((i) => i.src), '/icons/apple-touch-icon.png']) {
    const iconResponse = await page.request.get(icon);
    expect(iconResponse.headers()['content-type'], icon).toBe('image/png');
  }
  await openControlledBySw(page, '/auth');
  // The worker caches the app's own files only.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        urls.push(new URL(request.url).pathname);
      }
    }
    return urls;
  });
  expect(cached).toContain('/index.html');
  expect(cached.some((url) => url.startsWith('/assets/') && url.includes('.js'))).toBe(true);
  expect(cached.filter((url) => url.startsWith('/api/') || url.startsWith('/media/'))).toEqual([]);
});

test('offline, the dashboard opens, a message is recorded and saved, and its index row arrives once when the connection returns', async ({
  page,
  context,
}, testInfo) => {
  test.slow();
  const owner = await registerUser(page, { firstName: 'Olive' });
  const kin = `${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName}`;
  // The recorder has been opened here before: its recipients are kept for offline use.
  await openControlledBySw(page, '/record');
  await expect(page.getByLabel('Recipient', { exact: true }).locator('option')).toHaveCount(2);
  await page.goto('/');
  await expect(page.getByTestId('video-counts')).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Olive' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_LINE })).toBeVisible();

  // A screen that needs the server says so, rather than failing.
  await page.goto('/recipients');
  await expect(page.getByRole('heading', { name: NEEDS_CONNECTION })).toBeVisible();
  await expectNoSeriousViolations(page, testInfo, 'a server-only screen offline');

  const posts = countIndexRows(context);
  await page.goto('/record');
  await page.getByLabel('Message title').fill('Written with no network');
  await page.getByLabel('Recipient', { exact: true }).selectOption({ label: kin });
  await recordFor(page, 2);
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toContainText('when you are back online');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('offline-waiting')).toHaveText('1 recording waits to be sent');
  await expectNoSeriousViolations(page, testInfo, 'the dashboard offline');
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 1 video · In your account’s index: 0 videos',
  );
  const [videoId] = await savedVideoIds(page);

  // Back online: the row goes out by itself, once, and the counts agree again.
  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_LINE })).toBeHidden();
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 1 video · In your account’s index: 1 video',
  );
  const index = await callApi<{ id: string }[]>(page, 'GET', '/api/videos');
  expect(index.map((video) => video.id)).toEqual([videoId]);
  expect(posts).toEqual([videoId]);

  // Signing out forgets the cached user and the lists kept for offline use.
  await page.goto('/');
  await signOutFromDashboard(page);
  const kept = await page.evaluate(() =>
    Object.keys(localStorage).filter(
      (key) => key === 'currentUser' || key.startsWith('memento:offline:'),
    ),
  );
  expect(kept).toEqual([]);
});

test('a new version waits for the person: a prompt, and Reload hands over to it', async ({
  page,
}, testInfo) => {
  await page.goto('/features');
  await openControlledBySw(page, '/features');
  // The app registers its own worker once the page has settled; a version that arrived before
  // that would be registered over (its address is the newer one). The browser's own register is
  // watched, so the test goes on once the app's call has been answered.
  await page.addInitScript(() => {
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
      const registered = register.apply(this, args);
      void registered.then(() => {
        (window as Window & { registered?: boolean }).registered = true;
      });
      return registered;
    };
  });
  await page.goto('/features');
  await page.waitForFunction(() => (window as Window & { registered?: boolean }).registered);
  // A worker script at another address is a new version to the browser, as a changed sw.js is.
  await page.evaluate(() => navigator.serviceWorker.register('/sw.js?next=1', { scope: '/' }));
  const prompt = page.getByRole('region', { name: 'A new version of Memento is ready' });
  await expect(prompt).toBeVisible();
  await expectNoSeriousViolations(page, testInfo, 'the update prompt');
  // Nothing reloads by itself: the page is the same one until the person chooses.
  await page.evaluate(() => {
    (window as Window & { beforeUpdate?: boolean }).beforeUpdate = true;
  });
  const reloaded = page.waitForEvent('load', { timeout: 30_000 });
  await prompt.getByRole('button', { name: 'Reload' }).click();
  // Handing over ends in a reload: everything below is read from the page it loads.
  await reloaded;
  await expect
    .poll(
      () =>
        // The page reloads meanwhile: a read that the reload cuts short counts as not yet.
        page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '').catch(() => ''),
      // Handing over is a reload and a worker's activation: on a busy machine, seconds each.
      { timeout: 30_000 },
    )
    .toContain('/sw.js?next=1');
  expect(
    await page.evaluate(() => (window as Window & { beforeUpdate?: boolean }).beforeUpdate),
  ).toBeUndefined();
  await expect(prompt).toBeHidden();
});

test.describe('on an iPad', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    viewport: { width: 820, height: 1180 },
    hasTouch: true,
  });

  test("a short 'Add to Home Screen' hint, once, that the person can put away", async ({
    page,
  }, testInfo) => {
    await registerUser(page);
    const offer = page.getByRole('region', { name: 'Put Memento on your home screen' });
    await expect(offer).toContainText("Tap the Share button, then 'Add to Home Screen'.");
    await expectNoSeriousViolations(page, testInfo, 'the home screen hint');
    await offer.getByRole('button', { name: 'Got it' }).click();
    await expect(offer).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
    await expect(offer).toHaveCount(0);
  });
});
