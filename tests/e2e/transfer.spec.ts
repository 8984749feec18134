import { randomInt } from 'node:crypto';
import type { Browser, Page, Route } from '@playwright/test';
import { expect, openApp, registerUser, submitSignIn, test } from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { readCode, waitForMail } from './support/outbox';
import { startOwnServer, type OwnServer } from './support/own-server';
import { recordMessage } from './support/recording';

// A Community Edition owner moves to a new tablet: the old one shows a code, the new one takes
// it, and both messages go straight from one browser to the other over a real WebRTC data
// channel on loopback, through a closed page, each arriving once and byte for byte.

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

interface TLocalCopy {
  id: string;
  title: string;
  sha256: string;
}

async function newDevice(browser: Browser, server: OwnServer): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: VIEWPORTS.laptop,
    extraHTTPHeaders: {
      'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
    },
  });
  return context.newPage();
}

/** The messages in this browser's local library, with the SHA-256 of each one's bytes. */
function readLocalCopies(page: Page): Promise<TLocalCopy[]> {
  return page.evaluate(async () => {
    const settle = <R>(request: IDBRequest<R>) =>
      new Promise<R>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const store = (name: string) => db.transaction(name, 'readonly').objectStore(name);
    const videos = (await settle(store('videos').getAll())) as { id: string; title: string }[];
    const copies = [];
    for (const video of videos) {
      const chunks = (await settle(store('chunks').index('videoId').getAll(video.id))) as {
        index: number;
        data: Blob;
      }[];
      chunks.sort((a, b) => a.index - b.index);
      const bytes = await new Blob(chunks.map((chunk) => chunk.data)).arrayBuffer();
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      const sha256 = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
      copies.push({ id: video.id, title: video.title, sha256 });
    }
    db.close();
    return copies.sort((a, b) => a.title.localeCompare(b.title));
  });
}

/** Holds the new device's first 'this message arrived' call, so the page can close right there. */
function holdFirstArrival(page: Page): Promise<Route> {
  return new Promise((resolve) => {
    void page.route(/\/api\/transfers\/[^/]+\/arrived$/, (route) => resolve(route));
  });
}

async function scanAtBothSizes(
  page: Page,
  testInfo: Parameters<typeof expectNoSeriousViolations>[1],
  label: string,
) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousViolations(page, testInfo, `${label} (${name})`);
  }
  await page.setViewportSize(VIEWPORTS.laptop);
}

test.describe.serial('a Community Edition owner moves messages tablet to tablet', () => {
  let server: OwnServer;

  test.beforeAll(async () => {
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('both messages arrive byte for byte, once each, through a closed page', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(240_000);
    const oldTablet = await newDevice(browser, server);
    const owner = await registerUser(oldTablet, { firstName: 'Edith' });
    for (const title of ['For Susan, with love', 'For Tom, on his birthday']) {
      await recordMessage(oldTablet, { title, seconds: 3 });
    }
    const onOld = await readLocalCopies(oldTablet);
    expect(onOld.map((copy) => copy.title)).toEqual([
      'For Susan, with love',
      'For Tom, on his birthday',
    ]);

    // The old tablet shows its code while it still holds a session.
    await oldTablet.getByRole('link', { name: 'Move my messages to a new device' }).click();
    await oldTablet.getByRole('button', { name: 'Show the code' }).click();
    await expect(oldTablet.getByRole('img', { name: /QR code/ })).toBeVisible();
    const shown = (await oldTablet.getByTestId('transfer-code').textContent()) ?? '';
    expect(shown).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const senderStatus = oldTablet.getByRole('status').filter({ hasText: /new device/ });
    await expect(senderStatus).toHaveText('Waiting for your new device...');
    await scanAtBothSizes(oldTablet, testInfo, 'move my messages, code shown');

    // The new tablet: the account moves there (the old one is signed out).
    const newTablet = await newDevice(browser, server);
    await openApp(newTablet, '/auth');
    await submitSignIn(newTablet, owner);
    const denied = newTablet.getByRole('alert', { name: 'Device Access Denied' });
    await denied.getByRole('button', { name: 'Use this device instead' }).click();
    const mail = await waitForMail(owner.email, /code to use a new device/, {
      dataDir: server.dataDir,
    });
    await denied.getByLabel('Code from the email', { exact: true }).fill(readCode(mail));
    await denied.getByRole('button', { name: 'Move my account here' }).click();
    await expect(
      newTablet.getByRole('heading', { name: `Welcome, ${owner.firstName}` }),
    ).toBeVisible();

    // Typed by hand; the first message arrives, and the page closes before the second.
    const held = holdFirstArrival(newTablet);
    await newTablet.getByRole('link', { name: 'Receive messages from my old device' }).click();
    await scanAtBothSizes(newTablet, testInfo, 'receive messages, before the code');
    await newTablet.getByLabel('Code from your old device').fill(shown.toLowerCase());
    await newTablet.getByRole('button', { name: 'Receive my messages' }).click();
    await held;
    const halfway = await readLocalCopies(newTablet);
    expect(halfway).toHaveLength(1);
    const context = newTablet.context();
    await newTablet.close();

    // Reopened from the address the code left behind: it carries on where it stopped.
    const reopened = await context.newPage();
    await reopened.goto(`/receive-messages#code=${shown.replaceAll('-', '')}`);
    const receiverStatus = reopened.getByRole('status').filter({ hasText: /messages|Receiving/ });
    await expect(receiverStatus).toContainText('All 2 messages are now on this device.', {
      timeout: 60_000,
    });
    await expect(senderStatus).toContainText(
      'All 2 messages are on your new device. They are still on this device too.',
      { timeout: 30_000 },
    );
    await scanAtBothSizes(reopened, testInfo, 'receive messages, all arrived');

    expect(await readLocalCopies(reopened)).toEqual(onOld);
    expect(await readLocalCopies(oldTablet)).toEqual(onOld);
  });
});
