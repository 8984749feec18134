import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Download, Locator, Page } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { expect, registerUser, test, toastMessage } from './fixtures';
import { recordMessage } from './support/recording';

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

  // The file holds the manifest first and each video with the bytes this browser stored.
  const files = unzipSync(readFileSync(backupFile));
  expect(Object.keys(files)[0]).toBe('manifest.json');
  const manifest = JSON.parse(strFromU8(files['manifest.json']!));
  expect(manifest).toMatchObject({
    format: 'memento-backup',
    version: 1,
    type: 'full_backup',
    account: { username: owner.username },
  });
  expect(manifest.videos).toHaveLength(2);
  for (const entry of manifest.videos as { id: string; file: string; sha256: string }[]) {
    expect(sha256(files[entry.file]!)).toBe(before[entry.id]!.sha256);
    expect(entry.sha256).toBe(before[entry.id]!.sha256);
  }
  const profile = JSON.parse(strFromU8(files['profile.json']!));
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
  // Headless Chromium never grants persistent storage (DESIGN.md §9): the card says so plainly.
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
  expect(Object.keys(unzipSync(readFileSync(profileBackup)))).toEqual([
    'manifest.json',
    'profile.json',
  ]);
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

test('a recipient’s videos are saved as plain files with a Read me that plays them anywhere', async ({
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
  const stored = Object.values(await readStoredVideos(page));

  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  await expect(saveButton).toBeEnabled();
  const downloading = page.waitForEvent('download');
  await saveButton.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(
    `Messages for ${kinName} from ${owner.firstName} ${owner.lastName}.zip`,
  );
  await expect(toastMessage(page, `Videos saved for ${kin.firstName}`)).toBeVisible();

  const files = unzipSync(readFileSync(await saveDownload(download, 'handover.zip')));
  const names = Object.keys(files);
  expect(names).toHaveLength(2);
  expect(names[0]).toBe('Read me.html');
  const videoName = names[1]!;
  expect(videoName).toMatch(/^\d{4}-\d{2}-\d{2} For when you need me\.webm$/);
  expect(sha256(files[videoName]!)).toBe(stored[0]!.sha256);
  const readMe = strFromU8(files['Read me.html']!);
  expect(readMe).toContain(`<h1>Video messages for ${kinName}</h1>`);
  expect(readMe).toContain(
    `${owner.firstName} ${owner.lastName} recorded this video message for you with Memento.`,
  );

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
