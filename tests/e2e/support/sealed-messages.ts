import { createHash, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page, Request } from '@playwright/test';
import type {
  TCreateUploadResult,
  TPartReceived,
  TSignPartsResult,
} from '../../../src/shared/schemas/cloud';
import { WRAP_LABEL_PARTS, type TEncryptionState } from '../../../src/shared/schemas/encryption';
import type { TVideoIndexEntry } from '../../../src/shared/schemas/videos';
import {
  generateContentKey,
  partCount,
  sealPart,
  splitSecret,
  startSealing,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '../../../src/shared/sealing';
import { expect } from '../fixtures';

// Sealed messages made in the test itself, with the shared sealing code in Node, and sent through
// the API as the owner's browser sends them: for a message larger than the fake camera records.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Sealing's own unit: sealed parts are sliced from the whole in the server's part size. */
const SEAL_PART_BYTES = 8 * 1024 * 1024;

/** An API call from outside the page with its cookie and its device id, as the app makes it. */
async function callAsPage<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  const deviceId = await page.evaluate(() => localStorage.getItem('deviceId') ?? '');
  const response = await page.request.fetch(url, {
    method,
    headers: { 'x-device-id': deviceId },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(response.ok(), `${method} ${url}: ${response.status()} ${await response.text()}`).toBe(
    true,
  );
  return (await response.json()) as T;
}

/** The owner's account key, opened with their password as an unlocked device opens it. */
export async function openAccountKey(page: Page, password: string) {
  const { id: userId } = await callAsPage<{ id: number }>(page, 'GET', '/api/user');
  const state = await callAsPage<TEncryptionState>(page, 'GET', '/api/encryption');
  if (state.state !== 'on') throw new Error('enhanced encryption is not on');
  const { keyHalf } = await splitSecret('password', password, state.passwordKdf);
  const label = wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(userId));
  return unwrapKey(state.passwordWrap, keyHalf, label, 'wrapping');
}

/**
 * Sends `plaintext` as a new sealed message of the owner signed in on `page`, for the recipient of
 * their first message: indexed, sealed under a new content key wrapped for the owner, sent part by part,
 * completed. Answers its id and the stored object's size.
 */
export async function sendSealedMessage(
  page: Page,
  message: { password: string; title: string; plaintext: Uint8Array; durationMs: number },
): Promise<{ videoId: string; objectSize: number }> {
  const accountKey = await openAccountKey(page, message.password);
  // The recipient of the owner's messages so far (recipients are managed on the primary device).
  const [indexed] = await callAsPage<TVideoIndexEntry[]>(page, 'GET', '/api/videos');
  const videoId = randomUUID();
  const { plaintext } = message;
  await callAsPage(page, 'POST', '/api/videos', {
    id: videoId,
    recipientId: indexed!.recipientId,
    metadata: {
      byteSize: plaintext.length,
      durationMs: message.durationMs,
      mimeType: 'video/webm',
    },
  });

  const contentKey = await generateContentKey();
  const sealing = startSealing({
    key: contentKey,
    messageId: videoId,
    plaintextLength: plaintext.length,
  });
  const blob = new Blob([new Uint8Array(plaintext)]);
  const pieces: Uint8Array[] = [];
  for (let n = 1; n <= partCount(plaintext.length, SEAL_PART_BYTES); n++) {
    pieces.push(await sealPart(sealing, blob, n, SEAL_PART_BYTES));
  }
  const sealed = Buffer.concat(pieces);
  const keyWrap = await wrapKey(
    contentKey,
    accountKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)),
  );

  const created = await callAsPage<TCreateUploadResult>(page, 'POST', '/api/uploads', {
    videoId,
    title: message.title,
    promptId: null,
    byteSize: sealed.length,
    sha256: sha256(sealed),
    sealed: { keyWrap },
  });
  if (created.state !== 'uploading') throw new Error('the upload did not start');
  const partOf = (n: number) => sealed.subarray((n - 1) * created.partSize, n * created.partSize);
  const numbers = Array.from({ length: created.partCount }, (_, i) => i + 1);
  const signed = await callAsPage<TSignPartsResult>(
    page,
    'POST',
    `/api/uploads/${created.uploadId}/sign`,
    { partNumbers: numbers, sha256s: numbers.map((n) => sha256(partOf(n))) },
  );
  const parts = [];
  for (const part of signed.parts) {
    expect(part.isSameOrigin, 'file mode: parts go to our own server').toBe(true);
    const received = await callAsPage<TPartReceived>(
      page,
      'PUT',
      part.url,
      partOf(part.partNumber),
    );
    parts.push({ ...received, sha256: sha256(partOf(part.partNumber)) });
  }
  await callAsPage(page, 'POST', `/api/uploads/${created.uploadId}/complete`, { parts });
  return { videoId, objectSize: sealed.length };
}

/**
 * A WAV file of a steady tone, `bytes` long or a little less: a media file a player seeks in by
 * arithmetic alone (a recorded WebM has no index, so a player reads up to where it seeks).
 */
export function toneWav(bytes: number): { wav: Buffer; durationMs: number } {
  const rate = 48_000;
  const channels = 2;
  const frameBytes = channels * 2;
  const frames = Math.floor((bytes - 44) / frameBytes);
  const wav = Buffer.alloc(44 + frames * frameBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * frameBytes, 28);
  wav.writeUInt16LE(frameBytes, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(frames * frameBytes, 40);
  for (let i = 0; i < frames; i++) {
    const sample = Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    wav.writeInt16LE(sample, 44 + i * frameBytes);
    wav.writeInt16LE(sample, 46 + i * frameBytes);
  }
  return { wav, durationMs: Math.floor((frames / rate) * 1000) };
}

/** Where file mode keeps a message's sealed object under the server's DATA_DIR. */
export async function findStoredObject(dataDir: string, playbackUrl: string): Promise<string> {
  const key = new URL(playbackUrl, 'http://x').searchParams.get('key');
  const files = await readdir(dataDir, { recursive: true });
  const found = files.find((file) => path.basename(file) === key);
  if (!key || !found) throw new Error(`no stored object for ${playbackUrl}`);
  return path.join(dataDir, found);
}

/** The player plays the message from the cloud, its length known (longer than `seconds`). */
export async function expectCloudCopyPlays(player: Locator, seconds = 3) {
  await expect(player).toHaveAttribute('data-source', 'cloud', { timeout: 30_000 });
  await expect
    .poll(() => player.evaluate((video) => (video as HTMLVideoElement).duration), {
      timeout: 20_000,
    })
    .toBeGreaterThan(seconds);
}

/**
 * Whether a request carries this text: in its address, headers or body. The address's fragment
 * is left out: browsers never send it (Playwright reports it with the request).
 */
export async function requestCarries(request: Request, text: string): Promise<boolean> {
  const url = new URL(request.url());
  url.hash = '';
  const headers = JSON.stringify(await request.allHeaders().catch(() => request.headers()));
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  return url.href.includes(text) || headers.includes(text) || body.includes(text);
}
