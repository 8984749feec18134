import type { Page } from '@playwright/test';
import { expect, toastMessage } from '../fixtures';

export const recordingTime = (page: Page) =>
  page.getByRole('progressbar', { name: 'Recording time used' });

/**
 * Waits until the page's recording timer shows at least `seconds` and the page has stored at
 * least one slice of the recording on the device. 'At least', not 'exactly': on a busy machine
 * the timer's tick can come late and step over a second, and the camera's encoder can trail the
 * timer (stopped before its first slice, the page rightly says 'Nothing was recorded').
 */
export async function waitForRecordedSeconds(
  page: Page,
  seconds: number,
  timeout = (seconds + 5) * 1000,
): Promise<void> {
  await expect
    .poll(async () => Number(await recordingTime(page).getAttribute('aria-valuenow')), {
      message: `the recording timer reaches ${seconds} s`,
      timeout,
    })
    .toBeGreaterThanOrEqual(seconds);
  await expect
    .poll(() => savedDraftSlices(page), {
      message: 'the page has stored a slice of the recording',
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(1);
}

/** Every row of one store of the page's local video store (IndexedDB). */
function readLocalStore<T>(page: Page, storeName: 'drafts' | 'videos'): Promise<T[]> {
  return page.evaluate(async (name) => {
    const settle = <R>(request: IDBRequest<R>) =>
      new Promise<R>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const rows = await settle(db.transaction(name, 'readonly').objectStore(name).getAll());
    db.close();
    return rows;
  }, storeName) as Promise<T[]>;
}

/** How many one-second slices of the recording in progress the page has stored on the device. */
export async function savedDraftSlices(page: Page): Promise<number> {
  const drafts = await readLocalStore<{ chunkCount: number }>(page, 'drafts');
  return Math.max(0, ...drafts.map((draft) => draft.chunkCount));
}

/** The ids of the videos saved on this device. */
export async function savedVideoIds(page: Page): Promise<string[]> {
  return (await readLocalStore<{ id: string }>(page, 'videos')).map((video) => video.id);
}

/**
 * On the Record page with the details filled in: turns the camera on, records for `seconds` of
 * the page's own timer (the fake camera really records), stops, and waits for the preview.
 */
export async function recordFor(page: Page, seconds: number): Promise<void> {
  const turnOn = page.getByRole('button', { name: 'Turn On Camera' });
  if (await turnOn.isVisible()) await turnOn.click();
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.getByRole('button', { name: 'Stop Recording' })).toBeVisible();
  await waitForRecordedSeconds(page, seconds);
  await page.getByRole('button', { name: 'Stop Recording' }).click();
  await expect(page.getByTestId('recording-preview')).toBeVisible();
}

/**
 * From the dashboard: records a message with the fake camera and saves it, as a person would,
 * ending back on the dashboard. Without `recipientName` the first recipient is chosen.
 */
export async function recordMessage(
  page: Page,
  options: { recipientName?: string; title: string; seconds: number },
): Promise<void> {
  await page.getByRole('link', { name: 'Record New Video Message' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Record a Message' })).toBeVisible();
  await page.getByLabel('Message title').fill(options.title);
  const recipient = page.getByLabel('Recipient', { exact: true });
  if (options.recipientName) await recipient.selectOption({ label: options.recipientName });
  else await recipient.selectOption({ index: 1 });
  await recordFor(page, options.seconds);
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
}
