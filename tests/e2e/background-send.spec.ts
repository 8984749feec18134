import type { Browser, BrowserContext, Page } from '@playwright/test';
import { OFFLINE_MESSAGES } from '../../src/web/features/offline/offline-messages';
import { LONG_WAIT, expect, registerPremiumUser, test, pageOn } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { recordMessage } from './support/recording';

// Sending goes on after the tab closes: where the browser has Background Sync (Chromium), a
// message saved offline reaches the cloud once the connection returns, with Memento closed.
// Where it has not (Safari, Firefox), the dashboard says to keep Memento open.

test.use({ serviceWorkers: 'allow' });

const SEND_WHILE_OPEN =
  'Messages are sent while Memento is open. Keep it open until they are sent.';

async function newDevice(browser: Browser, server: OwnServer) {
  return pageOn(browser, server, { serviceWorkers: 'allow' });
}

/** Waits until the worker is active and controls the page (the next page it opens). */
async function openControlledByWorker(page: Page, path: string) {
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.ready).active?.state === 'activated',
    undefined,
    { timeout: 60_000 },
  );
  await expect
    .poll(async () => {
      await page.goto(path);
      return page.evaluate(() => navigator.serviceWorker.controller !== null);
    })
    .toBe(true);
}

/** The server's own index of the owner's messages, asked with their cookie and device id. */
async function serverIndex(context: BrowserContext, deviceId: string) {
  const response = await context.request.get('/api/videos', {
    headers: { 'X-Device-ID': deviceId },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Array<{ title: string | null; syncStatus: string }>;
}

test.describe('sending after the tab closes', LONG_WAIT, () => {
  let server: OwnServer;

  test.beforeAll(async () => {
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a message saved offline reaches the cloud once online, Memento closed', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await newDevice(browser, server);
    const context = page.context();
    await registerPremiumUser(page, server, { firstName: 'Edith' });
    await openControlledByWorker(page, '/');
    await expect(page.getByRole('heading', { name: 'Your messages in the cloud' })).toBeVisible();
    const deviceId = (await page.evaluate(() => localStorage.getItem('deviceId'))) ?? '';
    expect(await page.evaluate(() => 'sync' in ServiceWorkerRegistration.prototype)).toBe(true);

    // The worker's registration, as DevTools sees it, to wake it later with no Memento page
    // open: DevTools speaks to workers through a page, a blank one of the same browser profile.
    const blank = await context.newPage();
    const devtools = await context.newCDPSession(blank);
    const registrations = new Map<string, string>();
    devtools.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const registration of updated) {
        if (!registration.isDeleted) {
          registrations.set(new URL(registration.scopeURL).origin, registration.registrationId);
        }
      }
    });
    await devtools.send('ServiceWorker.enable');
    const origin = new URL(server.url).origin;
    await expect.poll(() => registrations.get(origin)).toBeTruthy();

    await context.setOffline(true);
    await expect(page.getByText(OFFLINE_MESSAGES.safe)).toBeVisible();
    await recordMessage(page, { title: 'For Susan, sent later', seconds: 3 });
    const message = page.getByRole('listitem').filter({ hasText: 'For Susan, sent later' });
    await expect(message).toBeVisible();
    // This browser sends by itself: no word about keeping Memento open.
    await expect(page.getByText(SEND_WHILE_OPEN)).toHaveCount(0);
    await page.close();
    expect(context.pages().map((open) => open.url())).toEqual(['about:blank']);
    expect(
      (await serverIndex(context, deviceId)).filter((row) => row.syncStatus === 'synced'),
    ).toHaveLength(0);

    await context.setOffline(false);
    await devtools.send('ServiceWorker.dispatchSyncEvent', {
      origin,
      registrationId: registrations.get(origin) ?? '',
      tag: 'memento-send',
      lastChance: false,
    });
    await expect
      .poll(
        async () =>
          (await serverIndex(context, deviceId)).map((row) => [row.title, row.syncStatus]),
        { timeout: 60_000, message: 'the server holds the message, sent by the worker' },
      )
      .toEqual([['For Susan, sent later', 'synced']]);
    expect(context.pages().map((open) => open.url())).toEqual(['about:blank']);
    await devtools.detach();
    await context.close();
  });

  test('without Background Sync, the dashboard says to keep Memento open', async ({
    browser,
  }, testInfo) => {
    const page = await newDevice(browser, server);
    // As Safari and Firefox: no SyncManager.
    await page.addInitScript(() => {
      delete (ServiceWorkerRegistration.prototype as { sync?: unknown }).sync;
    });
    await registerPremiumUser(page, server, { firstName: 'Walter' });
    // Offline, the Record page comes from the worker's precache.
    await openControlledByWorker(page, '/');
    await expect(page.getByText(SEND_WHILE_OPEN)).toHaveCount(0);
    await page.context().setOffline(true);
    // The offline line arrives at the top of the page and moves everything below it: a click
    // made while it arrives lands where the button was.
    await expect(page.getByText(OFFLINE_MESSAGES.safe)).toBeVisible();
    await recordMessage(page, { title: 'For Tom, while open', seconds: 2 });
    await expect(page.getByText(SEND_WHILE_OPEN)).toBeVisible();
    const fontSize = await page
      .getByTestId('send-while-open')
      .evaluate((line) => parseFloat(getComputedStyle(line).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(18);
    for (const [name, viewport] of Object.entries({
      phone: { width: 390, height: 844 },
      laptop: { width: 1366, height: 768 },
    })) {
      await page.setViewportSize(viewport);
      await expect(page.getByText(SEND_WHILE_OPEN)).toBeVisible();
      await expectNoSeriousViolations(page, testInfo, `dashboard, send while open (${name})`);
    }
    await page.context().setOffline(false);
    const message = page.getByRole('listitem').filter({ hasText: 'For Tom, while open' });
    await expect(message).toContainText('In the cloud and on this device', { timeout: 60_000 });
    await expect(page.getByText(SEND_WHILE_OPEN)).toHaveCount(0);
    await page.context().close();
  });
});
