import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads, videos } from '../../src/server/db/schema';
import { ENCRYPTION_MESSAGES } from '../../src/shared/schemas/encryption';
import { CLOUD_MESSAGES, type TPlayback } from '../../src/shared/schemas/cloud';
import { compositeChecksumInput } from '../../src/shared/domain/composite-checksum';
import { TestDevice, useTestApp } from '../setup/app';
import {
  createPaidOwner,
  indexVideo,
  PART_BYTES,
  partSums,
  sha256,
  withSums,
  type StorageMode,
  type TestS3,
} from '../setup/cloud';
import { contentKeyWrap, turnOn } from '../setup/encryption';
import { startS3Server } from '../setup/s3';

// Sealed cloud copies, in both storage modes: an account with enhanced encryption on sends only
// sealed bytes with their key wrap, and the store never serves them as something to play.

type TSigned = {
  partNumber: number;
  url: string;
  isSameOrigin: boolean;
  headers?: Record<string, string>;
};

describe.each<StorageMode>(['file', 's3'])('sealed copies in %s mode', (mode) => {
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    if (mode === 's3') s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
  });
  const t = useTestApp(() => ({
    env: { ...s3?.env, ENHANCED_ENCRYPTION: 'true' },
    uploadPartBytes: PART_BYTES,
    admin: true,
  }));

  function createUpload(device: TestDevice, videoId: string, bytes: Buffer, keyWrap?: string) {
    return device.post('/api/uploads', {
      videoId,
      title: 'For Susan',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
      ...(keyWrap ? { sealed: { keyWrap } } : {}),
    });
  }

  async function putPart(device: TestDevice, part: TSigned, bytes: Buffer): Promise<string> {
    if (part.isSameOrigin) {
      const res = await device.request({
        method: 'PUT',
        url: part.url,
        payload: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(res.statusCode).toBe(200);
      return res.headers.etag as string;
    }
    const res = await fetch(part.url, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: part.headers ?? {},
    });
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  }

  /** Sends every part of the created upload as a browser does; answers the complete call. */
  async function sendAndComplete(device: TestDevice, uploadId: string, bytes: Buffer) {
    const numbers = Array.from({ length: Math.ceil(bytes.length / PART_BYTES) }, (_, i) => i + 1);
    const signed = await device.post(`/api/uploads/${uploadId}/sign`, {
      partNumbers: numbers,
      sha256s: partSums(bytes, numbers),
    });
    expect(signed.statusCode).toBe(200);
    const parts = [];
    for (const part of signed.json<{ parts: TSigned[] }>().parts) {
      const slice = bytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      parts.push({ partNumber: part.partNumber, etag: await putPart(device, part, slice) });
    }
    return device.post(`/api/uploads/${uploadId}/complete`, { parts: withSums(bytes, parts) });
  }

  /** Opens a playback URL as the page's fetch does (file mode: the server's own signed URL). */
  async function fetchObject(url: string, range?: string) {
    const headers: Record<string, string> = range ? { range } : {};
    if (url.startsWith('/')) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers };
    }
    const res = await fetch(url, { headers });
    return {
      status: res.status,
      bytes: Buffer.from(await res.arrayBuffer()),
      headers: Object.fromEntries(res.headers) as Record<string, string>,
    };
  }

  it('keeps a sealed copy with its key wrap: its owner gets the wrap, the recipient none yet, and it is served as a download', async () => {
    const owner = await createPaidOwner(t);
    const accountKey = await turnOn(owner.device, owner.user.id);
    const sealedBytes = randomBytes(PART_BYTES * 2 + 321);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, sealedBytes.length);
    const keyWrap = await contentKeyWrap(accountKey, videoId);

    const created = await createUpload(owner.device, videoId, sealedBytes, keyWrap);
    expect(created.statusCode).toBe(200);
    const { uploadId } = created.json<{ uploadId: string }>();
    const [uploadRow] = await t.db.select().from(uploads).where(eq(uploads.id, uploadId));
    expect(uploadRow!.sealedKeyWrap).toBe(keyWrap);
    // The same request again (a reload) resumes the same upload.
    const resumed = await createUpload(owner.device, videoId, sealedBytes, keyWrap);
    expect(resumed.json().uploadId).toBe(uploadId);

    const completed = await sendAndComplete(owner.device, uploadId, sealedBytes);
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({ id: videoId, syncStatus: 'synced' });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({
      syncStatus: 'synced',
      sealedKeyWrap: keyWrap,
      sha256: sha256(sealedBytes),
      byteSize: sealedBytes.length,
    });

    const forOwner = await owner.device.get(`/api/videos/${videoId}/playback`);
    expect(forOwner.statusCode).toBe(200);
    const playback = forOwner.json<TPlayback>();
    expect(playback).toMatchObject({
      mimeType: 'video/webm',
      byteSize: sealedBytes.length,
      sealed: { keyWrap, holder: 'owner', keyId: null },
    });

    const kinPhone = await TestDevice.create(t.app);
    const signIn = await kinPhone.post('/api/login', {
      email: owner.nextOfKin.email,
      password: owner.nextOfKin.emergencyAccessCode,
      method: 'email_access_code',
      deviceId: kinPhone.deviceId,
    });
    expect(signIn.statusCode).toBe(200);
    const forKin = await kinPhone.get(`/api/videos/${videoId}/playback`);
    expect(forKin.statusCode).toBe(200);
    expect(forKin.json<TPlayback>().sealed).toEqual({
      keyWrap: null,
      holder: 'recipient',
      keyId: null,
    });

    // Bytes to save, never something the browser plays or shows: and they are the sealed bytes.
    const whole = await fetchObject(playback.url);
    expect(whole.status).toBe(200);
    expect(sha256(whole.bytes)).toBe(sha256(sealedBytes));
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(String(whole.headers['content-disposition'])).toMatch(/^attachment/);
    if (mode === 'file') {
      expect(whole.headers['x-content-type-options']).toBe('nosniff');
    } else {
      const signed = new URL(playback.url).searchParams;
      expect(signed.get('response-content-type')).toBe('application/octet-stream');
      expect(signed.get('response-content-disposition')).toMatch(/^attachment/);
    }
    // The page reads the segments it needs with Range.
    const ranged = await fetchObject(playback.url, 'bytes=1000-1999');
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.equals(sealedBytes.subarray(1000, 2000))).toBe(true);
  });

  it('keeps a copy sealed while it was sent, declared part by part: each part checked, their composite kept', async () => {
    const owner = await createPaidOwner(t);
    const accountKey = await turnOn(owner.device, owner.user.id);
    const sealedBytes = randomBytes(PART_BYTES * 2 + 321);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, sealedBytes.length);
    const keyWrap = await contentKeyWrap(accountKey, videoId);
    const start = () =>
      owner.device.post('/api/uploads', {
        videoId,
        title: 'For Susan',
        promptId: null,
        byteSize: sealedBytes.length,
        sealed: { keyWrap },
      });

    const created = await start();
    expect(created.statusCode).toBe(200);
    const { uploadId } = created.json<{ uploadId: string }>();
    const [uploadRow] = await t.db.select().from(uploads).where(eq(uploads.id, uploadId));
    expect(uploadRow!.sha256).toBeNull();
    // A reload: the same sealing (its key wrap and size) resumes the same upload.
    expect((await start()).json().uploadId).toBe(uploadId);

    // Completing needs each part's checksum, in file mode too; one that differs discards the copy.
    const numbers = [1, 2, 3];
    const signed = await owner.device.post(`/api/uploads/${uploadId}/sign`, {
      partNumbers: numbers,
      sha256s: partSums(sealedBytes, numbers),
    });
    const parts = [];
    for (const part of signed.json<{ parts: TSigned[] }>().parts) {
      const slice = sealedBytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      parts.push({ partNumber: part.partNumber, etag: await putPart(owner.device, part, slice) });
    }
    const unsummed = await owner.device.post(`/api/uploads/${uploadId}/complete`, { parts });
    expect(unsummed.statusCode).toBe(400);
    expect(unsummed.json()).toMatchObject({ message: CLOUD_MESSAGES.partChecksumsNeeded });
    const completed = await owner.device.post(`/api/uploads/${uploadId}/complete`, {
      parts: withSums(sealedBytes, parts),
    });
    expect(completed.statusCode).toBe(200);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    const composite = sha256(Buffer.from(compositeChecksumInput(partSums(sealedBytes, numbers))));
    expect(row).toMatchObject({ syncStatus: 'synced', sha256: composite });
    const index = await owner.device.get('/api/videos');
    expect(index.json<Array<{ id: string; sha256: string }>>()).toContainEqual(
      expect.objectContaining({ id: videoId, sha256: composite }),
    );
    const playback = (await owner.device.get(`/api/videos/${videoId}/playback`)).json<TPlayback>();
    expect((await fetchObject(playback.url)).bytes.equals(sealedBytes)).toBe(true);
  });

  it('discards a copy declared part by part when a part that arrived is not the one declared', async () => {
    const owner = await createPaidOwner(t);
    const accountKey = await turnOn(owner.device, owner.user.id);
    const sealedBytes = randomBytes(PART_BYTES + 99);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, sealedBytes.length);
    const created = await owner.device.post('/api/uploads', {
      videoId,
      title: 'For Susan',
      promptId: null,
      byteSize: sealedBytes.length,
      sealed: { keyWrap: await contentKeyWrap(accountKey, videoId) },
    });
    const { uploadId } = created.json<{ uploadId: string }>();
    const numbers = [1, 2];
    const signed = await owner.device.post(`/api/uploads/${uploadId}/sign`, {
      partNumbers: numbers,
      sha256s: partSums(sealedBytes, numbers),
    });
    const parts = [];
    for (const part of signed.json<{ parts: TSigned[] }>().parts) {
      const slice = sealedBytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      parts.push({ partNumber: part.partNumber, etag: await putPart(owner.device, part, slice) });
    }
    // Part 2's checksum declared as part 1's: the bytes held are not what the device says.
    const [first] = partSums(sealedBytes, [1]);
    const wrong = await owner.device.post(`/api/uploads/${uploadId}/complete`, {
      parts: parts.map((part) => ({ ...part, sha256: first })),
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ message: CLOUD_MESSAGES.checksumMismatch });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ syncStatus: 'local_only', cloudPath: null });
  });

  it('takes only sealed copies once it is on, and none before', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 5);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const stray = await contentKeyWrap(
      await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
        'wrapKey',
        'unwrapKey',
      ]),
      videoId,
    );
    const early = await createUpload(owner.device, videoId, bytes, stray);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ code: 'CONFLICT', message: ENCRYPTION_MESSAGES.notOn });

    // A plain copy under way when it is turned on is never kept.
    const started = await createUpload(owner.device, videoId, bytes);
    expect(started.statusCode).toBe(200);
    const accountKey = await turnOn(owner.device, owner.user.id);
    const late = await sendAndComplete(owner.device, started.json().uploadId, bytes);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ code: 'CONFLICT', message: ENCRYPTION_MESSAGES.sealedOnly });
    const [afterLate] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(afterLate).toMatchObject({ syncStatus: 'local_only', cloudPath: null });

    const plain = await createUpload(owner.device, videoId, bytes);
    expect(plain.statusCode).toBe(409);
    expect(plain.json()).toEqual({ code: 'CONFLICT', message: ENCRYPTION_MESSAGES.sealedOnly });

    const malformed = await createUpload(owner.device, videoId, bytes, 'v1.not-a-wrap');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      message: ENCRYPTION_MESSAGES.badWrap,
      fields: { 'sealed.keyWrap': ENCRYPTION_MESSAGES.badWrap },
    });

    const sealed = await createUpload(
      owner.device,
      videoId,
      bytes,
      await contentKeyWrap(accountKey, videoId),
    );
    expect(sealed.statusCode).toBe(200);
    expect((await sendAndComplete(owner.device, sealed.json().uploadId, bytes)).statusCode).toBe(
      200,
    );
  });
});
