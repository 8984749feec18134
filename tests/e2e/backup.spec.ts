import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Download, Locator, Page } from '@playwright/test';
import { expect, registerUser, test } from './fixtures';
import { unzipFile, writeV1BackupFor, writeZip64Backup } from './support/backup-zips';
import { callApi } from './support/page-api';
import { recordMessage } from './support/recording';

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

// Downloads, not the save picker: a test cannot answer the browser's own file dialog. The one
// test of streaming gives the page a picker that returns a file in its private file system.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
});

interface TStoredVideo {
  title: string;
  recipientId: number;
  sha256: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * What this browser's IndexedDB holds for each video, read in the page with the plain IndexedDB
 * API (not the app's code): the record's title and recipient, and the SHA-256 of its chunk rows
 * `{ videoId, index, data: Blob }` joined in order.
 */
function readStoredVideos(page: Page): Promise<Record<string, TStoredVideo>> {
  return page.evaluate(async () => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const opening = indexedDB.open('memento-videos');
    const db = await settle(opening);
    const tx = db.transaction(['videos', 'chunks'], 'readonly');
    const videos = (await settle(tx.objectStore('videos').getAll())) as {
      id: string;
      title: string;
      recipientId: number;
    }[];
    const chunks = (await settle(tx.objectStore('chunks').getAll())) as {
      videoId: string;
      index: number;
      data: Blob;
    }[];
    db.close();
    const stored: Record<string, { title: string; recipientId: number; sha256: string }> = {};
    for (const video of videos) {
      const parts = chunks
        .filter((chunk) => chunk.videoId === video.id)
        .sort((a, b) => a.index - b.index)
        .map((chunk) => chunk.data);
      const digest = await crypto.subtle.digest('SHA-256', await new Blob(parts).arrayBuffer());
      stored[video.id] = {
        title: video.title,
        recipientId: video.recipientId,
        sha256: Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join(''),
      };
    }
    return stored;
  });
}

/** What clearing a browser's site data does to the videos: the whole database goes. */
async function deleteVideoDatabase(page: Page): Promise<void> {
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

async function saveDownload(download: Download, name: string): Promise<string> {
  const file = test.info().outputPath(name);
  await download.saveAs(file);
  return file;
}

/** Presses a 'Restore from Backup' button and picks the file in the browser's file chooser. */
async function restoreFrom(page: Page, scope: Locator, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await scope.getByRole('button', { name: 'Restore from Backup' }).click();
  await (await chooser).setFiles(file);
  return page.getByRole('dialog', { name: 'Restore from Backup' });
}

const storageCard = (page: Page) => page.getByRole('region', { name: 'Storage and backups' });
const videoCounts = (page: Page) => page.getByTestId('video-counts');

test('a full backup brings every video back, byte for byte, after the browser data is cleared', async ({
  page,
}) => {
  test.slow();
  const owner = await registerUser(page, { firstName: 'Edith' });
  await recordMessage(page, { title: 'For when you need me', seconds: 2 });
  await recordMessage(page, { title: 'Happy birthday', seconds: 2 });
  await expect(videoCounts(page)).toHaveText(
    'On this device: 2 videos · In your account’s index: 2 videos',
  );
  const before = await readStoredVideos(page);
  expect(
    Object.values(before)
      .map((video) => video.title)
      .sort(),
  ).toEqual(['For when you need me', 'Happy birthday']);

  // Download Backup → Full backup (the first choice) → a zip named for the account and day.
  await storageCard(page).getByRole('button', { name: 'Download Backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download Backup' });
  await expect(dialog.getByRole('radio', { name: /^Full backup/ })).toBeChecked();
  await expect(dialog.getByText('2 videos,').first()).toBeVisible();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^memento-backup-${owner.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`),
  );
  await expect(dialog.getByText('Your backup is ready')).toBeVisible();
  await expect(dialog.getByText(download.suggestedFilename())).toBeVisible();
  const backupFile = await saveDownload(download, 'backup.zip');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The file holds the manifest and each video with the bytes this browser stored.
  const { names, files } = await unzipFile(backupFile);
  expect(names.filter((name) => !name.startsWith('videos/'))).toEqual([
    'manifest.json',
    'profile.json',
  ]);
  const manifest = JSON.parse(text(files['manifest.json']));
  expect(manifest).toMatchObject({
    format: 'memento-backup',
    version: 2,
    type: 'full_backup',
    account: { username: owner.username },
  });
  expect(manifest.videos).toHaveLength(2);
  for (const entry of manifest.videos as { id: string; file: string; sha256: string }[]) {
    expect(sha256(files[entry.file]!)).toBe(before[entry.id]!.sha256);
    expect(entry.sha256).toBe(before[entry.id]!.sha256);
    expect(entry).toMatchObject({ release: { rule: 'now', at: null } });
  }
  const profile = JSON.parse(text(files['profile.json']));
  expect(profile.account.email).toBe(owner.email);
  expect(profile.recipients[0]).toMatchObject({ email: owner.nextOfKin.email });

  // The browser's data is cleared: the dashboard says so plainly and offers the restore.
  await deleteVideoDatabase(page);
  await expect(videoCounts(page)).toHaveText(
    'On this device: 0 videos · In your account’s index: 2 videos',
  );
  const warning = page
    .getByRole('alert')
    .filter({ hasText: '2 videos are missing from this device' });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(
    'Your account’s list has 2 videos, but this browser holds none of them.',
  );

  // Their recipient's card says it too.
  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  await expect(page.getByTestId('video-count')).toHaveText([
    '2 videos recorded (2 missing from this device)',
  ]);
  await page.goto('/');

  const restoring = await restoreFrom(page, warning, backupFile);
  await expect(restoring.getByTestId('restore-result')).toContainText(
    'Restored 2 videos. None were already on this device.',
  );
  await restoring.getByRole('button', { name: 'Done' }).click();
  await expect(videoCounts(page)).toHaveText(
    'On this device: 2 videos · In your account’s index: 2 videos',
  );
  await expect(page.getByTestId('missing-videos')).toHaveCount(0);
  expect(await readStoredVideos(page)).toEqual(before);

  // Restoring the same file again never makes a second copy.
  const again = await restoreFrom(page, storageCard(page), backupFile);
  await expect(again.getByTestId('restore-result')).toContainText(
    'Restored 0 videos. 2 were already on this device.',
  );
  await again.getByRole('button', { name: 'Done' }).click();
  expect(await readStoredVideos(page)).toEqual(before);

  // The restored videos are back under their recipient.
  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  const kin = `${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName}`;
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: kin }) });
  await expect(card.getByTestId('video-count')).toHaveText('2 videos recorded');
});

test('the storage card is honest, and a restore refuses what it cannot use with a plain message', async ({
  page,
  newDevice,
}) => {
  test.slow();
  const edith = await registerUser(page, { firstName: 'Edith' });
  const card = storageCard(page);
  await expect(card.getByTestId('storage-space')).toContainText(
    /Used by Memento\s*[\d.]+ (bytes|KB|MB|GB)/,
  );
  await expect(card.getByTestId('storage-space')).toContainText(
    /Still free\s*[\d.]+ (KB|MB|GB|TB)/,
  );
  await expect(card.getByTestId('storage-persistence')).toHaveText(
    'This browser has not promised to keep your videos. If the device runs low on space, it could clear them.',
  );
  // Headless Chromium never grants persistent storage: the card says so plainly.
  await card.getByRole('button', { name: 'Keep my videos safe on this device' }).click();
  await expect(
    card.getByRole('alert').filter({ hasText: 'Your browser did not agree' }),
  ).toContainText('The safe way to protect them is a backup file');

  // A profile-only backup: account and recipients, no videos.
  await card.getByRole('button', { name: 'Download Backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download Backup' });
  await dialog.getByRole('radio', { name: /^Profile only/ }).check();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/-profile-only\.zip$/);
  const profileBackup = await saveDownload(download, 'profile-only.zip');
  expect((await unzipFile(profileBackup)).names).toEqual(['manifest.json', 'profile.json']);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const ownRestore = await restoreFrom(page, card, profileBackup);
  await expect(ownRestore.getByRole('alert')).toContainText('There are no videos in this backup');
  await expect(ownRestore.getByRole('alert')).toContainText(
    'This backup holds your account details and recipients only, so it has no videos to restore.',
  );
  await ownRestore.getByRole('button', { name: 'Done' }).click();

  // Something that is not a backup at all.
  const letter = test.info().outputPath('letter.txt');
  mkdirSync(path.dirname(letter), { recursive: true });
  writeFileSync(letter, 'Dear Susan, this is a letter, not a backup.');
  const wrongFile = await restoreFrom(page, card, letter);
  await expect(wrongFile.getByRole('alert')).toContainText(
    'This file is not a Memento backup. Please choose the file whose name starts with "memento-backup".',
  );
  await wrongFile.getByRole('button', { name: 'Done' }).click();

  // Another account on another device cannot restore Edith's backup.
  const other = await newDevice();
  await registerUser(other, { firstName: 'Harold' });
  const refused = await restoreFrom(other, storageCard(other), profileBackup);
  await expect(refused.getByRole('alert')).toContainText(
    `This backup belongs to another account (${edith.username}). Sign in as that account to restore it.`,
  );
});

/**
 * Changes what this browser holds for a video, with the plain IndexedDB API: `release` on its
 * record, or a copy of it under a new id (same chunks) with its own release rule.
 */
function setStoredRelease(
  page: Page,
  videoId: string,
  release: { rule: string; at: string | null },
  copyAs?: { id: string; title: string },
) {
  return page.evaluate(
    async ({ videoId, release, copyAs }) => {
      const settle = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const db = await settle(indexedDB.open('memento-videos'));
      const tx = db.transaction(['videos', 'chunks'], 'readwrite');
      const videos = tx.objectStore('videos');
      const video = (await settle(videos.get(videoId))) as Record<string, unknown>;
      if (copyAs) {
        const chunks = tx.objectStore('chunks');
        const all = (await settle(chunks.getAll())) as { videoId: string }[];
        for (const chunk of all.filter((row) => row.videoId === videoId)) {
          await settle(chunks.put({ ...chunk, videoId: copyAs.id }));
        }
        await settle(videos.put({ ...video, ...copyAs, release }));
      } else {
        await settle(videos.put({ ...video, release }));
      }
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    },
    { videoId, release, copyAs },
  );
}

function readStoredRelease(page: Page, videoId: string) {
  return page.evaluate(async (videoId) => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const video = (await settle(db.transaction('videos').objectStore('videos').get(videoId))) as {
      release?: unknown;
    };
    db.close();
    return video?.release ?? null;
  }, videoId);
}

test('a recipient’s open videos are saved as plain files with a Read me that plays them anywhere', async ({
  page,
}) => {
  test.slow();
  const owner = await registerUser(page, { firstName: 'Edith' });
  const kin = owner.nextOfKin;
  const kinName = `${kin.firstName} ${kin.lastName}`;
  const recipientCard = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: kinName }) });
  const saveButton = recipientCard.getByRole('button', {
    name: `Save videos for ${kin.firstName}`,
  });

  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  await expect(saveButton).toBeDisabled();
  await expect(
    recipientCard.getByText(`No videos for ${kin.firstName} on this device yet.`),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Home' }).first().click();
  await recordMessage(page, { title: 'For when you need me', seconds: 2 });
  const [recorded] = Object.entries(await readStoredVideos(page));
  const [videoId, stored] = recorded!;
  // A second message that opens only with the legacy: it must never reach a handover file.
  await setStoredRelease(
    page,
    videoId,
    { rule: 'legacy', at: null },
    { id: randomUUID(), title: 'Only after I am gone' },
  );

  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  await page.reload();
  await expect(saveButton).toBeEnabled();
  await saveButton.click();
  const dialog = page.getByRole('dialog', { name: `Save videos for ${kin.firstName}` });
  const summary = dialog.getByTestId('handover-summary');
  await expect(summary).toContainText(`1 message for ${kin.firstName} will be saved.`);
  await expect(summary).toContainText(
    `1 message is left out: it opens for ${kin.firstName} only when your legacy is released, and a file could not keep it closed until then.`,
  );
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(
    `Messages for ${kinName} from ${owner.firstName} ${owner.lastName}.zip`,
  );
  await expect(dialog.getByText(`Videos saved for ${kin.firstName}`)).toBeVisible();

  const { names, files } = await unzipFile(await saveDownload(download, 'handover.zip'));
  expect(names).toHaveLength(2);
  expect(names[0]).toBe('Read me.html');
  const videoName = names[1]!;
  expect(videoName).toMatch(/^\d{4}-\d{2}-\d{2} For when you need me\.webm$/);
  expect(sha256(files[videoName]!)).toBe(stored.sha256);
  const readMe = text(files['Read me.html']);
  expect(readMe).toContain(`<h1>Video messages for ${kinName}</h1>`);
  expect(readMe).toContain(
    `${owner.firstName} ${owner.lastName} recorded this video message for you with Memento.`,
  );
  expect(readMe).not.toContain('Only after I am gone');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Unzipped on any computer, the Read me plays the video without Memento.
  const folder = test.info().outputPath('handover');
  mkdirSync(folder, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(folder, name), bytes);
  await page.goto(pathToFileURL(path.join(folder, 'Read me.html')).href);
  await expect(page.getByRole('heading', { level: 2, name: 'For when you need me' })).toBeVisible();
  const video = page.locator('video');
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState))
    .toBeGreaterThanOrEqual(1);
  const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
  expect(Number.isFinite(duration)).toBe(true);
  expect(duration).toBeGreaterThan(1);
});

/** A save picker that hands out a file in the page's private file system, read back later. */
async function useOwnSavePicker(page: Page) {
  await page.addInitScript(() => {
    (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = async (options: {
      suggestedName: string;
    }) => {
      const root = await navigator.storage.getDirectory();
      localStorage.setItem('savedFileName', options.suggestedName);
      return root.getFileHandle(options.suggestedName, { create: true });
    };
  });
}

async function readSavedFile(page: Page, out: string): Promise<string> {
  const base64 = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle(localStorage.getItem('savedFileName') ?? '');
    const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    }
    return btoa(binary);
  });
  const file = test.info().outputPath(out);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, Buffer.from(base64, 'base64'));
  return file;
}

test('a sealed backup streams to the chosen file, opens with 7-Zip, and restores only with its passphrase', async ({
  page,
}) => {
  test.slow();
  await useOwnSavePicker(page);
  const owner = await registerUser(page, { firstName: 'Edith' });
  await recordMessage(page, { title: 'For when you need me', seconds: 2 });
  const before = await readStoredVideos(page);
  const [videoId] = Object.keys(before);
  const opensOn = { rule: 'date', at: '2031-05-01T00:00:00.000Z' };
  await setStoredRelease(page, videoId!, opensOn);
  await page.reload();

  const passphrase = 'Blue kettle, 42 daisies!';
  await storageCard(page).getByRole('button', { name: 'Download Backup' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download Backup' });
  await dialog.getByText('Protect this backup with a passphrase').click();
  await expect(
    dialog.getByText('without the passphrase nobody can, not even us', { exact: false }),
  ).toBeVisible();
  // Too weak: the password rules apply, and nothing is written.
  await dialog.getByLabel('Passphrase', { exact: true }).fill('kettle');
  await dialog.getByRole('button', { name: 'Download' }).click();
  await expect(dialog.getByText('Passphrase must be at least 12 characters')).toBeVisible();
  await dialog.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await dialog.getByLabel('Type the passphrase again').fill(passphrase);
  await dialog.getByLabel('Hint (optional)').fill('The kitchen, and the garden');
  await dialog.getByRole('button', { name: 'Download' }).click();
  await expect(dialog.getByText('Your backup is ready')).toBeVisible();
  await expect(dialog).toContainText('It is saved as memento-backup-');
  await expect(dialog).toContainText('It is protected with your passphrase.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const backupFile = await readSavedFile(page, 'sealed.zip');

  // Without the passphrase only seal.json, with the hint, can be read.
  const sealed = await unzipFile(backupFile);
  expect(Object.keys(sealed.files)).toEqual(['seal.json']);
  expect(JSON.parse(text(sealed.files['seal.json']))).toMatchObject({
    sealed: true,
    encryption: 'WinZip AES-256',
    hint: 'The kitchen, and the garden',
  });
  expect(sealed.encrypted['manifest.json']).toBe(true);

  // A stock tool opens it with the passphrase, and not without.
  const out = test.info().outputPath('7z');
  const wrong = spawnSync('7z', ['x', '-y', '-pnot-the-passphrase', `-o${out}-wrong`, backupFile]);
  expect(wrong.status).not.toBe(0);
  execFileSync('7z', ['x', '-y', `-p${passphrase}`, `-o${out}`, backupFile]);
  const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  expect(manifest).toMatchObject({
    version: 2,
    account: { username: owner.username },
    sealed: { hint: 'The kitchen, and the garden' },
  });
  expect(manifest.videos[0]).toMatchObject({ id: videoId, release: opensOn });
  expect(sha256(readFileSync(path.join(out, manifest.videos[0].file)))).toBe(
    before[videoId!]!.sha256,
  );

  // Restore: the passphrase is asked for; a wrong one says so and changes nothing.
  await deleteVideoDatabase(page);
  await expect(videoCounts(page)).toContainText('On this device: 0 videos');
  const restoring = await restoreFrom(page, storageCard(page), backupFile);
  await expect(restoring.getByTestId('passphrase-hint')).toHaveText(
    'Your hint: The kitchen, and the garden',
  );
  await restoring.getByLabel('Passphrase').fill('Green kettle, 42 daisies!');
  await restoring.getByRole('button', { name: 'Restore' }).click();
  await expect(restoring).toContainText(
    'That passphrase does not open this backup. Nothing has been changed. Please check it and try again.',
  );
  expect(await readStoredVideos(page)).toEqual({});
  await restoring.getByLabel('Passphrase').fill(passphrase);
  await restoring.getByRole('button', { name: 'Restore' }).click();
  await expect(restoring.getByTestId('restore-result')).toContainText(
    'Restored 1 video. None were already on this device.',
  );
  expect(await readStoredVideos(page)).toEqual(before);
  expect(await readStoredRelease(page, videoId!)).toEqual(opensOn);
});

test('a ZIP64 backup with more entries than a plain zip can count, and a version 1 backup, both restore', async ({
  page,
}) => {
  const owner = await registerUser(page, { firstName: 'Edith' });
  const { id } = await callApi<{ id: number }>(page, 'GET', '/api/user');
  const account = { id, username: owner.username };

  // Version 1, as the fflate writer made it before this format.
  const v1File = test.info().outputPath('v1.zip');
  mkdirSync(path.dirname(v1File), { recursive: true });
  writeV1BackupFor(account, v1File);
  const v1 = await restoreFrom(page, storageCard(page), v1File);
  await expect(v1.getByTestId('restore-result')).toContainText(
    'Restored 1 video. None were already on this device.',
  );
  await expect(v1.getByTestId('restore-result')).toContainText(
    '1 video was recorded for Ada Fixture, who is no longer one of your recipients.',
  );
  await v1.getByRole('button', { name: 'Done' }).click();

  // ZIP64 throughout, with 65,600 empty files beside the backup's own entries.
  const video = new Uint8Array(readFileSync('src/web/public/media/banner.mp4'));
  const videoId = randomUUID();
  const manifest = {
    format: 'memento-backup',
    version: 2,
    type: 'videos_only',
    createdAt: new Date().toISOString(),
    app: 'Memento',
    account,
    videos: [
      {
        id: videoId,
        recipientId: 900000003,
        recipientName: 'Zip Sixtyfour',
        title: 'Read from a ZIP64 archive',
        promptId: null,
        mimeType: 'video/mp4',
        byteSize: video.length,
        durationMs: 4000,
        createdAt: new Date().toISOString(),
        file: `videos/${videoId}.mp4`,
        sha256: sha256(video),
        release: { rule: 'now', at: null },
      },
    ],
  };
  const zip64File = test.info().outputPath('zip64.zip');
  writeZip64Backup(
    [
      { name: `videos/${videoId}.mp4`, bytes: video },
      { name: 'manifest.json', bytes: new TextEncoder().encode(JSON.stringify(manifest)) },
    ],
    65_600,
    zip64File,
  );
  const zip64 = await restoreFrom(page, storageCard(page), zip64File);
  // A budget, not a measure: reading a directory of 65,600 entries took a busy two-core machine
  // more than the usual ten seconds.
  await expect(zip64.getByTestId('restore-result')).toContainText(
    'Restored 1 video. None were already on this device.',
    { timeout: 60_000 },
  );
  const stored = await readStoredVideos(page);
  expect(stored[videoId]).toEqual({
    title: 'Read from a ZIP64 archive',
    recipientId: 900000003,
    sha256: sha256(video),
  });
});
