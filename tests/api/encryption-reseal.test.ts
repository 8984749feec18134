import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, videos } from '../../src/server/db/schema';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import { ENCRYPTION_MESSAGES, type TPlainCopies } from '../../src/shared/schemas/encryption';
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
import { makeSealedCard, sealedKeys, turnOn } from '../setup/encryption';
import { recipientSignedIn } from './support/cards';
import { startS3Server } from '../setup/s3';

// Copies made before enhanced encryption was on are sealed again from the owner's device: a
// sealed upload replaces the plain copy, which leaves the store, but only when the recipient's
// card opens the sealed one.

type TSigned = {
  partNumber: number;
  url: string;
  isSameOrigin: boolean;
  headers?: Record<string, string>;
};

describe.each<StorageMode>(['file', 's3'])('sealing plain copies again in %s mode', (mode) => {
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

  type TSealed = { keyWrap: string; recipientKeyWrap?: string };
  function createUpload(device: TestDevice, videoId: string, bytes: Buffer, sealed?: TSealed) {
    return device.post('/api/uploads', {
      videoId,
      title: 'For Susan',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
      ...(sealed ? { sealed } : {}),
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

  /** Status and bytes of a playback URL (file mode: the server's own signed URL). */
  async function fetchObject(url: string) {
    if (url.startsWith('/')) {
      const res = await t.app.inject({ method: 'GET', url });
      return { status: res.statusCode, bytes: res.rawPayload };
    }
    const res = await fetch(url);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  /** File mode: the object keys under DATA_DIR right now. */
  function storedFiles(): string[] {
    const root = path.join(t.config.DATA_DIR, 'videos', 'objects');
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((folder) => readdirSync(path.join(root, folder)));
  }

  /** A premium owner whose message for their next of kin went to the cloud plain, then turned on. */
  async function ownerWithPlainCopy() {
    const owner = await createPaidOwner(t);
    const plain = randomBytes(PART_BYTES + 77);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, plain.length);
    const started = await createUpload(owner.device, videoId, plain);
    expect(started.statusCode).toBe(200);
    expect((await sendAndComplete(owner.device, started.json().uploadId, plain)).statusCode).toBe(
      200,
    );
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    const accountKey = await turnOn(owner.device, owner.user.id);
    return { owner, videoId, plainKey: row!.cloudPath!, accountKey };
  }

  const plainCopies = async (device: TestDevice) => {
    const res = await device.get('/api/encryption/plain-copies');
    expect(res.statusCode).toBe(200);
    return res.json<TPlainCopies>();
  };

  it('keeps a plain copy until its recipient has a card, then replaces it and deletes the plain object', async () => {
    const { owner, videoId, plainKey, accountKey } = await ownerWithPlainCopy();
    const kin = owner.nextOfKin;
    expect(await plainCopies(owner.device)).toEqual({
      plainCount: 1,
      sealableIds: [],
      waiting: [{ recipientId: kin.id, firstName: expect.any(String), count: 1 }],
    });
    const oldUrl = (await owner.device.get(`/api/videos/${videoId}/playback`)).json<TPlayback>()
      .url;

    // Without a wrap the recipient can open, the plain copy stays.
    const sealedBytes = randomBytes(PART_BYTES * 2 + 9);
    const ownerOnly = await sealedKeys(
      accountKey,
      await makeSealedCard(accountKey, kin.email),
      videoId,
    );
    const refused = await createUpload(owner.device, videoId, sealedBytes, {
      keyWrap: ownerOnly.keyWrap,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'CONFLICT',
      message: ENCRYPTION_MESSAGES.resealNeedsCard,
    });

    const card = await makeSealedCard(accountKey, kin.email);
    const given = await owner.device.post(`/api/recipients/${kin.id}/sealed-card`, card.body);
    expect(given.statusCode).toBe(200);
    expect(await plainCopies(owner.device)).toEqual({
      plainCount: 1,
      sealableIds: [videoId],
      waiting: [],
    });

    const keys = await sealedKeys(accountKey, card, videoId);
    const created = await createUpload(owner.device, videoId, sealedBytes, {
      keyWrap: keys.keyWrap,
      recipientKeyWrap: keys.recipientKeyWrap,
    });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ state: 'uploading' });
    // Until the sealed copy is complete, the plain one is still what plays.
    const [during] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(during).toMatchObject({
      syncStatus: 'synced',
      cloudPath: plainKey,
      sealedKeyWrap: null,
    });

    const done = await sendAndComplete(owner.device, created.json().uploadId, sealedBytes);
    expect(done.statusCode).toBe(200);
    const [after] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(after).toMatchObject({
      syncStatus: 'synced',
      sealedKeyWrap: keys.keyWrap,
      recipientKeyWrap: keys.recipientKeyWrap,
      recipientKeyId: card.keyId,
      sha256: sha256(sealedBytes),
    });
    expect(after!.cloudPath).not.toBe(plainKey);
    expect((await fetchObject(oldUrl)).status).toBe(404);
    if (mode === 'file') {
      expect(storedFiles()).not.toContain(plainKey);
      expect(storedFiles()).toContain(after!.cloudPath);
    }
    expect(await plainCopies(owner.device)).toEqual({
      plainCount: 0,
      sealableIds: [],
      waiting: [],
    });
    // The owner's log says it, without the message's title.
    const log = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    const resealed = log.filter((row) => row.eventType === 'encryption_copy_resealed');
    expect(resealed).toHaveLength(1);
    expect(JSON.stringify(resealed[0]!.details)).not.toContain(after!.title ?? '\u0000');

    // The recipient gets the sealed copy and their wrap for it.
    const { device: kinDevice } = await recipientSignedIn(t, kin.email, card);
    const forKin = (await kinDevice.get(`/api/videos/${videoId}/playback`)).json<TPlayback>();
    expect(forKin.sealed).toMatchObject({ keyWrap: keys.recipientKeyWrap, keyId: card.keyId });
    const fetched = await fetchObject(forKin.url);
    expect(sha256(fetched.bytes)).toBe(sha256(sealedBytes));
  });

  it('keeps the plain copy when the recipient gets another card while the sealed one is on its way', async () => {
    const { owner, videoId, plainKey, accountKey } = await ownerWithPlainCopy();
    const kin = owner.nextOfKin;
    const card = await makeSealedCard(accountKey, kin.email);
    await owner.device.post(`/api/recipients/${kin.id}/sealed-card`, card.body);
    const sealedBytes = randomBytes(PART_BYTES + 3);
    const keys = await sealedKeys(accountKey, card, videoId);
    const created = await createUpload(owner.device, videoId, sealedBytes, {
      keyWrap: keys.keyWrap,
      recipientKeyWrap: keys.recipientKeyWrap,
    });
    expect(created.statusCode).toBe(200);
    const newer = await makeSealedCard(accountKey, kin.email);
    await owner.device.post(`/api/recipients/${kin.id}/sealed-card`, newer.body);

    const done = await sendAndComplete(owner.device, created.json().uploadId, sealedBytes);
    expect(done.statusCode).toBe(409);
    expect(done.json()).toEqual({
      code: 'CONFLICT',
      message: ENCRYPTION_MESSAGES.resealCardChanged,
    });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ syncStatus: 'synced', cloudPath: plainKey, sealedKeyWrap: null });
    if (mode === 'file') expect(storedFiles()).toEqual(expect.arrayContaining([plainKey]));
    expect((await plainCopies(owner.device)).sealableIds).toEqual([videoId]);
  });

  it('answers the counts only to the owner', async () => {
    const { owner } = await ownerWithPlainCopy();
    const kin = await TestDevice.create(t.app);
    const signIn = await kin.post('/api/login', {
      email: owner.nextOfKin.email,
      password: owner.nextOfKin.emergencyAccessCode,
      method: 'email_access_code',
      deviceId: kin.deviceId,
    });
    expect(signIn.statusCode).toBe(200);
    const res = await kin.get('/api/encryption/plain-copies');
    expect(res.statusCode).toBe(403);
  });
});
