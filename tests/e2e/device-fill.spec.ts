import type { Browser, Page, Route } from '@playwright/test';
import { OFFLINE_MESSAGES } from '../../src/web/features/offline/offline-messages';
import { expect, registerPremiumUser, test, pageOn } from './fixtures';
import { expectNoSeriousViolations, saveShotIfAsked } from './support/axe';
import { moveAccountHere } from './support/devices';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer, type OwnServer } from './support/own-server';
import { startS3Server } from '../setup/s3';
import { recordMessage } from './support/recording';

// A premium owner moves their account to a new tablet: every message in the cloud comes down
// to it by itself, checked, while the old device keeps its own copies. The server is the test's
// own, so the owner can be put on a paid plan.

type TestS3 = Awaited<ReturnType<typeof startS3Server>>;

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 768 },
} as const;

interface TLocalCopy {
  id: string;
  title: string;
  syncStatus: string;
  sha256: string;
}

async function newDevice(browser: Browser, server: OwnServer): Promise<Page> {
  return pageOn(browser, server, { viewport: VIEWPORTS.laptop });
}

/** The messages in this browser's local library (IndexedDB), with the SHA-256 of each one's bytes. */
function readLocalCopies(page: Page): Promise<TLocalCopy[]> {
  return page.evaluate(async () => {
    const settle = <R>(request: IDBRequest<R>) =>
      new Promise<R>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const store = (name: string) => db.transaction(name, 'readonly').objectStore(name);
    const videos = await settle(store('videos').getAll());
    const copies = [];
    for (const video of videos as { id: string; title: string; syncStatus: string }[]) {
      const chunks = (await settle(store('chunks').index('videoId').getAll(video.id))) as {
        index: number;
        data: Blob;
      }[];
      chunks.sort((a, b) => a.index - b.index);
      const bytes = await new Blob(chunks.map((chunk) => chunk.data)).arrayBuffer();
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      const sha256 = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
      copies.push({ id: video.id, title: video.title, syncStatus: video.syncStatus, sha256 });
    }
    db.close();
    return copies.sort((a, b) => a.title.localeCompare(b.title));
  });
}

/** Holds back the first download of this message's cloud copy until the test lets it go. */
function holdFirstDownload(page: Page, videoId: string) {
  let release: (route: Route) => void = () => undefined;
  const held = new Promise<Route>((resolve) => (release = resolve));
  let isHeld = false;
  void page.route(
    (url) => url.pathname === `/api/videos/${videoId}/content`,
    async (route) => {
      if (isHeld) return route.continue();
      isHeld = true;
      release(route);
    },
  );
  return held;
}

test.describe.serial('a premium owner’s new device fills itself from the cloud', () => {
  let server: OwnServer;

  test.beforeAll(async () => {
    // Another address is the installation's admin, so the owner is an ordinary account.
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('every message comes down checked, through a lost connection, and the old device keeps its own', async ({
    browser,
  }, testInfo) => {
    // A sign-up, two recordings sent to the cloud and a move: on a busy machine over two minutes.
    test.setTimeout(180_000);
    const deviceA = await newDevice(browser, server);
    const owner = await registerPremiumUser(deviceA, server, { firstName: 'Edith' });
    for (const title of ['For Susan, with love', 'For Tom, on his birthday']) {
      await recordMessage(deviceA, { title, seconds: 3 });
      await expect(deviceA.getByRole('listitem').filter({ hasText: title })).toContainText(
        'In the cloud and on this device',
        { timeout: 60_000 },
      );
    }
    const onA = await readLocalCopies(deviceA);
    expect(onA.map((copy) => copy.title)).toEqual([
      'For Susan, with love',
      'For Tom, on his birthday',
    ]);

    // Device B: a new tablet. The older message (the second to come down) is held on its way,
    // so the connection can be lost in the middle.
    const deviceB = await newDevice(browser, server);
    // The chunks are written by the page's chunk writer (a worker of its own).
    const writerLoads: string[] = [];
    deviceB.on('requestfinished', (request) => {
      if (/\/assets\/chunk-writer\.worker-[^/]+\.js$/.test(request.url())) {
        writerLoads.push(request.url());
      }
    });
    // The download is held from the dashboard the move opens afresh, not from the one it replaces.
    await moveAccountHere(deviceB, server, owner);
    const held = holdFirstDownload(deviceB, onA[0]!.id);
    await expect(
      deviceB.getByRole('heading', { name: `Welcome, ${owner.firstName}` }),
    ).toBeVisible();

    const line = deviceB
      .getByRole('status')
      .filter({ hasText: /Bringing your messages|on this device\./ });
    await expect(line).toHaveText('Bringing your messages to this device: 1 of 2', {
      timeout: 30_000,
    });

    // The line stands still while the second message is held: scanned at both sizes (before
    // the connection goes, since a phone-sized page loads code of its own).
    const route = await held;
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await deviceB.setViewportSize(viewport);
      await expect(line).toBeVisible();
      await expectNoSeriousViolations(deviceB, testInfo, `dashboard bringing messages (${name})`);
      await saveShotIfAsked(deviceB, 'dashboard-bringing-messages');
    }

    await deviceB.context().setOffline(true);
    await route.abort('internetdisconnected').catch(() => undefined);
    await expect(line).toContainText(
      'Bringing your messages to this device: 1 of 2. Waiting for the connection to come back',
    );
    // The page stays, with the offline line (fetched while the network was there).
    await expect(deviceB.getByText(OFFLINE_MESSAGES.safe)).toBeVisible();
    await deviceB.context().setOffline(false);
    await expect(line).toHaveText('All 2 messages are on this device.', { timeout: 60_000 });
    await expect(
      deviceB.getByRole('listitem').filter({ hasText: 'For Susan, with love' }),
    ).toContainText('In the cloud and on this device');

    // Each message once, byte for byte what device A recorded.
    expect(writerLoads.length).toBeGreaterThan(0);
    // The chunk writer fetched the copies: the page asked for their addresses and never for
    // their bytes.
    const pageAskedFor = await deviceB.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    );
    expect(pageAskedFor.filter((path) => path.endsWith('/playback')).length).toBeGreaterThan(0);
    expect(pageAskedFor.filter((path) => path.endsWith('/content'))).toEqual([]);
    const onB = await readLocalCopies(deviceB);
    expect(onB).toEqual(onA.map((copy) => ({ ...copy, syncStatus: 'synced' })));
    // Device A's own copies are untouched.
    expect(await readLocalCopies(deviceA)).toEqual(onA);

    // A later visit has nothing to bring, and says nothing. (A page chunk missed while offline
    // makes the app reload by itself once the server answers: a visit meeting it is made again.)
    await expect(async () => {
      await deviceB.goto('/');
    }).toPass({ timeout: 30_000 });
    await expect(
      deviceB.getByRole('heading', { name: 'Your messages in the cloud' }),
    ).toBeVisible();
    await expect(deviceB.getByTestId('cloud-fill')).toBeEmpty();
    expect(await readLocalCopies(deviceB)).toHaveLength(2);
  });
});

test.describe.serial('in S3 mode, a new device fills itself from the bucket', () => {
  let s3: TestS3;
  let server: OwnServer;

  test.beforeAll(async () => {
    // A real S3-compatible server: recordings go up to it and come down from it, signed.
    s3 = await startS3Server();
    server = await startOwnServer({ env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ...s3.env } });
  });
  test.afterAll(async () => {
    await server?.stop();
    await s3?.close();
  });

  test('every message comes down from the bucket, checked, once each, fetched by the chunk writer and on a browser that cannot run it', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const deviceA = await newDevice(browser, server);
    const owner = await registerPremiumUser(deviceA, server, { firstName: 'Walter' });
    for (const title of ['For Ruth, from Dad', 'For Sam, when you are grown']) {
      await recordMessage(deviceA, { title, seconds: 3 });
      await expect(deviceA.getByRole('listitem').filter({ hasText: title })).toContainText(
        'In the cloud and on this device',
        { timeout: 60_000 },
      );
    }
    const onA = await readLocalCopies(deviceA);

    // A new tablet whose chunk writer fetches the copies from the bucket, then another that
    // cannot run it (as in a browser without module workers: its script never arrives), whose
    // page fetches them itself.
    for (const canRunWriter of [true, false]) {
      const device = await newDevice(browser, server);
      let writerAsked = 0;
      await device.route(/\/assets\/chunk-writer\.worker-[^/]+\.js$/, async (route) => {
        writerAsked += 1;
        await (canRunWriter ? route.continue() : route.abort());
      });
      const fromBucket: string[] = [];
      device.on('requestfinished', (request) => {
        if (request.url().startsWith(s3.endpoint) && request.method() === 'GET') {
          fromBucket.push(new URL(request.url()).pathname);
        }
      });
      // The second tablet's email is the newer one.
      await moveAccountHere(device, server, owner, canRunWriter ? 1 : 2);
      const line = device
        .getByRole('status')
        .filter({ hasText: /Bringing your messages|on this device\./ });
      await expect(line).toHaveText('All 2 messages are on this device.', { timeout: 90_000 });

      // Each copy came from the bucket, once; each message is here once, byte for byte.
      expect(writerAsked).toBeGreaterThan(0);
      expect(fromBucket).toHaveLength(2);
      expect(new Set(fromBucket).size).toBe(2);
      const pageAskedFor = await device.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => entry.name),
      );
      const pageFetchedCopies = pageAskedFor.filter((url) => url.startsWith(s3.endpoint));
      expect(pageFetchedCopies).toHaveLength(canRunWriter ? 0 : 2);
      expect(await readLocalCopies(device)).toEqual(
        onA.map((copy) => ({ ...copy, syncStatus: 'synced' })),
      );
    }
    expect(await readLocalCopies(deviceA)).toEqual(onA);
  });
});
