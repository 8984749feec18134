import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { compositeChecksumInput } from '../../src/shared/domain/composite-checksum';
import { WRAP_LABEL_PARTS } from '../../src/shared/schemas/encryption';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import type { TRecipientList } from '../../src/shared/schemas/recipients';
import type { TVideoIndexEntry } from '../../src/shared/schemas/videos';
import { openStream, unwrapKey, wrapLabel } from '../../src/shared/sealing';
import {
  LONG_WAIT_ON_ENGINE,
  expect,
  registerPremiumUser,
  test,
  toastMessage,
  type RegisteredUser,
} from './fixtures';
import { E2E_ADMIN_EMAIL } from './support/installation';
import { startOwnServer } from './support/own-server';
import { callApi } from './support/page-api';
import { findStoredObject, openAccountKey } from './support/sealed-messages';

// A sealed message is sealed part by part while it is sent. The tab is closed in the middle of
// the upload and opened again: the upload goes on from the part that was on its way, sealed again
// byte for byte, and what the cloud keeps opens to exactly the recording.

const PART_BYTES = 8 * 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

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

/**
 * Puts a saved recording into the page's library as the app keeps one (4 MiB chunk rows and the
 * video row, not yet indexed), from a file input as a person's choice would arrive.
 */
async function putInLibrary(
  page: Page,
  bytes: Buffer,
  row: { id: string; title: string; creatorId: number; recipientId: number },
) {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'resume-input';
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#resume-input', {
    name: 'message.webm',
    mimeType: 'video/webm',
    buffer: bytes,
  });
  await page.evaluate(async (row) => {
    const input = document.querySelector<HTMLInputElement>('#resume-input')!;
    const file = input.files![0]!;
    const chunkBytes = 4 * 1024 * 1024;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('memento-videos');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const chunkCount = Math.ceil(file.size / chunkBytes);
    const tx = db.transaction(['chunks', 'videos'], 'readwrite');
    for (let index = 0; index < chunkCount; index += 1) {
      const data = file.slice(index * chunkBytes, (index + 1) * chunkBytes, 'video/webm');
      tx.objectStore('chunks').put({ videoId: row.id, index, data });
    }
    tx.objectStore('videos').put({
      ...row,
      promptId: null,
      mimeType: 'video/webm',
      byteSize: file.size,
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
    input.remove();
  }, row);
}

/** The names of the files in the site's private folder of sealed parts on their way. */
function outgoingPartFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle('outgoing-parts', { create: true });
    const names: string[] = [];
    for await (const name of folder.keys()) names.push(name);
    return names.sort();
  });
}

/** The video's sync state in the page's library. */
function syncStatusOf(page: Page, videoId: string) {
  return page.evaluate(async (videoId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('memento-videos');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const row = await new Promise<{ syncStatus: string } | undefined>((resolve, reject) => {
      const get = db.transaction('videos').objectStore('videos').get(videoId);
      get.onsuccess = () => resolve(get.result as { syncStatus: string } | undefined);
      get.onerror = () => reject(get.error);
    });
    db.close();
    return row?.syncStatus ?? null;
  }, videoId);
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

test(
  'a sealed upload cut off by closing the tab sends at most one part again, and the cloud copy opens to the recording',
  LONG_WAIT_ON_ENGINE,
  async ({ browser }) => {
    test.setTimeout(300_000);
    const server = await startOwnServer({
      env: { ADMIN_EMAIL: E2E_ADMIN_EMAIL, ENHANCED_ENCRYPTION: 'true' },
    });
    try {
      const context = await browser.newContext({
        baseURL: server.url,
        extraHTTPHeaders: {
          'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`,
        },
      });
      const first = await context.newPage();
      const owner = await registerPremiumUser(first, server, { firstName: 'Edith' });
      await turnOnEncryption(first, owner);
      await first.goto('/');
      const { id: userId } = await callApi<{ id: number }>(first, 'GET', '/api/user');
      const { recipients } = await callApi<TRecipientList>(first, 'GET', '/api/recipients');

      // Three parts once sealed, the recording's first bytes a WebM's.
      const recording = randomBytes(2 * PART_BYTES + 3 * 1024 * 1024);
      recording.set([0x1a, 0x45, 0xdf, 0xa3], 0);
      const videoId = randomUUID();

      // Every part PUT this browser starts, and the ones that arrived.
      const started: number[] = [];
      const arrived: number[] = [];
      const partOf = (url: string) => Number(/\/parts\/(\d+)$/.exec(new URL(url).pathname)?.[1]);
      context.on('request', (request) => {
        if (request.method() === 'PUT' && partOf(request.url()))
          started.push(partOf(request.url()));
      });
      context.on('requestfinished', async (request) => {
        if (request.method() !== 'PUT' || !partOf(request.url())) return;
        if ((await request.response())?.ok()) arrived.push(partOf(request.url()));
      });

      // Part 2 is held in the browser once it sets off, so the tab closes with it on its way
      // (a slow uplink was not enough: on a busy machine the part sometimes arrived first).
      await first.route(
        (url) => partOf(url.href) === 2,
        () => undefined,
      );
      await putInLibrary(first, recording, {
        id: videoId,
        title: 'For Susan, a long one',
        creatorId: userId,
        recipientId: recipients[0]!.id,
      });
      await first.evaluate(() => window.dispatchEvent(new Event('memento:sync-request')));
      await expect.poll(() => started.length, { timeout: 120_000 }).toBe(2);
      await expect.poll(() => arrived).toEqual([1]);
      await first.close();

      // The tab opened again: the upload goes on, with no slow uplink.
      const second = await context.newPage();
      await second.goto('/');
      // Sealed parts go from files in the site's private folder; the closed tab left its own.
      const leftByClosedTab = await outgoingPartFiles(second);
      expect(leftByClosedTab.length).toBeGreaterThan(0);
      await second.evaluate(() => window.dispatchEvent(new Event('memento:sync-request')));
      await expect
        .poll(() => syncStatusOf(second, videoId), { timeout: 120_000, intervals: [500] })
        .toBe('synced');
      // Each part's file was removed once the part arrived; only the closed tab's remain, for
      // the clearing of files an hour old.
      expect(await outgoingPartFiles(second)).toEqual(leftByClosedTab);

      // Part 1 went once; the part on its way when the tab closed, once more; nothing else again.
      expect(arrived.sort()).toEqual([1, 2, 3]);
      expect(started.filter((part) => part === 1)).toHaveLength(1);
      expect(started.length).toBeLessThanOrEqual(3 + 1);

      // The cloud copy: sealed (never the recording's bytes), known by its parts' composite
      // checksum, and it opens with the owner's key to exactly the recording.
      const playback = await callApi<TPlayback>(second, 'GET', `/api/videos/${videoId}/playback`);
      const stored = await readFile(await findStoredObject(server.dataDir, playback.url));
      expect(stored.subarray(0, 4).toString()).toBe('MMSV');
      expect(stored.includes(recording.subarray(0, 64))).toBe(false);
      const sums = [0, 1, 2].map((n) =>
        sha256(stored.subarray(n * PART_BYTES, (n + 1) * PART_BYTES)),
      );
      const index = await callApi<TVideoIndexEntry[]>(second, 'GET', '/api/videos');
      expect(index.find((entry) => entry.id === videoId)?.sha256).toBe(
        sha256(compositeChecksumInput(sums)),
      );
      const accountKey = await openAccountKey(second, owner.password);
      const contentKey = await unwrapKey(
        playback.sealed!.keyWrap!,
        accountKey,
        wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)),
        'content',
      );
      const opened = await readAll(openStream(contentKey, new Blob([stored]).stream(), videoId));
      expect(opened.equals(recording)).toBe(true);

      // Deleting the message deletes the part files the closed tab left too.
      const kin = `${recipients[0]!.firstName} ${recipients[0]!.lastName}`;
      await second.goto('/recipients');
      await second
        .getByRole('listitem')
        .filter({ has: second.getByRole('heading', { name: kin }) })
        .getByRole('button', { name: `View Videos for ${kin}` })
        .click();
      const list = second.getByRole('dialog', { name: `Videos for ${kin}` });
      await list.getByRole('checkbox', { name: 'Select For Susan, a long one' }).check();
      await list.getByRole('button', { name: 'Delete selected' }).click();
      await list.getByRole('button', { name: 'Yes, delete' }).click();
      await expect(toastMessage(second, 'Video deleted')).toBeVisible();
      expect(await outgoingPartFiles(second)).toEqual([]);
    } finally {
      await server.stop();
    }
  },
);
