import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import {
  LONG_WAIT_ON_ENGINE,
  expect,
  registerPremiumUser,
  registerUser,
  reloadAfterRestart,
  type RegisteredUser,
  test,
  toastMessage,
  pageOn,
} from './fixtures';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { signInAsRecipient } from './support/recipients';
import { recordMessage } from './support/recording';
import { callApi } from './support/page-api';
import { signInAddingThisDevice } from './support/devices';

/** A real video as a phone's gallery holds one: the app's own banner clip. */
const GALLERY_VIDEO = path.resolve(import.meta.dirname, '../../src/web/public/media/banner.mp4');

// A paid user's message reaches the cloud in the background and their next of kin
// watches it on their own phone. The server here is the test's own, so it can be killed in the
// middle of the upload and started again.

async function newDevice(
  browser: Browser,
  server: OwnServer,
  viewport?: { width: number; height: number },
) {
  return pageOn(browser, server, { viewport });
}

/** The player plays the message from the cloud, its length known (the message is 8 s long). */
async function expectCloudCopyPlays(player: Locator) {
  await expect(player).toHaveAttribute('data-source', 'cloud');
  await expect
    .poll(() => player.evaluate((video) => (video as HTMLVideoElement).duration), {
      timeout: 20_000,
    })
    .toBeGreaterThan(5);
}

// One household's story, a journey a test, on one server of its own: each test starts where the
// last left off (serial), so a failure names its journey.
test.describe.serial('a premium message in the cloud', LONG_WAIT_ON_ENGINE, () => {
  let server: OwnServer;
  let owner: RegisteredUser;
  let deviceA: Page;
  let deviceB: Page;

  test.beforeAll(async () => {
    // Another address is the installation's admin, so the owner is an ordinary account.
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('reaches the cloud through a server crash', async ({ browser }) => {
    test.setTimeout(180_000);
    deviceA = await newDevice(browser, server);
    owner = await registerPremiumUser(deviceA, server, { firstName: 'Edith' });

    // A slow uplink, so the upload is still going when the server dies.
    const network = await deviceA.context().newCDPSession(deviceA);
    await network.send('Network.enable');
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 60 * 1024,
    });

    await recordMessage(deviceA, { title: 'For Susan, with love', seconds: 8 });
    const message = deviceA.getByRole('listitem').filter({ hasText: 'For Susan, with love' });
    await expect(message).toContainText(/Sending to the cloud… \d+%/, { timeout: 20_000 });

    await server.crashAndRestart();
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(message).toContainText('In the cloud and on this device', { timeout: 90_000 });
    await expect(deviceA.getByTestId('cloud-summary')).toContainText('1 message in the cloud');
    await expect(deviceA.getByTestId('cloud-summary')).toContainText(/ of 100 GB used$/);
    await expect(
      deviceA.getByText(
        'Your messages for the people you love, kept safe on this device and in the cloud.',
      ),
    ).toBeVisible();
  });

  test('plays on an added device, which becomes the primary device', async ({ browser }) => {
    // Device B: the owner's laptop, added with a code from their email. It watches the message
    // from the cloud, then becomes the primary device.
    deviceB = await newDevice(browser, server);
    await signInAddingThisDevice(deviceB, server, owner);
    await expect(deviceB.getByText('This is not your primary device').first()).toBeVisible();
    const onB = deviceB.getByRole('listitem').filter({ hasText: 'For Susan, with love' });
    await expect(onB).toContainText('In the cloud');
    await expect(
      deviceB.getByText('Your messages for the people you love, kept safe in the cloud.'),
    ).toBeVisible();
    await expect(
      deviceB.getByText('This device is added to your account to watch your messages.', {
        exact: false,
      }),
    ).toBeVisible();
    // Reading the library is this device's sync: the line under the banner says when.
    await expect(
      deviceB.getByText(/This is not your primary device · Last sync: /),
    ).not.toContainText('Never');
    await onB.getByRole('button', { name: /^Play/ }).click();
    await expectCloudCopyPlays(deviceB.getByTestId('video-player'));
    await deviceB.getByRole('button', { name: 'Make Primary' }).click();
    await expect(
      toastMessage(deviceB, 'Device set as primary. Your content will begin syncing.'),
    ).toBeVisible();
    await deviceB.goto('/record');
    await expect(
      deviceB.getByRole('heading', { level: 1, name: 'Record a Message' }),
    ).toBeVisible();
    await deviceA.goto('/record');
    await expect(
      deviceA.getByText('Access Denied - Only primary users can record video messages.'),
    ).toBeVisible();
  });

  test('the new primary device pairs the owner’s phone, which sends a video from its gallery', async ({
    browser,
  }) => {
    await deviceB.goto('/import-from-mobile');
    await deviceB.getByRole('button', { name: 'Pair a phone' }).click();
    const pairLink = deviceB.getByRole('link', { name: /\/import-from-mobile$/ });
    await expect(deviceB.getByRole('img', { name: /QR code/ })).toBeVisible();
    const pairingUrl = await deviceB.evaluate(
      () => document.querySelector<HTMLAnchorElement>('a[href*="#pair="]')?.href ?? '',
    );
    expect(pairingUrl).toMatch(/#pair=/);
    await expect(pairLink).toBeVisible();
    const ownerPhone = await newDevice(browser, server, { width: 390, height: 844 });
    await ownerPhone.goto(pairingUrl);
    await expect(ownerPhone).toHaveURL(/\/import-from-mobile$/);
    await expect(
      ownerPhone.getByRole('heading', { name: `Send videos to ${owner.firstName}’s Memento` }),
    ).toBeVisible();
    await ownerPhone.getByLabel('Choose videos from this phone').setInputFiles(GALLERY_VIDEO);
    await ownerPhone.getByLabel('Title').fill('Walk by the sea');
    await ownerPhone.getByLabel('Who is it for?').selectOption({ index: 1 });
    await ownerPhone.getByRole('button', { name: 'Send video' }).click();
    await expect(ownerPhone.getByText('Sent. It will appear on your main device.')).toBeVisible({
      timeout: 20_000,
    });
    await expect(deviceB.getByTestId('pairing-received')).toHaveText('1 video received');
    await deviceB.getByRole('button', { name: 'Cancel pairing' }).click();
    await ownerPhone.reload();
    await expect(
      ownerPhone.getByText('This pairing has ended. Ask for a new code on your main device.'),
    ).toBeVisible();
    await deviceB.goto('/');
    await expect(
      deviceB.getByRole('listitem').filter({ hasText: 'Walk by the sea' }),
    ).toContainText('In the cloud');
  });

  test('the next of kin signs in on their phone with their code and watches it', async ({
    browser,
  }) => {
    const phone = await newDevice(browser, server, { width: 390, height: 844 });
    await signInAsRecipient(phone, owner.nextOfKin.email, owner.emergencyCode);
    await expect(phone.getByRole('heading', { name: 'Messages for you' })).toBeVisible();
    const shared = phone.getByRole('listitem').filter({ hasText: 'For Susan, with love' });
    await expect(shared).toContainText(`From ${owner.firstName} ${owner.lastName}`);
    await shared.getByRole('button', { name: /^Watch/ }).click();
    const player = phone.getByTestId('video-player');
    await expectCloudCopyPlays(player);
    // It can seek: a jump lands where asked.
    await player.evaluate((video) => {
      (video as HTMLVideoElement).currentTime = 4;
    });
    await expect
      .poll(() => player.evaluate((video) => (video as HTMLVideoElement).currentTime))
      .toBeGreaterThanOrEqual(3.5);
  });
});

test('a free user’s recording never leaves the device', async ({ page }) => {
  test.slow();
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/uploads') || request.method() === 'PUT')
      uploads.push(request.url());
  });
  await registerUser(page, { firstName: 'Maud' });
  await recordMessage(page, { title: 'Only here', seconds: 3 });
  // A paid account's upload starts once the message is saved and indexed; here, once the
  // dashboard counts it on this device and in the index, the page goes quiet instead.
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 1 video · In your account’s index: 1 video',
  );
  await page.waitForLoadState('networkidle');
  expect(uploads).toEqual([]);
  await expect(page.getByRole('heading', { name: 'Your messages in the cloud' })).toHaveCount(0);
  await expect(
    page.getByText('Your messages for the people you love, kept safe on this device.'),
  ).toBeVisible();
});

test('a page or a script uploaded as a video never runs on the app’s address', async ({
  browser,
}) => {
  const server = await startOwnServer();
  try {
    // The installation's admin: the account an attacker's link would be sent to. An admin has the
    // cloud on any plan, so none is set (on the embedded database, that restarted the server).
    const admin = await newDevice(browser, server);
    await registerUser(admin, { firstName: 'Ada' });
    await expect(admin.getByRole('heading', { name: 'Your messages in the cloud' })).toBeVisible();
    const markers: string[] = [];
    admin.context().on('request', (request) => {
      if (request.url().includes('/api/hostile-marker')) markers.push(request.url());
    });

    // Both a script and a page, uploaded under a type the allow-list accepts.
    const hostile = [
      "document.title = 'script ran'; fetch('/api/hostile-marker'); /*",
      '<!doctype html><title>a page</title><p id="hostile">A hostile page</p>',
      "<script>document.title = 'script ran'; fetch('/api/hostile-marker');</script> */",
    ].join('\n');
    const checksum = createHash('sha256').update(hostile).digest('hex');
    const { recipients } = await callApi<{ recipients: Array<{ id: number }> }>(
      admin,
      'GET',
      '/api/recipients',
    );
    const uploadHostile = async () => {
      const videoId = randomUUID();
      await callApi(admin, 'POST', '/api/videos', {
        id: videoId,
        recipientId: recipients[0]!.id,
        metadata: { byteSize: hostile.length, durationMs: 1000, mimeType: 'video/mp4;codecs=avc1' },
      });
      const { uploadId } = await callApi<{ uploadId: string }>(admin, 'POST', '/api/uploads', {
        videoId,
        title: 'Not really a video',
        promptId: null,
        byteSize: hostile.length,
        sha256: checksum,
      });
      const { parts } = await callApi<{
        parts: Array<{ url: string; headers?: Record<string, string> }>;
      }>(admin, 'POST', `/api/uploads/${uploadId}/sign`, {
        partNumbers: [1],
        sha256s: [checksum],
      });
      const etag = await admin.evaluate(
        async ({ part, body }) => {
          const response = await fetch(part.url, {
            method: 'PUT',
            body,
            headers: {
              ...part.headers,
              'Content-Type': 'application/octet-stream',
              'X-Device-ID': localStorage.getItem('deviceId') ?? '',
            },
          });
          return response.headers.get('etag');
        },
        { part: parts[0]!, body: hostile },
      );
      await callApi(admin, 'POST', `/api/uploads/${uploadId}/complete`, {
        parts: [{ partNumber: 1, etag, sha256: checksum }],
      });
      return videoId;
    };
    const page = await uploadHostile();
    const script = await uploadHostile();

    /** A page of the app loads it as a script (its policy allows scripts from its own address). */
    const loadAsScript = async (videoId: string) => {
      const { url } = await callApi<{ url: string }>(
        admin,
        'GET',
        `/api/videos/${videoId}/playback`,
      );
      const loaded = await admin.evaluate(
        (src) =>
          new Promise<string>((resolve) => {
            const element = document.createElement('script');
            element.src = src;
            element.onload = () => resolve('loaded');
            element.onerror = () => resolve('refused');
            document.head.append(element);
          }),
        url,
      );
      return { url: `${server.url}${url}`, loaded };
    };

    // The signed-in admin opens the link: a video, never a page.
    const asVideo = await loadAsScript(page);
    expect(asVideo.loaded).toBe('refused');
    const opened = await admin.context().newPage();
    const response = await opened.goto(asVideo.url);
    expect(response?.headers()).toMatchObject({
      'content-type': 'video/mp4;codecs="avc1"',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline; filename="message.mp4"',
      'content-security-policy': "sandbox; default-src 'none'",
    });
    expect(await opened.evaluate(() => document.contentType)).toBe('video/mp4');
    expect(await opened.locator('#hostile, script').count()).toBe(0);

    // Rows an older version saved with the types from the report: files to save, nothing else.
    await server.writeWhileStopped(
      `update videos set mime_type = case id when $1 then 'video/mp4;,text/html'
         else 'video/mp4;,text/javascript' end where id in ($1, $2)`,
      [page, script],
    );
    await reloadAfterRestart(admin);
    await expect(admin.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
    expect((await loadAsScript(script)).loaded).toBe('refused');
    const asLegacyPage = await loadAsScript(page);
    expect(asLegacyPage.loaded).toBe('refused');
    const downloading = opened.waitForEvent('download', { timeout: 10_000 });
    await opened.goto(asLegacyPage.url).catch(() => undefined);
    expect((await downloading).suggestedFilename()).toBe('message.bin');
    expect(await opened.locator('#hostile').count()).toBe(0);

    expect(await opened.title()).not.toBe('script ran');
    expect(await admin.title()).not.toBe('script ran');
    expect(markers).toEqual([]);
  } finally {
    await server.stop();
  }
});
