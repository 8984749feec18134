import { mkdir, writeFile } from 'node:fs/promises';
import { expect, registerUser, test, toastMessage } from '../e2e/fixtures';

/**
 * How large a full Community Edition recording (60 s, the plan's limit) is and how long keeping
 * it takes, measured in real Chromium with the fake camera:
 *   npm run bench:recording
 * Prints one JSON line and writes it to test-results/bench-recording.json.
 */
test('a 60-second recording: its size, the time to prepare it and the time to save it', async ({
  page,
}) => {
  await registerUser(page, { firstName: 'Bench' });
  await page.getByRole('link', { name: 'Record New Video Message' }).click();
  await page.getByLabel('Message title').fill('One full minute');
  await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Turn On Camera' }).click();
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.getByRole('button', { name: 'Stop Recording' })).toBeVisible();
  const startedAt = Date.now();

  // The plan stops the recording by itself at 60 s; what follows until the preview shows is the
  // last slice arriving and the WebM repair (±0.2 s: the page's timer ticks every 200 ms).
  await expect(page.getByTestId('recording-preview')).toBeVisible({ timeout: 90_000 });
  const prepareMs = Date.now() - startedAt - 60_000;

  const savedAt = Date.now();
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toBeVisible({ timeout: 30_000 });
  const saveMs = Date.now() - savedAt;

  const stored = await page.evaluate(
    () =>
      new Promise<{ byteSize: number; durationMs: number; mimeType: string; chunkCount: number }>(
        (resolve, reject) => {
          const open = indexedDB.open('memento-videos');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const read = open.result.transaction('videos').objectStore('videos').getAll();
            read.onsuccess = () => resolve(read.result[0]);
            read.onerror = () => reject(read.error);
          };
        },
      ),
  );
  const result = {
    recordedSeconds: Math.round(stored.durationMs / 100) / 10,
    mimeType: stored.mimeType,
    megabytes: Math.round((stored.byteSize / 1024 / 1024) * 100) / 100,
    chunks: stored.chunkCount,
    prepareMs,
    saveMs,
  };
  console.log(JSON.stringify(result));
  await mkdir('test-results', { recursive: true });
  await writeFile('test-results/bench-recording.json', `${JSON.stringify(result, null, 2)}\n`);
  expect(stored.byteSize).toBeGreaterThan(0);
});
