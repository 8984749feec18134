import { randomInt } from 'node:crypto';
import type { Browser, Locator, Page, Route } from '@playwright/test';
import {
  expect,
  LONG_WAIT,
  openApp,
  registerUser,
  submitSignIn,
  test,
  type RegisteredUser,
} from './fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { moveAccountHere } from './support/devices';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { recordMessage } from './support/recording';
import { startTurnServer, type TurnServer } from './support/turn-server';

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

/** The owner signs in on the new tablet and moves the account there with the emailed code. */
async function moveAccountTo(tablet: Page, owner: RegisteredUser, server: OwnServer) {
  await moveAccountHere(tablet, server, owner);
  await expect(tablet.getByRole('heading', { name: `Welcome, ${owner.firstName}` })).toBeVisible();
}

/** The old tablet shows its code; answers it as shown. */
async function showCode(oldTablet: Page): Promise<string> {
  await oldTablet.getByRole('link', { name: 'Move my messages to a new device' }).click();
  await oldTablet.getByRole('button', { name: 'Show the code' }).click();
  const code = oldTablet.getByTestId('transfer-code');
  await expect(code).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/, {
    timeout: 30_000,
  });
  return (await code.textContent()) ?? '';
}

/**
 * A long message of `bytes` random bytes, kept as the app keeps a recording (rows of 4 MiB), for
 * the same owner and recipient as the message already in the library.
 */
async function addLongMessage(page: Page, title: string, bytes: number): Promise<void> {
  await page.evaluate(
    async ({ title, bytes }) => {
      const settle = <R>(request: IDBRequest<R>) =>
        new Promise<R>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const db = await settle(indexedDB.open('memento-videos'));
      const [first] = (await settle(db.transaction('videos').objectStore('videos').getAll())) as {
        creatorId: number;
        recipientId: number;
      }[];
      const id = crypto.randomUUID();
      const CHUNK = 4 * 1024 * 1024;
      const chunkCount = Math.ceil(bytes / CHUNK);
      const tx = db.transaction(['chunks', 'videos'], 'readwrite');
      for (let index = 0; index < chunkCount; index += 1) {
        const part = new Uint8Array(Math.min(CHUNK, bytes - index * CHUNK));
        for (let at = 0; at < part.length; at += 65_536) {
          crypto.getRandomValues(part.subarray(at, at + 65_536));
        }
        tx.objectStore('chunks').put({ videoId: id, index, data: new Blob([part]) });
      }
      tx.objectStore('videos').put({
        id,
        creatorId: first!.creatorId,
        recipientId: first!.recipientId,
        title,
        promptId: null,
        mimeType: 'video/webm',
        byteSize: bytes,
        durationMs: 60_000,
        chunkCount,
        createdAt: new Date().toISOString(),
        syncStatus: 'local_only',
        indexedAt: null,
      });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { title, bytes },
  );
}

/**
 * Waits until at least 32 chunks of a message have arrived on the new tablet (kept aside) and the
 * message is not yet in its library; answers how many of its chunks are here.
 */
async function waitForHalfAMessage(page: Page): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = await page.evaluate(async () => {
      const settle = <R>(request: IDBRequest<R>) =>
        new Promise<R>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const names = (await indexedDB.databases()).map((db) => db.name);
      if (!names.includes('memento-transfer')) return 0;
      const db = await settle(indexedDB.open('memento-transfer'));
      // A row holds the chunks that arrived together (`indexes`), or one chunk (`index`).
      const rows = (await settle(db.transaction('chunks').objectStore('chunks').getAll())) as {
        videoId: string;
        indexes?: number[];
      }[];
      db.close();
      const library = await settle(indexedDB.open('memento-videos'));
      let most = 0;
      for (const videoId of new Set(rows.map((row) => row.videoId))) {
        const videos = library.transaction('videos').objectStore('videos');
        if (await settle(videos.get(videoId))) continue;
        const chunks = rows
          .filter((row) => row.videoId === videoId)
          .reduce((sum, row) => sum + (row.indexes?.length ?? 1), 0);
        most = Math.max(most, chunks);
      }
      library.close();
      return most >= 32 ? most : 0;
    });
    if (found > 0) return found;
    if (Date.now() > deadline) throw new Error('No message was ever half way across');
    await page.waitForTimeout(25);
  }
}

/**
 * As a network that lets no packet through between the two tablets: each one's connection details
 * reach the other with no address in them (the handshake itself still crosses).
 */
async function withoutAPath(page: Page): Promise<void> {
  await page.route(/\/api\/transfers\/[^/]+\/signal$/, async (route) => {
    const request = route.request();
    if (request.method() !== 'PUT') return route.continue();
    const body = request.postDataJSON() as { description: string };
    const description = JSON.parse(body.description) as { sdp: string };
    description.sdp = description.sdp.replace(/a=(end-of-)?candidate[^\r\n]*\r\n/g, '');
    return route.continue({
      postData: JSON.stringify({ ...body, description: JSON.stringify(description) }),
    });
  });
}

/**
 * As two networks that reach each other only through the TURN server: each tablet's connection
 * details reach the other with only its relayed address in them.
 */
async function onlyThroughTheRelay(page: Page): Promise<void> {
  await page.route(/\/api\/transfers\/[^/]+\/signal$/, async (route) => {
    const request = route.request();
    if (request.method() !== 'PUT') return route.continue();
    const body = request.postDataJSON() as { description: string };
    const description = JSON.parse(body.description) as { sdp: string };
    description.sdp = description.sdp.replace(/a=candidate(?![^\r\n]* typ relay)[^\r\n]*\r\n/g, '');
    return route.continue({
      postData: JSON.stringify({ ...body, description: JSON.stringify(description) }),
    });
  });
}

/**
 * The new tablet takes the code and receives the one message the old tablet (`sender`: its page,
 * or the part of it showing the code) offers; both screens say so.
 */
async function receiveTheOneMessage(newTablet: Page, code: string, sender: Page | Locator) {
  await newTablet.getByRole('link', { name: 'Receive messages from my old device' }).click();
  await newTablet.getByLabel('Code from your old device').fill(code);
  await newTablet.getByRole('button', { name: 'Receive my messages' }).click();
  await expect(
    newTablet.getByRole('status').filter({ hasText: /message|Receiving|Connecting/ }),
  ).toHaveText('Your message is now on this device.', { timeout: 60_000 });
  await expect(sender.getByRole('status').filter({ hasText: /new device/ })).toHaveText(
    'Your message is on your new device. It is still on this device too.',
    { timeout: 30_000 },
  );
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

test.describe.serial('a Community Edition owner moves messages tablet to tablet', LONG_WAIT, () => {
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
    await moveAccountTo(newTablet, owner, server);

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
    // Opened again later from the same address: told the move is done, never 'code not valid'.
    await reopened.reload();
    await expect(receiverStatus).toHaveText(
      'This move is finished: your messages are already on this device.',
    );

    expect(await readLocalCopies(reopened)).toEqual(onOld);
    expect(await readLocalCopies(oldTablet)).toEqual(onOld);
  });

  test('a message cut half way through arrives whole once the page is back, each message once', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const oldTablet = await newDevice(browser, server);
    const owner = await registerUser(oldTablet, { firstName: 'Arthur' });
    await recordMessage(oldTablet, { title: 'For Anne, a short one', seconds: 3 });
    // Long enough (640 chunks) to close the page while it is half way across.
    await addLongMessage(oldTablet, 'For Anne, a long one', 40 * 1024 * 1024);
    await oldTablet.reload();
    const onOld = await readLocalCopies(oldTablet);
    expect(onOld.map((copy) => copy.title)).toEqual([
      'For Anne, a long one',
      'For Anne, a short one',
    ]);
    const shown = await showCode(oldTablet);

    const newTablet = await newDevice(browser, server);
    await moveAccountTo(newTablet, owner, server);
    await newTablet.getByRole('link', { name: 'Receive messages from my old device' }).click();
    await newTablet.getByLabel('Code from your old device').fill(shown);
    // An old, slow tablet: on loopback the whole message would cross before the page could close.
    const oldTabletCpu = await oldTablet.context().newCDPSession(oldTablet);
    await oldTabletCpu.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await newTablet.getByRole('button', { name: 'Receive my messages' }).click();
    const chunksHere = await waitForHalfAMessage(newTablet);
    const context = newTablet.context();
    await newTablet.close();
    await oldTabletCpu.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    expect(chunksHere).toBeGreaterThanOrEqual(32);

    const reopened = await context.newPage();
    await reopened.goto(`/receive-messages#code=${shown.replaceAll('-', '')}`);
    await expect(
      reopened.getByRole('status').filter({ hasText: /messages|Receiving/ }),
    ).toContainText('All 2 messages are now on this device.', { timeout: 120_000 });
    await expect(oldTablet.getByRole('status').filter({ hasText: /new device/ })).toContainText(
      'All 2 messages are on your new device. They are still on this device too.',
      { timeout: 30_000 },
    );
    // Each message once, byte for byte; nothing left aside half way.
    expect(await readLocalCopies(reopened)).toEqual(onOld);
    expect(await readLocalCopies(oldTablet)).toEqual(onOld);
    const leftAside = await reopened.evaluate(async () => {
      const open = indexedDB.open('memento-transfer');
      const db = await new Promise<IDBDatabase>(
        (resolve) => (open.onsuccess = () => resolve(open.result)),
      );
      const request = db.transaction('chunks').objectStore('chunks').count();
      const count = await new Promise<number>(
        (resolve) => (request.onsuccess = () => resolve(request.result)),
      );
      db.close();
      return count;
    });
    expect(leftAside).toBe(0);
  });

  test('the account moved first: the old tablet, signed out, still sends its messages with the password', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const oldTablet = await newDevice(browser, server);
    const owner = await registerUser(oldTablet, { firstName: 'June' });
    await recordMessage(oldTablet, { title: 'For Arthur', seconds: 2 });
    const onOld = await readLocalCopies(oldTablet);
    const newTablet = await newDevice(browser, server);
    await moveAccountTo(newTablet, owner, server);

    // The old tablet, signed out by the move, is told the account is elsewhere, and offered the
    // way to send what it keeps.
    await openApp(oldTablet, '/auth');
    await submitSignIn(oldTablet, owner);
    const denied = oldTablet.getByRole('alert', { name: 'Device Access Denied' });
    await expect(denied).toBeVisible();
    // Not asked whether the old device was lost: this is the old device.
    await expect(denied).toContainText('Would you like your account back on this device?');
    await expect(denied).not.toContainText('Was your old device lost');
    const leftHere = oldTablet.getByRole('region', { name: 'Messages still on this device' });
    await leftHere.getByRole('button', { name: 'Send my messages to my new device' }).click();
    await leftHere.getByRole('button', { name: 'Show the code' }).click();
    const code = leftHere.getByTestId('transfer-code');
    await expect(code).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/, {
      timeout: 30_000,
    });
    await scanAtBothSizes(oldTablet, testInfo, 'signed-out old tablet, code shown');

    await receiveTheOneMessage(newTablet, (await code.textContent()) ?? '', leftHere);
    expect(await readLocalCopies(newTablet)).toEqual(onOld);
    expect(await readLocalCopies(oldTablet)).toEqual(onOld);
    // The password used on a device that no longer holds the account is on the owner's log.
    await newTablet.goto('/audit-logs');
    await expect(
      newTablet.getByText('Messages offered from a signed-out old device').first(),
    ).toBeVisible();
  });

  test('on a network that lets no connection through, both tablets say so and offer the backup file', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const oldTablet = await newDevice(browser, server);
    const owner = await registerUser(oldTablet, { firstName: 'Mabel' });
    await recordMessage(oldTablet, { title: 'For Joan', seconds: 2 });
    await withoutAPath(oldTablet);
    const shown = await showCode(oldTablet);
    const newTablet = await newDevice(browser, server);
    await withoutAPath(newTablet);
    await moveAccountTo(newTablet, owner, server);
    await newTablet.getByRole('link', { name: 'Receive messages from my old device' }).click();
    await newTablet.getByLabel('Code from your old device').fill(shown);
    await newTablet.getByRole('button', { name: 'Receive my messages' }).click();

    for (const tablet of [newTablet, oldTablet]) {
      const note = tablet.getByRole('alert').filter({
        hasText: 'These two devices cannot reach each other.',
      });
      await expect(note).toBeVisible({ timeout: 60_000 });
      await expect(note).toContainText('use a backup file instead');
      await expect(note.getByRole('button', { name: 'Download Backup' })).toBeVisible();
    }
    await scanAtBothSizes(newTablet, testInfo, 'receive messages, cannot connect');
    await scanAtBothSizes(oldTablet, testInfo, 'move my messages, cannot connect');
    expect(await readLocalCopies(newTablet)).toEqual([]);
  });
});

test.describe('a move through the TURN server an operator set up', LONG_WAIT, () => {
  let turn: TurnServer | undefined;
  let server: OwnServer | undefined;

  test.beforeAll(async () => {
    turn = await startTurnServer();
    server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, WEBRTC_ICE_SERVERS: turn.iceServers },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await turn?.stop();
  });

  test('two tablets that can reach each other only through the relay move a message byte for byte', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const oldTablet = await newDevice(browser, server!);
    const owner = await registerUser(oldTablet, { firstName: 'Ivy' });
    await recordMessage(oldTablet, { title: 'For Rose', seconds: 2 });
    const onOld = await readLocalCopies(oldTablet);
    await onlyThroughTheRelay(oldTablet);
    const shown = await showCode(oldTablet);
    const newTablet = await newDevice(browser, server!);
    await onlyThroughTheRelay(newTablet);
    await moveAccountTo(newTablet, owner, server!);
    await receiveTheOneMessage(newTablet, shown, oldTablet);
    expect(await readLocalCopies(newTablet)).toEqual(onOld);
    // The bytes went through coturn: it gave both tablets a relayed address, as the user the
    // setting names.
    const allocations = turn!
      .log()
      .split('\n')
      .filter((line) => line.includes(`user <${turn!.username}>`) && /ALLOCATE/.test(line));
    expect(allocations.length).toBeGreaterThanOrEqual(2);
  });
});
