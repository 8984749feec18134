import type { Page } from '@playwright/test';
import { LONG_WAIT, expect, registerUser, test, toastMessage } from './fixtures';
import { FAKE_CAMERA_FILE } from './support/fake-camera';
import { readCode, waitForMail } from './support/outbox';
import { signInAsRecipient } from './support/recipients';
import {
  recordFor,
  recordingTime,
  savedDraftSlices,
  waitForRecordedSeconds,
} from './support/recording';

const recipientCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

/** What the player reports about the video it is showing. */
function readPlayer(page: Page) {
  return page.getByTestId('video-player').evaluate((element) => {
    const video = element as HTMLVideoElement;
    return { readyState: video.readyState, duration: video.duration };
  });
}

/**
 * Where the one stored recording keeps its seek index, read from IndexedDB with the plain API:
 * whether the segment (after the EBML header and the Segment's id and eight-byte size) starts
 * with a SeekHead, and how many times the Cues element's id occurs in the file.
 */
function storedSeekIndex(page: Page) {
  return page.evaluate(async () => {
    const settle = <R>(request: IDBRequest<R>) =>
      new Promise<R>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const db = await settle(indexedDB.open('memento-videos'));
    const chunks = (await settle(
      db.transaction('chunks', 'readonly').objectStore('chunks').getAll(),
    )) as { index: number; data: Blob }[];
    db.close();
    const parts = chunks.sort((a, b) => a.index - b.index).map((chunk) => chunk.data);
    const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
    const isAt = (at: number, id: number[]) => id.every((byte, i) => bytes[at + i] === byte);
    const CUES = [0x1c, 0x53, 0xbb, 0x6b];
    let cues = 0;
    for (let at = 0; at < bytes.length; at += 1) if (isAt(at, CUES)) cues += 1;
    const segmentAt = 4 + 1 + (bytes[4]! - 0x80); // after the EBML header (a one-byte size)
    return {
      seekHeadFirst:
        isAt(segmentAt, [0x18, 0x53, 0x80, 0x67]) && isAt(segmentAt + 12, [0x11, 0x4d, 0x9b, 0x74]),
      cues,
    };
  });
}

/**
 * The recording preview's length once the browser has read its metadata. Polled, so a preview
 * that is re-rendered meanwhile is read afresh; a media error shows as its code in the failure.
 */
async function previewSeconds(page: Page): Promise<number> {
  const preview = page.getByTestId('recording-preview');
  await expect
    .poll(
      () =>
        preview.evaluate((video: HTMLVideoElement) =>
          video.error
            ? `media error ${video.error.code}`
            : video.readyState >= 1
              ? 'ready'
              : 'loading',
        ),
      { timeout: 30_000 },
    )
    .toBe('ready');
  return preview.evaluate((video: HTMLVideoElement) => video.duration);
}

test('a primary user records a message for their next of kin, sees it counted, plays it and deletes it', async ({
  page,
}) => {
  test.slow();
  const owner = await registerUser(page, { firstName: 'Edith' });
  const kin = `${owner.nextOfKin.firstName} ${owner.nextOfKin.lastName}`;

  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  await recipientCard(page, kin)
    .getByRole('link', { name: `Record New Message for ${kin}` })
    .click();
  await expect(page).toHaveURL(/\/record\?recipient=\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Record a Message' })).toBeVisible();
  const recipient = page.getByLabel('Recipient', { exact: true });
  await expect(recipient.locator('option:checked')).toHaveText(kin);

  // The camera stays off until the message has a title.
  await page.getByRole('button', { name: 'Turn On Camera' }).click();
  await expect(page.getByText('Please give your message a title')).toBeVisible();
  await expect(page.getByTestId('camera-preview')).toBeHidden();
  await page.getByLabel('Message title').fill('For when you need me');

  // A prompt from the catalogue for a next of kin, shown while recording.
  const prompt = page.getByLabel('Prompt (optional)');
  await expect(prompt.locator('option')).toHaveCount(13); // 'No prompt' and twelve prompts
  await prompt.selectOption({ label: 'Why I chose you' });
  await expect(page.getByRole('complementary', { name: 'Your prompt' })).toContainText(
    'Tell them why you trust them',
  );

  await page.getByRole('button', { name: 'Turn On Camera' }).click();
  await expect(page.getByTestId('camera-preview')).toBeVisible();
  // Chromium names a camera played from a file by the file's path.
  await expect(page.getByLabel('Camera', { exact: true }).locator('option:checked')).toHaveText(
    FAKE_CAMERA_FILE,
  );
  await expect(page.getByLabel('Microphone', { exact: true }).locator('option')).not.toHaveCount(0);
  await expect(page.getByTestId('time-left')).toHaveText('1:00 left');

  // The three-second countdown comes before the recording.
  const startedAt = Date.now();
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop Recording' })).toBeVisible();
  await waitForRecordedSeconds(page, 3);
  await page.getByRole('button', { name: 'Stop Recording' }).click();
  // The most the camera can have recorded: from Start to Stop, less the countdown. On a busy
  // machine the Stop can come seconds after the timer showed 3.
  const recordedAtMost = (Date.now() - startedAt) / 1000 - 3;

  const preview = page.getByTestId('recording-preview');
  await expect(preview).toBeVisible();
  await expect(page.getByRole('button', { name: 'Record Again' })).toBeVisible();
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // Counted on this device and in the server's index.
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 1 video · In your account’s index: 1 video',
  );

  await page.getByRole('link', { name: 'Manage Recipients' }).click();
  const card = recipientCard(page, kin);
  await expect(card.getByTestId('video-count')).toHaveText('1 video recorded');
  await card.getByRole('button', { name: `View Videos for ${kin}` }).click();
  const list = page.getByRole('dialog', { name: `Videos for ${kin}` });
  await expect(list.getByText('For when you need me', { exact: true })).toBeVisible();

  // It plays from this device, knows its length and can seek.
  await list.getByRole('button', { name: 'Play For when you need me' }).click();
  const player = page.getByRole('dialog', { name: 'For when you need me' });
  await expect(player.getByTestId('video-player')).toBeVisible();
  await expect.poll(async () => (await readPlayer(page)).readyState).toBeGreaterThanOrEqual(2);
  const { duration } = await readPlayer(page);
  expect(Number.isFinite(duration)).toBe(true);
  expect(duration).toBeGreaterThan(2);
  // Without the countdown; a little over for the last slice's timestamps.
  expect(duration).toBeLessThan(recordedAtMost + 0.5);
  // Kept with a seek index (a SeekHead first in the segment, the Cues after the clusters: its id
  // is there twice, named in the SeekHead and the element itself), so a jump goes straight there.
  expect(await storedSeekIndex(page)).toEqual({ seekHeadFirst: true, cues: 2 });
  const seekedTo = await page.getByTestId('video-player').evaluate(async (element) => {
    const video = element as HTMLVideoElement;
    const seeked = new Promise((resolve) =>
      video.addEventListener('seeked', resolve, { once: true }),
    );
    video.currentTime = video.duration * 0.8;
    await seeked;
    return video.currentTime / video.duration;
  });
  expect(seekedTo).toBeCloseTo(0.8, 1);
  await player.getByRole('button', { name: 'Close' }).first().click();
  await expect(player).toBeHidden();

  await list.getByRole('checkbox', { name: 'Select For when you need me' }).check();
  await list.getByRole('button', { name: 'Delete selected' }).click();
  await list.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(toastMessage(page, 'Video deleted')).toBeVisible();
  await expect(list.getByText(`You have not recorded a message for`)).toBeVisible();
  await list.getByRole('button', { name: 'Close' }).first().click();
  await expect(card.getByTestId('video-count')).toHaveText('0 videos recorded');

  await page.getByRole('link', { name: 'Home' }).first().click();
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 0 videos · In your account’s index: 0 videos',
  );
});

test('a recording interrupted by a reload is offered back and can be saved', async ({ page }) => {
  test.slow();
  await registerUser(page, { firstName: 'Walter' });
  await page.getByRole('link', { name: 'Record New Video Message' }).click();
  await page.getByLabel('Message title').fill('Our garden in June');
  await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Turn On Camera' }).click();
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await waitForRecordedSeconds(page, 3);
  // What the page has written to IndexedDB so far is what a reload keeps (on a busy machine the
  // writes can trail the timer by a second or two).
  await expect.poll(() => savedDraftSlices(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

  // The page warns before it goes; the person reloads anyway.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();

  const recovery = page.getByRole('region', { name: 'A recording was interrupted' });
  await expect(recovery).toBeVisible();
  await expect(recovery.getByText('“Our garden in June” for')).toBeVisible();
  await recovery.getByRole('button', { name: 'Recover Recording' }).click();

  await expect(page.getByTestId('recording-preview')).toBeVisible();
  await expect(page.getByLabel('Message title')).toHaveValue('Our garden in June');
  const seconds = await previewSeconds(page);
  expect(Number.isFinite(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(1);

  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 1 video · In your account’s index: 1 video',
  );
  // Nothing is left to recover.
  await expect(page.getByRole('region', { name: 'A recording was interrupted' })).toHaveCount(0);
});

test('the recorder works by keyboard; recording again throws the first take away', async ({
  page,
}) => {
  test.slow();
  await registerUser(page, { firstName: 'Ivy' });
  await page.getByRole('link', { name: 'Record New Video Message' }).click();
  await page.getByRole('button', { name: 'Turn On Camera' }).click();
  await expect(page.getByText('Please give your message a title')).toBeVisible();
  await expect(page.getByText('Please choose who this message is for')).toBeVisible();

  await page.getByLabel('Message title').fill('First try');
  await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });

  // The first take by keyboard alone: focus stays on the one main button throughout.
  await page.getByRole('button', { name: 'Turn On Camera' }).focus();
  await page.keyboard.press('Enter');
  // On a busy machine the camera and the countdown can take a while; focus is checked once there.
  const start = page.getByRole('button', { name: 'Start Recording' });
  await expect(start).toBeVisible({ timeout: 30_000 });
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');
  const stop = page.getByRole('button', { name: 'Stop Recording' });
  await expect(stop).toBeVisible({ timeout: 30_000 });
  await expect(stop).toBeFocused();
  await waitForRecordedSeconds(page, 2);
  await page.keyboard.press('Enter');
  const save = page.getByRole('button', { name: 'Save Message' });
  await expect(save).toBeVisible({ timeout: 30_000 });
  await expect(save).toBeFocused();
  await expect(page.getByTestId('recording-preview')).toBeVisible();

  await page.getByRole('button', { name: 'Record Again' }).click();
  await expect(page.getByRole('button', { name: 'Start Recording' })).toBeVisible();
  await page.getByLabel('Message title').fill('Second try');
  await recordFor(page, 2);
  await page.getByRole('button', { name: 'Save Message' }).click();
  await expect(toastMessage(page, 'Video saved')).toBeVisible();
  await expect(page.getByTestId('video-counts')).toHaveText(
    'On this device: 1 video · In your account’s index: 1 video',
  );
});

test(
  'the free plan stops a recording at one minute, after a warning ten seconds before',
  LONG_WAIT,
  async ({ page }) => {
    test.setTimeout(180_000);
    await registerUser(page, { firstName: 'Harold' });
    await page.getByRole('link', { name: 'Record New Video Message' }).click();
    await page.getByLabel('Message title').fill('The long story');
    await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Turn On Camera' }).click();
    await page.getByRole('button', { name: 'Start Recording' }).click();

    const warning = page.getByRole('alert').filter({ hasText: 'About 10 seconds left' });
    await expect(warning).toBeVisible({ timeout: 60_000 });
    await expect(recordingTime(page)).toHaveAttribute('aria-valuenow', /^(4[89]|5\d)$/);
    await expect(page.getByTestId('recording-preview')).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByRole('region', { name: 'Recording stopped at your plan’s limit' }),
    ).toBeVisible();
    const seconds = await previewSeconds(page);
    expect(seconds).toBeGreaterThanOrEqual(59);
    expect(seconds).toBeLessThanOrEqual(61.5);
  },
);

// The browser's own refusals, injected where the browser reports them (the fake camera always
// agrees): what the person reads must tell them what to do.
for (const { errorName, title, text } of [
  {
    errorName: 'NotAllowedError',
    title: 'Camera permission denied',
    text: 'Memento needs your permission to use the camera and microphone.',
  },
  { errorName: 'NotFoundError', title: 'No camera detected', text: 'We could not find a camera' },
  { errorName: 'NotReadableError', title: 'Camera in use', text: 'such as a video call' },
]) {
  test(`a camera that answers ${errorName} is explained`, async ({ page }) => {
    await page.addInitScript((name) => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('refused', name));
    }, errorName);
    await registerUser(page, { firstName: 'Mabel' });
    await page.getByRole('link', { name: 'Record New Video Message' }).click();
    await page.getByLabel('Message title').fill('Hello');
    await page.getByLabel('Recipient', { exact: true }).selectOption({ index: 1 });
    await page.getByRole('button', { name: 'Turn On Camera' }).click();
    const problem = page.getByRole('alert', { name: title });
    await expect(problem).toBeVisible();
    await expect(problem).toContainText(text);
    // The person can try again once they have fixed it.
    await expect(page.getByRole('button', { name: 'Turn On Camera' })).toBeEnabled();
  });
}

test('someone who is not on their primary device is told recording is not for them', async ({
  page,
  newDevice,
}) => {
  const owner = await registerUser(page, { firstName: 'Percy' });
  const mail = await waitForMail(owner.nextOfKin.email, /has chosen you as their next of kin/);
  const phone = await newDevice();
  await signInAsRecipient(phone, owner.nextOfKin.email, readCode(mail));
  await expect(phone.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await phone.goto('/record');
  await expect(
    phone.getByText('Access Denied - Only primary users can record video messages.'),
  ).toBeVisible();
  await expect(phone.getByRole('button', { name: 'Turn On Camera' })).toHaveCount(0);
});
