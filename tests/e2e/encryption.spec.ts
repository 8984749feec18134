import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page, Request, TestInfo } from '@playwright/test';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import { UPLOAD_PART_BYTES } from '../../src/shared/schemas/cloud-messages';
import type { TVideoIndexEntry } from '../../src/shared/schemas/videos';
import {
  LONG_WAIT,
  expect,
  registerPremiumUser,
  registerUser,
  test,
  type RegisteredUser,
} from './fixtures';
import { expectNoSeriousViolations, saveShotIfAsked } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { recordMessage } from './support/recording';
import { callApi } from './support/page-api';
import { findStoredObject } from './support/sealed-messages';
import { signInAddingThisDevice } from './support/devices';

// Enhanced encryption, first phase: the owner turns it on, keeps the printed recovery sheet, and
// from then on every cloud copy leaves the browser sealed; the owner's other device opens it once
// unlocked with the password.

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1280, height: 800 },
} as const;

/** The first bytes of every WebM file (the camera's recordings), and of every sealed object. */
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const SEALED_MAGIC = Buffer.from('MMSV');
const RECOVERY_CODE_PATTERN = /^[A-Z2-9]{4}( [A-Z2-9]{4}){5}$/;

async function scanAtBothSizes(page: Page, testInfo: TestInfo, label: string) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, testInfo, `${label} (${name})`);
    await saveShotIfAsked(page, label);
  }
}

async function newDevice(browser: Browser, server: OwnServer) {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: VIEWPORTS.laptop,
    extraHTTPHeaders: {
      'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    },
  });
  return context.newPage();
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

/** Whether a request carries this text anywhere: its address, headers or body. */
async function carries(request: Request, text: string): Promise<boolean> {
  // A request still on its way (the sync's next poll) has only the headers it was sent with.
  const headers = JSON.stringify(await request.allHeaders().catch(() => request.headers()));
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  return request.url().includes(text) || headers.includes(text) || body.includes(text);
}

test.describe.serial('enhanced encryption', LONG_WAIT, () => {
  let server: OwnServer;
  let owner: RegisteredUser;
  let deviceA: Page;
  let recoveryCode = '';
  const requestsAfterSheet: Request[] = [];
  /** The code as shown, as typed with dashes, and run together. */
  const codeSpellings = () => [
    recoveryCode,
    recoveryCode.replace(/ /g, '-'),
    recoveryCode.replace(/ /g, ''),
  ];

  /**
   * The cloud copy of the message, as the server joined its parts: sealed, no part beginning as
   * the recording does, the recovery code nowhere. (A part goes from a file the page removes once
   * it arrived, so the browser's network log cannot always give its bytes back afterwards.)
   */
  async function expectStoredSealed(title: string) {
    const index = await callApi<TVideoIndexEntry[]>(deviceA, 'GET', '/api/videos');
    const videoId = index.find((entry) => entry.title === title)!.id;
    const playback = await callApi<TPlayback>(deviceA, 'GET', `/api/videos/${videoId}/playback`);
    const stored = await readFile(await findStoredObject(server.dataDir, playback.url));
    expect(stored.subarray(0, 4).equals(SEALED_MAGIC)).toBe(true);
    for (let at = 0; at < stored.length; at += UPLOAD_PART_BYTES) {
      const part = stored.subarray(at, at + 4);
      expect(part.equals(WEBM_MAGIC), `the part at ${at} starts with WebM bytes`).toBe(false);
    }
    for (const spelling of codeSpellings()) expect(stored.includes(spelling)).toBe(false);
  }

  test.beforeAll(async () => {
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('a premium owner turns it on and keeps the recovery sheet', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    deviceA = await newDevice(browser, server);
    owner = await registerPremiumUser(deviceA, server, { firstName: 'Edith' });

    await deviceA.getByRole('link', { name: 'Enhanced encryption' }).click();
    await expect(deviceA).toHaveURL(/\/encryption$/);
    await expect(
      deviceA.getByRole('heading', { level: 1, name: 'Enhanced encryption' }),
    ).toBeVisible();
    await expect(deviceA.getByRole('heading', { name: 'What changes' })).toBeVisible();
    await expect(
      deviceA.getByText('Memento can no longer open your sealed messages'),
    ).toBeVisible();
    await scanAtBothSizes(deviceA, testInfo, 'what changes');

    await deviceA.getByRole('button', { name: 'Continue' }).click();
    await expect(deviceA.getByRole('heading', { name: 'Your password' })).toBeFocused();
    await scanAtBothSizes(deviceA, testInfo, 'the password step');
    const password = deviceA.getByRole('textbox', { name: 'Your password' });
    await password.fill('not my password');
    await deviceA.getByRole('button', { name: 'Turn on enhanced encryption' }).click();
    await expect(deviceA.getByText('That password is not right.')).toBeVisible({
      timeout: 20_000,
    });

    await password.fill(owner.password);
    await deviceA.getByRole('button', { name: 'Turn on enhanced encryption' }).click();
    const sheet = deviceA.getByRole('region', { name: 'Your Memento recovery sheet' });
    await expect(sheet).toBeVisible({ timeout: 20_000 });
    // From here on, nothing this browser sends may carry the code.
    deviceA.on('request', (request) => requestsAfterSheet.push(request));
    const code = sheet.getByTestId('recovery-code');
    await expect(code).toHaveText(RECOVERY_CODE_PATTERN);
    recoveryCode = ((await code.textContent()) ?? '').trim();
    await expect(sheet).toContainText(owner.email);
    await expect(sheet).toContainText('What it is for');
    await scanAtBothSizes(deviceA, testInfo, 'the recovery sheet');

    // Printed, the sheet is all there is: the code and what it is for, nothing of the page.
    await deviceA.emulateMedia({ media: 'print' });
    await expect(code).toBeVisible();
    await expect(
      deviceA.getByRole('heading', { level: 1, name: 'Enhanced encryption' }),
    ).toBeHidden();
    await expect(deviceA.getByRole('button', { name: 'Print recovery sheet' })).toBeHidden();
    await deviceA.emulateMedia({ media: 'screen' });

    const done = deviceA.getByRole('button', { name: 'Done' });
    await expect(done).toBeDisabled();
    await deviceA
      .getByRole('checkbox', { name: 'I have printed or written down my recovery sheet' })
      .check();
    await done.click();
    await expect(deviceA.getByRole('heading', { name: 'Enhanced encryption is on' })).toBeVisible();
    await expect(deviceA.getByTestId('encryption-since')).toContainText('On since');
    await expect(
      deviceA.getByText('This device can open and send your sealed messages.'),
    ).toBeVisible();
    // Shown once: a reload shows the state, never the code again.
    await deviceA.reload();
    await expect(deviceA.getByRole('heading', { name: 'Enhanced encryption is on' })).toBeVisible();
    await expect(deviceA.getByTestId('recovery-code')).toHaveCount(0);
    await scanAtBothSizes(deviceA, testInfo, 'enhanced encryption on');
  });

  test('a message recorded now leaves the browser sealed', async ({ browserName: _ }, testInfo) => {
    test.setTimeout(180_000);
    await deviceA.goto('/');
    await recordMessage(deviceA, { title: 'Sealed for Susan', seconds: 8 });
    const message = deviceA.getByRole('listitem').filter({ hasText: 'Sealed for Susan' });
    await expect(message).toContainText('In the cloud and on this device', { timeout: 90_000 });

    const created = requestsAfterSheet.find(
      (request) =>
        request.method() === 'POST' && new URL(request.url()).pathname === '/api/uploads',
    );
    expect(created?.postDataJSON()).toMatchObject({ sealed: { keyWrap: expect.any(String) } });
    const parts = requestsAfterSheet.filter(
      (request) => request.method() === 'PUT' && /\/parts\/\d+$/.test(request.url()),
    );
    expect(parts.length).toBeGreaterThan(0);
    await expectStoredSealed('Sealed for Susan');
    await scanAtBothSizes(deviceA, testInfo, 'a sealed message on the dashboard');

    for (const request of requestsAfterSheet) {
      for (const spelling of codeSpellings()) {
        expect(await carries(request, spelling), `${request.url()} carries the code`).toBe(false);
      }
    }
  });

  test('a browser that cannot run the part writer seals and sends the message itself', async () => {
    test.setTimeout(180_000);
    // As in a browser without module workers: the writer's script never arrives.
    const writerScript = /\/assets\/outgoing-part\.worker-[^/]+\.js$/;
    let writerAsked = 0;
    await deviceA.route(writerScript, async (route) => {
      writerAsked += 1;
      await route.abort();
    });
    await deviceA.goto('/');
    await recordMessage(deviceA, { title: 'Sealed for Tom', seconds: 8 });
    const message = deviceA.getByRole('listitem').filter({ hasText: 'Sealed for Tom' });
    await expect(message).toContainText('In the cloud and on this device', { timeout: 90_000 });
    expect(writerAsked).toBeGreaterThan(0);
    await expectStoredSealed('Sealed for Tom');
    await deviceA.unroute(writerScript);
  });

  test('the owner’s second device plays it once unlocked with the password', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const deviceB = await newDevice(browser, server);
    await signInAddingThisDevice(deviceB, server, owner);

    // Locked: the player says what to do, and never plays the sealed bytes.
    const onB = deviceB.getByRole('listitem').filter({ hasText: 'Sealed for Susan' });
    await onB.getByRole('button', { name: /^Play/ }).click();
    await expect(onB.getByText('This message is sealed. To watch it here, unlock')).toBeVisible();
    await expect(onB.getByTestId('video-player')).toHaveCount(0);

    await deviceB.getByRole('link', { name: 'Enhanced encryption is on' }).click();
    const unlock = deviceB.getByRole('region', { name: 'Unlock sealed messages on this device' });
    await expect(unlock).toBeVisible();
    await scanAtBothSizes(deviceB, testInfo, 'unlocking a device');

    // A mistyped group on the sheet is named before anything else happens.
    await unlock.getByRole('button', { name: 'Use my recovery sheet instead' }).click();
    const groups = recoveryCode.split(' ');
    groups[1] = `${groups[1]!.slice(0, 3)}${groups[1]!.endsWith('A') ? 'B' : 'A'}`;
    await unlock.getByLabel('Recovery code').fill(groups.join(' '));
    await unlock.getByRole('button', { name: 'Unlock this device' }).click();
    await expect(unlock.getByText('Please look again at group 2')).toBeVisible();
    await scanAtBothSizes(deviceB, testInfo, 'a mistyped recovery code');

    await unlock.getByRole('button', { name: 'Use my password instead' }).click();
    await unlock.getByLabel('Your password').fill(owner.password);
    await unlock.getByRole('button', { name: 'Unlock this device' }).click();
    await expect(
      deviceB.getByText('This device can open and send your sealed messages.'),
    ).toBeVisible({ timeout: 20_000 });

    await deviceB.goto('/');
    await onB.getByRole('button', { name: /^Play/ }).click();
    await expectCloudCopyPlays(onB.getByTestId('video-player'));
  });
});

test('an account without a paid plan is told it comes with one', async ({ page }, testInfo) => {
  test.slow();
  await registerUser(page, { firstName: 'Maud' });
  await page.goto('/encryption');
  await expect(page.getByRole('heading', { level: 1, name: 'Enhanced encryption' })).toBeVisible();
  await expect(page.getByText('Enhanced encryption comes with every paid plan.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Turn on enhanced encryption' })).toHaveCount(0);
  await scanAtBothSizes(page, testInfo, 'enhanced encryption not on the plan');
  await page.getByRole('link', { name: 'See the plans' }).click();
  await expect(page).toHaveURL(/\/premium$/);
});
