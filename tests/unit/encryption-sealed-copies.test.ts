import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud-messages';
import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import {
  generateWrappingKey,
  openStream,
  partCount,
  SEALED_SEGMENT_BYTES,
  sealedSize,
  segmentPlaintextStart,
  unwrapKey,
  wrapLabel,
} from '@shared/sealing';
import { saveDeviceId } from '@web/lib/device-id';
import { keepAccountKey, getAccountKey, forgetAccountKeys } from '@web/lib/encryption/device-keys';
import { openSealedCopy, SEALED_PLAYBACK_MESSAGES } from '@web/lib/encryption/open-sealed';
import {
  forgetSealing,
  outgoingPartSealer,
  prepareSealedCopy,
} from '@web/lib/encryption/seal-upload';
import { localDb } from '@web/lib/videos/local-store';
import { expectSameBytes, readAll, recording } from './sealing-helpers';

const OWNER = 7;
const VIDEO_ID = '3f1c2b9a-6d4e-4f80-9a1b-2c3d4e5f6071';
const WEBM_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];
// A recording as the camera makes one (WebM's first bytes), longer than one upload part.
const PLAIN = recording(UPLOAD_PART_BYTES + 300_000);
PLAIN.set(WEBM_MAGIC, 0);

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let accountKey: CryptoKey;

/** The whole sealed copy, each part sealed on its own as the sync engine sends it. */
async function sealForUpload(input: { blob: Blob }) {
  const copy = await prepareSealedCopy({
    videoId: VIDEO_ID,
    userId: OWNER,
    blob: input.blob,
    accountKey,
  });
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const sums: string[] = [];
  const sealNext = outgoingPartSealer(copy, UPLOAD_PART_BYTES);
  for (let n = 1; n <= partCount(input.blob.size, UPLOAD_PART_BYTES); n++) {
    const part = await sealNext(n);
    const bytes = await bytesOf(part.body.body);
    expect(part.sha256).toBe(sha256(bytes));
    parts.push(bytes);
    sums.push(part.sha256);
    await part.body.discard();
  }
  expect(copy.byteSize).toBe(sealedSize(input.blob.size));
  return { blob: new Blob(parts), keyWrap: copy.keyWrap, sums };
}

beforeAll(async () => {
  saveDeviceId('0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8');
  accountKey = await generateWrappingKey({ extractable: true });
  await keepAccountKey(OWNER, accountKey);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sealing a cloud copy', () => {
  it('seals byte for byte the same on every attempt, with one key kept for the owner', async () => {
    const blob = new Blob([PLAIN], { type: 'video/webm' });
    const first = await sealForUpload({ blob });
    const sealed = await bytesOf(first.blob);
    expect(sealed.length).toBe(sealedSize(PLAIN.length));
    expect(first.blob.size).toBeGreaterThan(UPLOAD_PART_BYTES);
    expect(new TextDecoder().decode(sealed.subarray(0, 4))).toBe('MMSV');
    expect([...sealed.subarray(0, 4)]).not.toEqual(WEBM_MAGIC);
    // The second part starts with segment 32, sealed too: never the recording's own bytes.
    const secondPartStart = segmentPlaintextStart(UPLOAD_PART_BYTES / SEALED_SEGMENT_BYTES);
    expect(
      Buffer.from(sealed.subarray(UPLOAD_PART_BYTES, UPLOAD_PART_BYTES + 64)).equals(
        Buffer.from(PLAIN.subarray(secondPartStart, secondPartStart + 64)),
      ),
    ).toBe(false);
    expect(Buffer.from(sealed).indexOf(Buffer.from(PLAIN.subarray(0, 64)))).toBe(-1);

    // A reload: the kept sealing is used again, so the checksum the server signed still holds.
    const again = await sealForUpload({ blob });
    expect(sha256(await bytesOf(again.blob))).toBe(sha256(sealed));
    expect(again.sums).toEqual(first.sums);
    expect(again.keyWrap).toBe(first.keyWrap);
    // One sealing for this video (other unit files share the library: isolate is off).
    expect(await localDb.sealings.where('videoId').equals(VIDEO_ID).count()).toBe(1);

    // The owner's wrap opens it with the account key alone.
    const contentKey = await unwrapKey(
      first.keyWrap,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(VIDEO_ID)),
      'content',
    );
    const opened = await readAll(openStream(contentKey, first.blob.stream(), VIDEO_ID));
    expectSameBytes(opened, PLAIN);
  });

  it('gives other bytes under the same id a new key, and forgets a sealing once sent', async () => {
    const before = await localDb.sealings.get(VIDEO_ID);
    const shorter = new Blob([PLAIN.subarray(0, 1000)], { type: 'video/webm' });
    const copy = await sealForUpload({ blob: shorter });
    const after = await localDb.sealings.get(VIDEO_ID);
    expect(after?.plaintextLength).toBe(1000);
    expect(after?.noncePrefix).not.toBe(before?.noncePrefix);
    expect(copy.keyWrap).not.toBe(before?.ownerKeyWrap);
    await forgetSealing(VIDEO_ID);
    expect(await localDb.sealings.get(VIDEO_ID)).toBeUndefined();
  });
});

describe('playing a sealed copy', () => {
  const small = recording(700_000);
  let keyWrap: string;
  let sealed: Uint8Array<ArrayBuffer>;

  beforeAll(async () => {
    const blob = new Blob([small], { type: 'video/webm' });
    const copy = await sealForUpload({ blob });
    keyWrap = copy.keyWrap;
    sealed = await bytesOf(copy.blob);
  });

  function serve(bytes: Uint8Array<ArrayBuffer>) {
    vi.stubGlobal('window', {
      location: { href: 'http://localhost:5071/', origin: 'http://localhost:5071' },
    });
    const fetch = vi.fn(async () => new Response(bytes, { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  const open = (url: string, wrap: string | null = keyWrap) =>
    openSealedCopy({
      userId: OWNER,
      videoId: VIDEO_ID,
      url,
      keyWrap: wrap,
      mimeType: 'video/webm',
    });

  it('opens the whole copy into a video of the recorded type', async () => {
    const fetch = serve(sealed);
    const opened = await open('/api/cloud/objects/abc');
    if (!opened.isOpened) throw new Error(opened.message);
    expect(opened.blob.type).toBe('video/webm');
    expectSameBytes(await bytesOf(opened.blob), small);
    expect(fetch).toHaveBeenCalledWith('/api/cloud/objects/abc', { credentials: 'same-origin' });
  });

  it('sends no cookies to a store at another address', async () => {
    const fetch = serve(sealed);
    await open('https://store.example.test/bucket/abc?X-Amz-Signature=1');
    expect(fetch).toHaveBeenCalledWith(expect.any(String), { credentials: 'omit' });
  });

  it('refuses a changed or cut copy whole, never playing what it could open', async () => {
    const changed = sealed.slice();
    changed[300_000] = (changed[300_000] ?? 0) ^ 1;
    serve(changed);
    expect(await open('/o')).toEqual({
      isOpened: false,
      message: SEALED_PLAYBACK_MESSAGES.damaged,
    });
    serve(sealed.slice(0, sealed.length - 10));
    expect(await open('/o')).toEqual({
      isOpened: false,
      message: SEALED_PLAYBACK_MESSAGES.damaged,
    });
  });

  it('says when a copy is sealed for its owner only, or this device is locked', async () => {
    const fetch = serve(sealed);
    expect(await open('/o', null)).toEqual({
      isOpened: false,
      message: SEALED_PLAYBACK_MESSAGES.ownerOnly,
    });
    await forgetAccountKeys();
    expect(await getAccountKey(OWNER)).toBeNull();
    expect(await open('/o')).toEqual({ isOpened: false, message: SEALED_PLAYBACK_MESSAGES.locked });
    expect(fetch).not.toHaveBeenCalled();
    await keepAccountKey(OWNER, accountKey);
  });
});
