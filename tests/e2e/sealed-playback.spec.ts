import { readFile, writeFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import {
  LONG_WAIT,
  expect,
  registerPremiumUser,
  signOutFromDashboard,
  test,
  type RegisteredUser,
  pageOn,
} from './fixtures';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { callApi } from './support/page-api';
import { recordMessage } from './support/recording';
import { findStoredObject, sendSealedMessage, toneWav } from './support/sealed-messages';
import { signInAddingThisDevice } from './support/devices';

// A sealed message played on a page the service worker controls: the worker fetches only the
// sealed segments each Range request of the player needs and opens them as they arrive, so a seek
// in a long message fetches little and memory stays bounded. A changed byte plays nothing.

test.use({ serviceWorkers: 'allow' });

const LONG_MESSAGE_BYTES = 40 * 1024 * 1024;

async function newDevice(browser: Browser, server: OwnServer) {
  return pageOn(browser, server, { serviceWorkers: 'allow' });
}

/** The owner turns enhanced encryption on, as on the Enhanced encryption page. */
async function turnOnEncryption(page: Page, owner: RegisteredUser) {
  await page.getByRole('link', { name: 'Enhanced encryption' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Your password' }).fill(owner.password);
  await page.getByRole('button', { name: 'Turn on enhanced encryption' }).click();
  await page
    .getByRole('checkbox', { name: 'I have printed or written down my recovery sheet' })
    .check({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Enhanced encryption is on' })).toBeVisible();
}

/** The owner's second device: signed in, added with the emailed code, unlocked with the password. */
async function addUnlockedDevice(page: Page, owner: RegisteredUser, server: OwnServer) {
  await signInAddingThisDevice(page, server, owner);
  await page.goto('/encryption');
  const unlock = page.getByRole('region', { name: 'Unlock sealed messages on this device' });
  await unlock.getByLabel('Your password').fill(owner.password);
  await unlock.getByRole('button', { name: 'Unlock this device' }).click();
  await expect(page.getByText('This device can open and send your sealed messages.')).toBeVisible({
    timeout: 20_000,
  });
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

type TObjectRequest = { range: string | null; fromWorker: boolean };

/** Every request for a message's stored object, with its Range header. */
function watchObjectRequests(context: BrowserContext, videoId: string): TObjectRequest[] {
  const seen: TObjectRequest[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname !== `/api/videos/${videoId}/content`) return;
    seen.push({ range: request.headers().range ?? null, fromWorker: !!request.serviceWorker() });
  });
  return seen;
}

/** The sealed bytes a Range header asks for. */
function rangeBytes(range: string | null, objectSize: number): { start: number; bytes: number } {
  const [, from = '0', to = ''] = /^bytes=(\d+)-(\d*)$/.exec(range ?? '') ?? [];
  const last = to === '' ? objectSize - 1 : Number(to);
  return { start: Number(from), bytes: last - Number(from) + 1 };
}

const playerState = (player: Locator) =>
  player.evaluate((video: HTMLVideoElement) => ({
    src: video.getAttribute('src') ?? '',
    readyState: video.readyState,
    currentTime: video.currentTime,
    duration: video.duration,
  }));

/** The player plays from the worker: data for the current position, and time moving on. */
async function expectPlaysFromWorker(player: Locator, videoId: string, from = 0) {
  await expect(player).toHaveAttribute('data-source', 'cloud');
  await expect.poll(async () => (await playerState(player)).src).toBe(`/sealed/${videoId}`);
  await expect
    .poll(async () => (await playerState(player)).readyState, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2);
  await expect
    .poll(async () => (await playerState(player)).currentTime, { timeout: 30_000 })
    .toBeGreaterThan(from + 0.5);
}

test.describe.serial('sealed messages played through the service worker', LONG_WAIT, () => {
  let server: OwnServer;
  let owner: RegisteredUser;
  /** The owner's primary device, where messages are recorded and sent. */
  let laptop: Page;
  /** The owner's second device, which plays them from the cloud. */
  let phone: Page;
  let recordedId = '';

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a recorded message plays on the owner’s other device, each part asked for by range', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    laptop = await newDevice(browser, server);
    owner = await registerPremiumUser(laptop, server, { firstName: 'Edith' });
    await turnOnEncryption(laptop, owner);
    await laptop.goto('/');
    await recordMessage(laptop, { title: 'Sealed for Susan', seconds: 4 });
    const onLaptop = laptop.getByRole('listitem').filter({ hasText: 'Sealed for Susan' });
    await expect(onLaptop).toContainText('In the cloud and on this device', { timeout: 90_000 });

    phone = await newDevice(browser, server);
    await addUnlockedDevice(phone, owner, server);
    await openControlledByWorker(phone, '/');
    const [video] = await callApi<Array<{ id: string }>>(phone, 'GET', '/api/videos');
    recordedId = video!.id;
    const requests = watchObjectRequests(phone.context(), recordedId);

    const message = phone.getByRole('listitem').filter({ hasText: 'Sealed for Susan' });
    await message.getByRole('button', { name: /^Play/ }).click();
    await expectPlaysFromWorker(message.getByTestId('video-player'), recordedId);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request).toMatchObject({
        range: expect.stringMatching(/^bytes=\d+-\d+$/),
        fromWorker: true,
      });
    }
    // Played as it arrives: no copy is kept on this device.
    await expect(message).not.toContainText('on this device');
  });

  test('seeking in a long message fetches only the segments it needs, from a restarted worker too', async () => {
    test.setTimeout(240_000);
    const { wav, durationMs } = toneWav(LONG_MESSAGE_BYTES);
    const { videoId, objectSize } = await sendSealedMessage(laptop, {
      password: owner.password,
      title: 'A long message',
      plaintext: wav,
      durationMs,
    });
    const requests = watchObjectRequests(phone.context(), videoId);
    await phone.goto('/');
    const message = phone.getByRole('listitem').filter({ hasText: 'A long message' });
    await message.getByRole('button', { name: /^Play/ }).click();
    const player = message.getByTestId('video-player');
    await expectPlaysFromWorker(player, videoId);

    // The browser stops an idle worker; the one it starts again still opens the message, from
    // what the first kept in its own store.
    const cdp = await phone.context().newCDPSession(phone);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const first = await phone.evaluate(async (path) => {
      const response = await fetch(path, { headers: { range: 'bytes=0-99' } });
      return {
        status: response.status,
        range: response.headers.get('content-range'),
        bytes: [...new Uint8Array(await response.arrayBuffer())],
      };
    }, `/sealed/${videoId}`);
    expect(first).toEqual({
      status: 206,
      range: `bytes 0-99/${wav.length}`,
      bytes: [...wav.subarray(0, 100)],
    });

    const before = requests.length;
    const { duration } = await playerState(player);
    expect(duration).toBeGreaterThan(100);
    await player.evaluate((video: HTMLVideoElement) => {
      video.currentTime = video.duration * 0.8;
    });
    await expectPlaysFromWorker(player, videoId, duration * 0.8);

    const fetched = requests.map((request) => rangeBytes(request.range, objectSize));
    expect(requests.every((request) => request.range !== null && request.fromWorker)).toBe(true);
    expect(fetched.slice(before).some((range) => range.start >= objectSize * 0.75)).toBe(true);
    const total = fetched.reduce((sum, range) => sum + range.bytes, 0);
    expect(total, `fetched ${total} of ${objectSize} sealed bytes`).toBeLessThan(objectSize / 3);
  });

  test('a changed byte: the message plays not at all and the player says so', async () => {
    const { url } = await callApi<{ url: string }>(
      phone,
      'GET',
      `/api/videos/${recordedId}/playback`,
    );
    const file = await findStoredObject(server.dataDir, url);
    const stored = await readFile(file);
    stored[1_000] = stored[1_000]! ^ 0x01;
    await writeFile(file, stored);

    await phone.goto('/');
    const message = phone.getByRole('listitem').filter({ hasText: 'Sealed for Susan' });
    await message.getByRole('button', { name: /^Play/ }).click();
    const failure = message.getByRole('alert').filter({ hasText: 'This video cannot be played' });
    await expect(failure).toContainText(
      'Failed to load video from server. Please check your connection.',
      { timeout: 30_000 },
    );
    await expect(message.getByTestId('video-player')).toHaveCount(0);

    // A shift-reload leaves the page without the worker: the message is opened whole instead,
    // and refused whole.
    const cdp = await phone.context().newCDPSession(phone);
    await cdp.send('Page.reload', { ignoreCache: true });
    await expect(phone.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();
    expect(await phone.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await message.getByRole('button', { name: /^Play/ }).click();
    await expect(message.getByRole('alert')).toContainText(
      'This message could not be opened: it was changed or is incomplete.',
    );
    await expect(message.getByTestId('video-player')).toHaveCount(0);

    // Signing out leaves the worker nothing that opens a message.
    await signOutFromDashboard(phone);
    await expect
      .poll(() =>
        phone.evaluate(async () => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const request = indexedDB.open('memento-sealed-playback');
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
          const count = await new Promise<number>((resolve, reject) => {
            const request = db.transaction('playbacks').objectStore('playbacks').count();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
          });
          db.close();
          return count;
        }),
      )
      .toBe(0);
  });
});
