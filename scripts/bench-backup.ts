// `npm run bench:backup`: backups of a large synthetic library in Chromium, through the app's own
// dialogs. Videos are a real recording's bytes (src/web/public/media/banner.webm) repeated into
// 100 MB videos of 4 MiB chunk rows, written straight into the browser's IndexedDB. For a plain
// and a sealed backup it times: writing the backup (the save picker hands out a file in the
// page's private file system, so the streaming path runs), restoring it after the videos are
// gone, and, in the same run, copying the same bytes with no zip at all (IndexedDB → file, and
// file → IndexedDB). It samples the JS heap of the page and of the backup worker while each runs,
// and the ArrayBuffers each holds outside that heap (a whole video, for its SHA-256).
//
// BENCH_BACKUP_PROFILE_DIR=<dir> also writes the backup worker's CPU profile of each step there.
// BENCH_BACKUP_GB=5 (default 5) sets the library's size; the numbers go in docs/benchmarks.md.
// BENCH_BACKUP_ONLY=plain (or sealed) runs one kind, for a quicker look while changing the code.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildServerUnlessCurrent } from './build-server.mjs';
import { buildWebUnlessCurrent } from './build-web.mjs';
import { startServer, stopServer, waitForHealth } from './bench-support';
import { copyFileToLibrary, copyLibraryToFile, seedLibrary } from './bench/backup-library';
import { describePeaks, withHeapPeaks } from './bench/heap-peaks';

const LIBRARY_GB = Number(process.env.BENCH_BACKUP_GB ?? 5);
/** BENCH_BACKUP_PROFILE_DIR=<dir>: the backup worker's CPU profile of each step is written there. */
const PROFILE_DIR = process.env.BENCH_BACKUP_PROFILE_DIR;
const KINDS = (process.env.BENCH_BACKUP_ONLY ?? 'plain,sealed').split(',');
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

async function main() {
  await buildServerUnlessCurrent();
  await buildWebUnlessCurrent();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-backup-'));
  // The owner is not the installation's admin: an admin has the cloud, and its sync would read and
  // upload the whole library beside every step measured here. An address nobody registers with
  // is the admin's.
  const server = startServer({ port, dataDir, env: { ADMIN_EMAIL: 'admin@bench.invalid' } });
  // A profile on disk: an incognito profile's storage quota is far below a real library.
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'bench-backup-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Chromium reports a made-up quota of 10 GiB unless told not to; the library and its backup
    // files need more.
    args: ['--disable-features=StaticStorageQuota'],
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
    await seedLibrary(page, {
      creatorId: userId,
      videoCount,
      videoBytes: VIDEO_MB * 1024 * 1024,
      chunkBytes: CHUNK_BYTES,
    });
    const bytes = videoCount * VIDEO_MB * 1024 * 1024;
    const estimate = await page.evaluate(() => navigator.storage.estimate());
    console.log(
      `Stored: ${((estimate.usage ?? 0) / 1024 ** 3).toFixed(1)} GiB of a quota of ${((estimate.quota ?? 0) / 1024 ** 3).toFixed(0)} GiB`,
    );
    console.log(
      `Library: ${videoCount} videos of ${VIDEO_MB} MB, ${(bytes / 1024 ** 3).toFixed(1)} GiB, seeded in ${Math.round((performance.now() - seedStarted) / 1000)} s`,
    );

    for (const sealed of [false, true].filter((sealed) =>
      KINDS.includes(sealed ? 'sealed' : 'plain'),
    )) {
      const label = sealed ? 'sealed' : 'plain';
      const step = (what: string) => console.log(`  ${label}: ${what}`);
      step('copying IndexedDB → file');
      const copyOut = await copyLibraryToFile(page);
      step('writing the backup');
      const write = await withHeapPeaks(page, { dir: PROFILE_DIR, name: `${label}-write` }, () =>
        writeBackup(page, sealed),
      );
      const fileName = await page.evaluate(() => localStorage.getItem('savedFileName') ?? '');
      step('copying file → IndexedDB');
      const copyIn = await copyFileToLibrary(page, fileName, CHUNK_BYTES);
      step('clearing the videos');
      await deleteVideos(page);
      step('restoring');
      const restore = await withHeapPeaks(
        page,
        { dir: PROFILE_DIR, name: `${label}-restore` },
        () => restoreBackup(page, fileName, sealed),
      );
      await page.evaluate(async (fileName) => {
        await (await navigator.storage.getDirectory()).removeEntry(fileName);
      }, fileName);
      console.log(
        [
          `${label}: write ${write.value.toFixed(1)} s (${mbps(bytes, write.value)} MB/s) vs copy IndexedDB → file ${copyOut.toFixed(1)} s (${mbps(bytes, copyOut)} MB/s): ${(copyOut / write.value).toFixed(2)}×`,
          `  peak while writing: ${describePeaks(write.peaks)}`,
          `${label}: restore ${restore.value.toFixed(1)} s (${mbps(bytes, restore.value)} MB/s) vs copy file → IndexedDB ${copyIn.toFixed(1)} s (${mbps(bytes, copyIn)} MB/s): ${(copyIn / restore.value).toFixed(2)}×`,
          `  peak while restoring: ${describePeaks(restore.peaks)}`,
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
