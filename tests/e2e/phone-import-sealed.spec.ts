import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  LONG_WAIT,
  expect,
  registerPremiumUser,
  signOutFromDashboard,
  submitSignIn,
  test,
  pageOn,
} from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { turnOnEncryption } from './support/encryption';
import { signInAddingThisDevice } from './support/devices';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { callApi, storedCopyStart } from './support/page-api';

// Import from a phone in an account with enhanced encryption on: the phone seals the video under
// the pairing key it got in the link's fragment, and any unlocked device of the owner's (the
// primary tablet or another one) seals it for the owner; until then the owner sees it waiting.
// The key never leaves in any request.

/** A real video as a phone's gallery holds one: the app's own banner clip. */
const GALLERY_VIDEO = path.resolve(import.meta.dirname, '../../src/web/public/media/banner.mp4');

async function newDevice(browser: Browser, server: OwnServer, width = 1280, height = 800) {
  return pageOn(browser, server, { viewport: { width, height } });
}

/** The phone, paired, sends one video from its gallery. */
async function sendFromPhone(phone: Page, title: string, file = GALLERY_VIDEO) {
  const sent = phone.getByText('Sent. It will appear on your main device.');
  await phone.getByLabel('Choose videos from this phone').setInputFiles(file);
  // A new choice replaces the row of the video sent before.
  await expect(sent).toBeHidden();
  await phone.getByLabel('Title').fill(title);
  await phone.getByLabel('Who is it for?').selectOption({ index: 1 });
  await phone.getByRole('button', { name: 'Send video' }).click();
  await expect(sent).toBeVisible({ timeout: 30_000 });
}

/** Unlocks the device with the password, on the encryption page. */
async function unlockWithPassword(page: Page, password: string) {
  await page.goto('/encryption');
  const unlock = page.getByRole('region', { name: 'Unlock sealed messages on this device' });
  await unlock.getByLabel('Your password').fill(password);
  await unlock.getByRole('button', { name: 'Unlock this device' }).click();
  await expect(page.getByText('This device can open and send your sealed messages.')).toBeVisible({
    timeout: 20_000,
  });
}

const libraryItem = (page: Page, title: string) =>
  page.getByRole('main').getByRole('listitem').filter({ hasText: title });

/** What each request of the context put on the wire: address (no fragment), headers, body. */
function recordWire(context: BrowserContext): string[] {
  const wire: string[] = [];
  context.on('request', (request) => {
    const url = new URL(request.url());
    const body = request.postDataBuffer()?.toString('latin1') ?? '';
    wire.push(
      `${url.origin}${url.pathname}${url.search} ${JSON.stringify(request.headers())} ${body}`,
    );
  });
  return wire;
}

test.describe.serial('import from a phone with enhanced encryption on', LONG_WAIT, () => {
  let server: OwnServer;

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the phone sends a sealed video, the tablet seals it for the owner once unlocked, and it plays', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(300_000);
    const tablet = await newDevice(browser, server);
    const tabletWire = recordWire(tablet.context());
    const owner = await registerPremiumUser(tablet, server, { firstName: 'Edith' });
    await turnOnEncryption(tablet, owner);

    await tablet.goto('/import-from-mobile');
    await tablet.getByRole('button', { name: 'Pair a phone' }).click();
    await expect(tablet.getByRole('img', { name: /QR code/ })).toBeVisible({ timeout: 20_000 });
    const pairingUrl = await tablet.evaluate(
      () => document.querySelector<HTMLAnchorElement>('a[href*="#pair="]')?.href ?? '',
    );
    const fragmentKey = /[#&]k=([A-Za-z0-9_-]{40,})/.exec(pairingUrl)?.[1] ?? '';
    expect(fragmentKey).not.toBe('');
    // The link's text names the page only: the token and the key stay in the code and the link.
    await expect(tablet.getByRole('link', { name: /\/import-from-mobile$/ })).toBeVisible();

    // The tablet is signed out and in again: locked, it cannot seal what arrives yet.
    await tablet.goto('/');
    await signOutFromDashboard(tablet);
    await submitSignIn(tablet, owner);
    await expect(
      tablet.getByRole('heading', { name: `Welcome, ${owner.firstName}` }),
    ).toBeVisible();

    const phone = await newDevice(browser, server, 390, 844);
    const phoneWire = recordWire(phone.context());
    await phone.goto(pairingUrl);
    await expect(phone).toHaveURL(/\/import-from-mobile$/);
    await expect(
      phone.getByText('Each video is sealed on this phone before it is sent.', { exact: false }),
    ).toBeVisible();
    await expectNoSeriousViolations(phone, testInfo, 'phone import, sealed');
    await sendFromPhone(phone, 'Walk by the sea');

    await tablet.goto('/');
    const waiting = libraryItem(tablet, 'Walk by the sea');
    await expect(waiting).toContainText(
      'Sent from your phone. Waiting to be sealed: unlock this device, or open Memento on one of yours that is unlocked.',
      { timeout: 20_000 },
    );
    await expect(waiting.getByRole('link', { name: 'unlock this device' })).toHaveAttribute(
      'href',
      '/encryption',
    );
    // Safe in the cloud, it is not called missing from the tablet (nor a backup offered for it).
    await expect(tablet.getByTestId('video-counts')).toHaveText(
      'On this device: 0 videos · In your account’s index: 1 video',
    );
    await expect(tablet.getByTestId('missing-videos')).toHaveCount(0);
    await expectNoSeriousViolations(tablet, testInfo, 'a phone video waiting to be sealed');
    await tablet.screenshot({ path: testInfo.outputPath('waiting.png'), fullPage: true });
    // Nor on its recipient's card: recorded, and nothing missing.
    await tablet.goto('/recipients');
    await expect(tablet.getByTestId('video-count')).toHaveText(['1 video recorded']);

    // The owner's laptop, added beside the tablet and unlocked, seals it while the tablet is locked.
    const laptop = await newDevice(browser, server);
    const laptopWire = recordWire(laptop.context());
    await signInAddingThisDevice(laptop, server, owner);
    await unlockWithPassword(laptop, owner.password);
    await laptop.goto('/');
    const onLaptop = libraryItem(laptop, 'Walk by the sea');
    await expect(onLaptop).toContainText('In the cloud', { timeout: 60_000 });
    await expect(onLaptop).not.toContainText('Waiting to be sealed');
    await onLaptop.getByRole('button', { name: /^Play/ }).click();
    await expect
      .poll(
        () =>
          onLaptop.getByTestId('video-player').evaluate((v) => (v as HTMLVideoElement).duration),
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(1);
    await laptop.context().close();

    // The next one waits for the tablet, still locked, and is sealed there once it is unlocked.
    // Another video of the gallery (a browser takes the same file chosen again as no change).
    const secondVideo = testInfo.outputPath('lunch.mp4');
    copyFileSync(GALLERY_VIDEO, secondVideo);
    await sendFromPhone(phone, 'Lunch in the garden', secondVideo);
    await tablet.goto('/');
    const item = libraryItem(tablet, 'Lunch in the garden');
    await expect(item).toContainText('Waiting to be sealed: unlock this device', {
      timeout: 20_000,
    });
    await unlockWithPassword(tablet, owner.password);

    await tablet.goto('/');
    await expect(item).toContainText('In the cloud', { timeout: 60_000 });
    await expect(item).not.toContainText('Waiting to be sealed');
    await expect(libraryItem(tablet, 'Walk by the sea')).toContainText('In the cloud');
    const videos = await callApi<Array<{ id: string }>>(tablet, 'GET', '/api/videos');
    expect(videos).toHaveLength(2);
    for (const video of videos) {
      const stored = await storedCopyStart(tablet, server.url, video.id);
      expect(stored.holder).toBe('owner');
      expect(stored.start).toBe('MMSV');
    }
    // The owner's primary tablet then brings both sealed copies down by itself, opened here.
    for (const title of ['Lunch in the garden', 'Walk by the sea']) {
      await expect(libraryItem(tablet, title)).toContainText('In the cloud and on this device', {
        timeout: 60_000,
      });
    }
    await item.getByRole('button', { name: /^Play/ }).click();
    const player = item.getByTestId('video-player');
    await expect(player).toHaveAttribute('data-source', 'device', { timeout: 30_000 });
    await expect
      .poll(() => player.evaluate((v) => (v as HTMLVideoElement).duration), { timeout: 30_000 })
      .toBeGreaterThan(1);

    // Nothing any device sent carried the pairing key: it lived in the link's fragment only.
    expect(phoneWire.length).toBeGreaterThan(5);
    for (const sent of [...phoneWire, ...tabletWire, ...laptopWire]) {
      expect(sent).not.toContain(fragmentKey);
    }
  });
});
