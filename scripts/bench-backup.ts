// `npm run bench:backup`: backups of a large synthetic library in Chromium, through the app's own
// dialogs. Videos are a real recording's bytes (src/web/public/media/banner.webm) repeated into
// 100 MB videos of 4 MiB chunk rows, written straight into the browser's IndexedDB. For a plain
// and a sealed backup it times: writing the backup (the save picker hands out a file in the
// page's private file system, so the streaming path runs), restoring it after the videos are
// gone, and, in the same run, copying the same bytes with no zip at all (IndexedDB → file, and
// file → IndexedDB). It samples the JS heap of the page and of the backup worker while each runs.
//
// BENCH_BACKUP_GB=5 (default 5) sets the library's size; the numbers go in docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildServerUnlessCurrent } from './build-server.mjs';
import { buildWebUnlessCurrent } from './build-web.mjs';
import { startServer, stopServer, waitForHealth } from './bench-support';

const LIBRARY_GB = Number(process.env.BENCH_BACKUP_GB ?? 5);
const VIDEO_MB = 100;
const CHUNK_BYTES = 4 * 1024 * 1024;
const PASSPHRASE = 'Blue kettle, 42 daisies!';
const port = 5800 + (process.pid % 100);
const base = `http://127.0.0.1:${port}`;

/** Signs up in the page as the app does, so the browser holds the session and device. */
async function signUp(page: Page): Promise<number> {
  await page.goto(`${base}/auth`);
  await page.waitForFunction(() => localStorage.getItem('deviceId') !== null);
  return page.evaluate(async () => {
    const headers = {
      'Content-Type': 'application/json',
      'X-Device-ID': localStorage.getItem('deviceId') ?? '',
    };
    const post = async (url: string, body: unknown) => {
      const response = await fetch(url, {
        method: 'POST',
        credentials: 'include',
        headers,
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const fingerprint = [
      navigator.userAgent,
      `${screen.width}x${screen.height}`,
      String(screen.colorDepth),
      navigator.language,
      String(new Date().getTimezoneOffset()),
      navigator.platform,
    ].join('|');
    await post('/api/register', {
      firstName: 'Bench',
      lastName: 'Owner',
      email: 'bench-backup@example.test',
      username: 'benchbackup',
      password: 'Tulips&Tea-2026',
      category: 'primary',
      createdById: null,
      tosAccepted: true,
      tosAcceptedAt: new Date().toISOString(),
      deviceId: localStorage.getItem('deviceId'),
      fingerprint,
    });
    const kin = await post('/api/recipients', {
      firstName: 'Susan',
      lastName: 'Hill',
      email: 'susan@example.test',
      phoneNumber: '+44 7700 900123',
      relationship: 'Daughter',
      category: 'next_of_kin',
    });
    await post('/api/user/complete-onboarding', {});
    const user = (await (await fetch('/api/user', { headers })).json()) as { id: number };
    localStorage.setItem('benchRecipientId', String(kin.id));
    return user.id;
  });
}

/** Writes the synthetic library into the app's IndexedDB, video by video. */
async function seedLibrary(page: Page, creatorId: number, videoCount: number) {
  await page.evaluate(
    async ({ creatorId, videoCount, videoBytes, chunkBytes }) => {
      const source = new Uint8Array(await (await fetch('/media/banner.webm')).arrayBuffer());
      const chunk = new Uint8Array(chunkBytes);
      for (let at = 0; at < chunkBytes; at += source.length) {
        chunk.set(source.subarray(0, Math.min(source.length, chunkBytes - at)), at);
      }
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const db = await settle(indexedDB.open('memento-videos'));
      const recipientId = Number(localStorage.getItem('benchRecipientId'));
      const chunkCount = Math.ceil(videoBytes / chunkBytes);
      for (let index = 0; index < videoCount; index += 1) {
        const id = crypto.randomUUID();
        // One chunk a transaction: many pending Blobs at once stall the browser's blob store.
        for (let part = 0; part < chunkCount; part += 1) {
          // Each video differs in its first bytes, so no two hash alike.
          const data = part === 0 ? new Blob([String(index), chunk]) : new Blob([chunk]);
          const write = db.transaction('chunks', 'readwrite');
          write.objectStore('chunks').put({ videoId: id, index: part, data });
          await new Promise((resolve, reject) => {
            write.oncomplete = resolve;
            write.onerror = () => reject(write.error);
            write.onabort = () => reject(write.error);
          });
        }
        const tx = db.transaction(['videos'], 'readwrite');
        tx.objectStore('videos').put({
          id,
          creatorId,
          recipientId,
          title: `Bench message ${index + 1}`,
          promptId: null,
          mimeType: 'video/webm',
          byteSize: chunkCount * chunkBytes + String(index).length,
          durationMs: 600_000,
          chunkCount,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
          syncStatus: 'local_only',
          indexedAt: new Date().toISOString(),
        });
        await new Promise((resolve, reject) => {
          tx.oncomplete = resolve;
          tx.onerror = () => reject(tx.error);
        });
      }
      db.close();
    },
    { creatorId, videoCount, videoBytes: VIDEO_MB * 1024 * 1024, chunkBytes: CHUNK_BYTES },
  );
}

/** The same bytes, IndexedDB → a file in the private file system, with no zip: the yardstick. */
function copyLibraryToFile(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const started = performance.now();
    const db = await settle(indexedDB.open('memento-videos'));
    const videos = (await settle(db.transaction('videos').objectStore('videos').getAll())) as {
      id: string;
    }[];
    const root = await navigator.storage.getDirectory();
    const writable = await (await root.getFileHandle('baseline.bin', { create: true })).createWritable();
    for (const video of videos) {
      const chunks = (await settle(
        db
          .transaction('chunks')
          .objectStore('chunks')
          .getAll(IDBKeyRange.bound([video.id, 0], [video.id, Infinity])),
      )) as { data: Blob }[];
      for (const chunk of chunks) await writable.write(chunk.data);
    }
    await writable.close();
    db.close();
    const seconds = (performance.now() - started) / 1000;
    await root.removeEntry('baseline.bin');
    return seconds;
  });
}

/** The reverse yardstick: a file's bytes into IndexedDB as 4 MiB chunk rows, then removed. */
function copyFileToLibrary(page: Page, fileName: string): Promise<number> {
  return page.evaluate(
    async ({ fileName, chunkBytes }) => {
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const root = await navigator.storage.getDirectory();
      const file = await (await root.getFileHandle(fileName)).getFile();
      const started = performance.now();
      const db = await settle(indexedDB.open('memento-videos'));
      const videoId = 'baseline';
      for (let at = 0, index = 0; at < file.size; at += chunkBytes * 25) {
        const tx = db.transaction('chunks', 'readwrite');
        for (let part = at; part < Math.min(file.size, at + chunkBytes * 25); part += chunkBytes) {
          const data = file.slice(part, part + chunkBytes);
          tx.objectStore('chunks').put({ videoId, index: index++, data });
        }
        await new Promise((resolve) => (tx.oncomplete = resolve));
      }
      const seconds = (performance.now() - started) / 1000;
      const tx = db.transaction('chunks', 'readwrite');
      tx.objectStore('chunks').delete(IDBKeyRange.bound([videoId, 0], [videoId, Infinity]));
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
      return seconds;
    },
    { fileName, chunkBytes: CHUNK_BYTES },
  );
}

/** Samples the page's and the backup worker's JS heap until `work` ends; returns the peaks. */
async function withHeapPeaks<T>(page: Page, work: () => Promise<T>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const peaks = { page: 0, worker: 0 };
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
      peaks.page = Math.max(peaks.page, used);
      for (const worker of page.workers()) {
        const heap = await worker
          .evaluate(
            () => (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize,
          )
          .catch(() => undefined);
        if (heap) peaks.worker = Math.max(peaks.worker, heap);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    const value = await work();
    return { value, peaks };
  } finally {
    running = false;
    await sampling;
    await cdp.detach();
  }
}

async function writeBackup(page: Page, sealed: boolean): Promise<number> {
  await page.goto(`${base}/`);
  const card = page.getByRole('region', { name: 'Storage and backups' });
  await card.getByRole('button', { name: 'Download Backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download Backup' });
  if (sealed) {
    await dialog.getByText('Protect this backup with a passphrase').click();
    await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await dialog.getByLabel('Type the passphrase again').fill(PASSPHRASE);
  }
  const started = performance.now();
  await dialog.getByRole('button', { name: 'Download' }).click();
  await dialog.getByText('Your backup is ready').waitFor({ timeout: 30 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  await dialog.getByRole('button', { name: 'Done' }).click();
  return seconds;
}

async function deleteVideos(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase('memento-videos');
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }),
  );
  await page.reload();
}

async function restoreBackup(page: Page, fileName: string, sealed: boolean): Promise<number> {
  const card = page.getByRole('region', { name: 'Storage and backups' });
  await card.waitFor();
  const started = performance.now();
  // The file the picker saved, given to the restore's file input as a person's choice would be.
  await page.evaluate(async (fileName) => {
    const root = await navigator.storage.getDirectory();
    const file = await (await root.getFileHandle(fileName)).getFile();
    const input = document.querySelector<HTMLInputElement>('input[type=file][accept*=zip]')!;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, fileName);
  const dialog = page.getByRole('dialog', { name: 'Restore from Backup' });
  if (sealed) {
    await dialog.getByLabel('Passphrase').fill(PASSPHRASE);
    await dialog.getByRole('button', { name: 'Restore' }).click();
  }
  await dialog.getByTestId('restore-result').waitFor({ timeout: 30 * 60_000 });
  const seconds = (performance.now() - started) / 1000;
  const text = await dialog.getByTestId('restore-result').innerText();
  if (!text.includes('Restored')) throw new Error(`Restore said: ${text}`);
  await dialog.getByRole('button', { name: 'Done' }).click();
  return seconds;
}

const mbps = (bytes: number, seconds: number) => Math.round(bytes / 1024 / 1024 / seconds);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main() {
  await buildServerUnlessCurrent();
  await buildWebUnlessCurrent();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
  const server = startServer({ port, dataDir });
  // A profile on disk: an incognito profile's storage quota is far below a real library.
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'bench-backup-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--enable-precise-memory-info'],
  });
  try {
    await waitForHealth(base);
    // tsx keeps function names with a helper the page does not have; the evaluated code needs it.
    await context.addInitScript('globalThis.__name = (target) => target;');
    await context.addInitScript(() => {
      (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = async (options: {
        suggestedName: string;
      }) => {
        const root = await navigator.storage.getDirectory();
        localStorage.setItem('savedFileName', options.suggestedName);
        return root.getFileHandle(options.suggestedName, { create: true });
      };
    });
    // A step that hangs fails with its place named, rather than waiting for ever.
    context.setDefaultTimeout(120_000);
    const page = context.pages()[0] ?? (await context.newPage());
    const userId = await signUp(page);
    await page.goto(`${base}/`);
    await page.getByRole('region', { name: 'Storage and backups' }).waitFor();
    // The app creates its video store on load; seeding waits for it, and for the page to settle.
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(async () =>
      (await indexedDB.databases()).some((db) => db.name === 'memento-videos' && db.version! > 1),
    );
    const videoCount = Math.round((LIBRARY_GB * 1024) / VIDEO_MB);
    const seedStarted = performance.now();
    await seedLibrary(page, userId, videoCount);
    const bytes = videoCount * VIDEO_MB * 1024 * 1024;
    console.log(
      `Library: ${videoCount} videos of ${VIDEO_MB} MB, ${(bytes / 1024 ** 3).toFixed(1)} GiB, seeded in ${Math.round((performance.now() - seedStarted) / 1000)} s`,
    );

    for (const sealed of [false, true]) {
      const label = sealed ? 'sealed' : 'plain';
      const step = (what: string) => console.log(`  ${label}: ${what}`);
      step('copying IndexedDB → file');
      const copyOut = await copyLibraryToFile(page);
      step('writing the backup');
      const write = await withHeapPeaks(page, () => writeBackup(page, sealed));
      const fileName = await page.evaluate(() => localStorage.getItem('savedFileName') ?? '');
      step('copying file → IndexedDB');
      const copyIn = await copyFileToLibrary(page, fileName);
      step('clearing the videos');
      await deleteVideos(page);
      step('restoring');
      const restore = await withHeapPeaks(page, () => restoreBackup(page, fileName, sealed));
      await page.evaluate(async (fileName) => {
        await (await navigator.storage.getDirectory()).removeEntry(fileName);
      }, fileName);
      console.log(
        [
          `${label}: write ${write.value.toFixed(1)} s (${mbps(bytes, write.value)} MB/s) vs copy IndexedDB → file ${copyOut.toFixed(1)} s (${mbps(bytes, copyOut)} MB/s): ${(copyOut / write.value).toFixed(2)}×`,
          `  peak JS heap while writing: page ${mb(write.peaks.page)} MB, worker ${write.peaks.worker ? `${mb(write.peaks.worker)} MB` : 'not readable'}`,
          `${label}: restore ${restore.value.toFixed(1)} s (${mbps(bytes, restore.value)} MB/s) vs copy file → IndexedDB ${copyIn.toFixed(1)} s (${mbps(bytes, copyIn)} MB/s): ${(copyIn / restore.value).toFixed(2)}×`,
          `  peak JS heap while restoring: page ${mb(restore.peaks.page)} MB, worker ${restore.peaks.worker ? `${mb(restore.peaks.worker)} MB` : 'not readable'}`,
        ].join('\n'),
      );
    }
  } finally {
    await context.close();
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profileDir, { recursive: true, force: true });
  }
}

await main();
