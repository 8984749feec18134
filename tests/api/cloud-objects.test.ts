import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CreateMultipartUploadCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledJobs, uploads, videos } from '../../src/server/db/schema';
import { type TestDevice, useTestApp } from '../setup/app';
import { createPaidOwner, indexVideo, PART_BYTES, sha256, type StorageMode } from '../setup/cloud';
import { startS3Server, TEST_BUCKET } from '../setup/s3';
import { TcpProxy } from '../setup/tcp-proxy';

// Every stored object has exactly one owner row: a re-upload, and every deletion (a message, a
// recipient, a user, an account with its recipients), leave nothing in the store; a nightly sweep
// removes whatever no row owns. Each in file mode and in S3 mode (s3rver).

const DAY_MS = 24 * 3600_000;

type TSigned = {
  partNumber: number;
  url: string;
  isSameOrigin: boolean;
  headers?: Record<string, string>;
};

describe.each<StorageMode>(['file', 's3'])('stored objects in %s mode', (mode) => {
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let bucket: S3Client | undefined;
  let proxy: TcpProxy | undefined;
  let admin: TestDevice;
  let totpSecret: string;
  /** The sweep's clock: each run is a few days after the last, so each is due. */
  let sweepClock = Date.now() + 2 * DAY_MS;

  beforeAll(async () => {
    if (mode === 's3') {
      s3 = await startS3Server();
      // The app reaches the store through a proxy, so a test can take the store away.
      proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
      bucket = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
    }
  });
  afterAll(async () => {
    bucket?.destroy();
    await proxy?.close();
    await s3?.close();
  });
  const t = useTestApp(() => ({
    env: s3 ? { ...s3.env, S3_ENDPOINT: `http://127.0.0.1:${proxy!.port}` } : {},
    uploadPartBytes: PART_BYTES,
    admin: { email: `admin.${mode}@care.test` },
  }));
  beforeAll(async () => {
    admin = t.admin.device;
    totpSecret = (await admin.post('/api/admin/2fa/enrol')).json<{ secret: string }>().secret;
    const confirmed = await admin.post('/api/admin/2fa/confirm', { code: totp() });
    expect(confirmed.statusCode).toBe(200);
  });

  function totp(): string {
    return new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30 }).generate();
  }

  const objectsRoot = () => path.join(t.config.DATA_DIR, 'videos', 'objects');
  const uploadsRoot = () => path.join(t.config.DATA_DIR, 'videos', 'uploads');

  /** The object keys the store holds right now, as the store itself lists them. */
  async function storedKeys(): Promise<string[]> {
    if (mode === 's3') {
      const listed = await bucket!.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    }
    if (!existsSync(objectsRoot())) return [];
    return readdirSync(objectsRoot())
      .flatMap((folder) => readdirSync(path.join(objectsRoot(), folder)))
      .sort();
  }

  async function addFriend(owner: Awaited<ReturnType<typeof createPaidOwner>>) {
    const res = await owner.device.post('/api/recipients', {
      firstName: 'Fay',
      lastName: 'Fox',
      email: `fay.${owner.user.username}@example.test`,
      category: 'friend',
    });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: number }>().id;
  }

  async function putPart(device: TestDevice, part: TSigned, bytes: Buffer) {
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

  /** Starts an upload and sends its parts (all, or the first `sendParts`) as the client does. */
  async function sendUpload(
    device: TestDevice,
    videoId: string,
    bytes: Buffer,
    sendParts = Infinity,
  ) {
    const created = await device.post('/api/uploads', {
      videoId,
      title: 'For Susan',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
    });
    expect(created.statusCode).toBe(200);
    const upload = created.json<{
      uploadId: string;
      partCount: number;
      needsPartChecksums?: boolean;
    }>();
    const numbers = Array.from({ length: upload.partCount }, (_, index) => index + 1).slice(
      0,
      sendParts,
    );
    const slice = (n: number) => bytes.subarray((n - 1) * PART_BYTES, n * PART_BYTES);
    const partSums = numbers.map((n) => sha256(slice(n)));
    const signed = await device.post(`/api/uploads/${upload.uploadId}/sign`, {
      partNumbers: numbers,
      ...(upload.needsPartChecksums ? { sha256s: partSums } : {}),
    });
    expect(signed.statusCode).toBe(200);
    const parts = [];
    for (const part of signed.json<{ parts: TSigned[] }>().parts) {
      const etag = await putPart(device, part, slice(part.partNumber));
      parts.push({
        partNumber: part.partNumber,
        etag,
        ...(upload.needsPartChecksums ? { sha256: partSums[part.partNumber - 1] } : {}),
      });
    }
    return { uploadId: upload.uploadId, parts };
  }

  async function uploadWhole(device: TestDevice, videoId: string, bytes: Buffer) {
    const { uploadId, parts } = await sendUpload(device, videoId, bytes);
    const completed = await device.post(`/api/uploads/${uploadId}/complete`, { parts });
    expect(completed.statusCode).toBe(200);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    return row!.cloudPath!;
  }

  /** A playback link as the player gets it; `open` then reads it as the player would. */
  async function playbackLink(device: TestDevice, videoId: string) {
    const res = await device.get(`/api/videos/${videoId}/playback`);
    expect(res.statusCode).toBe(200);
    return res.json<{ url: string }>().url;
  }

  async function open(url: string): Promise<{ status: number; bytes: Buffer }> {
    if (url.startsWith('/')) {
      const res = await t.app.inject({ method: 'GET', url });
      return { status: res.statusCode, bytes: res.rawPayload };
    }
    const res = await fetch(url);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  async function sweep(now = (sweepClock += 3 * DAY_MS)) {
    return t.app.jobs.sweepOrphanedObjects(new Date(now));
  }

  it('a re-upload with other bytes replaces the old object; the old link stops working', async () => {
    const owner = await createPaidOwner(t);
    const first = randomBytes(PART_BYTES + 100);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, first.length);
    const firstKey = await uploadWhole(owner.device, videoId, first);
    expect(await storedKeys()).toContain(firstKey);
    const oldLink = await playbackLink(owner.device, videoId);
    expect((await open(oldLink)).status).toBe(200);

    // The device holds other bytes for the same message now (a restore, an edit): sent again.
    const second = randomBytes(PART_BYTES * 2 + 7);
    const secondKey = await uploadWhole(owner.device, videoId, second);
    expect(secondKey).not.toBe(firstKey);
    const held = await storedKeys();
    expect(held).toContain(secondKey);
    expect(held).not.toContain(firstKey);
    expect((await open(oldLink)).status).toBe(404);
    const now = await open(await playbackLink(owner.device, videoId));
    expect(sha256(now.bytes)).toBe(sha256(second));
    const status = (await owner.device.get('/api/cloud/status')).json();
    expect(status).toMatchObject({ usedBytes: second.length, syncedCount: 1 });
  });

  /**
   * Makes the store refuse to delete `key`: in S3 mode the store is away altogether (its address
   * stops answering); in file mode the object's path becomes a folder with something in it.
   * Answers how to bring it back.
   */
  async function storeRefusesToDelete(key: string): Promise<() => Promise<void>> {
    if (mode === 's3') {
      await proxy!.refuse();
      return () => proxy!.restore();
    }
    const objectPath = path.join(objectsRoot(), key.slice(0, 2), key);
    renameSync(objectPath, `${objectPath}.aside`);
    mkdirSync(objectPath);
    writeFileSync(path.join(objectPath, 'in-the-way'), 'x');
    return async () => {
      rmSync(objectPath, { recursive: true });
      renameSync(`${objectPath}.aside`, objectPath);
    };
  }

  it('a store that cannot delete never undoes a delete nor loses a new copy; the sweep removes the rest', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(300);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const key = await uploadWhole(owner.device, videoId, bytes);
    const link = await playbackLink(owner.device, videoId);

    const storeBack = await storeRefusesToDelete(key);
    const deleted = await owner.device.delete('/api/videos', { ids: [videoId] });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ deletedIds: [videoId] });
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(404);
    await storeBack();
    const left = [key];
    expect(await storedKeys()).toContain(key);

    let keptKey: string | undefined;
    if (mode === 'file') {
      // A re-upload whose old copy the store will not delete keeps the new copy all the same.
      const first = randomBytes(300);
      const resent = await indexVideo(owner.device, owner.nextOfKin.id, first.length);
      const firstKey = await uploadWhole(owner.device, resent, first);
      const back = await storeRefusesToDelete(firstKey);
      const second = randomBytes(400);
      keptKey = await uploadWhole(owner.device, resent, second);
      const [row] = await t.db.select().from(videos).where(eq(videos.id, resent));
      expect(row).toMatchObject({ cloudPath: keptKey, sha256: sha256(second) });
      expect(sha256((await open(await playbackLink(owner.device, resent))).bytes)).toBe(
        sha256(second),
      );
      await back();
      left.push(firstKey);
    }
    expect(await storedKeys()).toEqual(expect.arrayContaining(left));

    // The nightly sweep finds what no row owns by itself.
    const swept = await sweep();
    expect(swept).toMatchObject({ ran: true, failed: 0 });
    expect(swept.objectsRemoved).toBeGreaterThanOrEqual(left.length);
    const held = await storedKeys();
    for (const gone of left) expect(held).not.toContain(gone);
    if (keptKey) expect(held).toContain(keptKey);
    expect((await open(link)).status).toBe(404);
  });

  it('deleting a message, or a recipient with their messages, deletes their objects', async () => {
    const owner = await createPaidOwner(t);
    const friendId = await addFriend(owner);
    const forKin = await indexVideo(owner.device, owner.nextOfKin.id, 500);
    const forFriend = await indexVideo(owner.device, friendId, 600);
    const kinKey = await uploadWhole(owner.device, forKin, randomBytes(500));
    const friendKey = await uploadWhole(owner.device, forFriend, randomBytes(600));
    const kinLink = await playbackLink(owner.device, forKin);
    const friendLink = await playbackLink(owner.device, forFriend);

    expect((await owner.device.delete('/api/videos', { ids: [forKin] })).statusCode).toBe(200);
    expect(await storedKeys()).not.toContain(kinKey);
    expect((await open(kinLink)).status).toBe(404);
    expect(await storedKeys()).toContain(friendKey);

    expect((await owner.device.delete(`/api/recipients/${friendId}`)).statusCode).toBe(200);
    expect(await storedKeys()).not.toContain(friendKey);
    expect((await open(friendLink)).status).toBe(404);
  });

  it('an admin deleting a recipient, or accounts with their recipients, deletes every object', async () => {
    const a = await createPaidOwner(t);
    const b = await createPaidOwner(t);
    const aFriend = await addFriend(a);
    const bFriend = await addFriend(b);
    const keys: string[] = [];
    const links: string[] = [];
    for (const [owner, recipientId] of [
      [a, a.nextOfKin.id],
      [a, aFriend],
      [b, b.nextOfKin.id],
      [b, bFriend],
    ] as const) {
      const bytes = randomBytes(700);
      const videoId = await indexVideo(owner.device, recipientId, bytes.length);
      keys.push(await uploadWhole(owner.device, videoId, bytes));
      links.push(await playbackLink(owner.device, videoId));
    }
    // And one upload under way, its first part sent.
    const pendingBytes = randomBytes(PART_BYTES + 10);
    const pendingVideo = await indexVideo(b.device, b.nextOfKin.id, pendingBytes.length);
    const pending = await sendUpload(b.device, pendingVideo, pendingBytes, 1);
    if (mode === 'file') expect(existsSync(path.join(uploadsRoot(), pending.uploadId))).toBe(true);

    // The admin deletes one of a's recipients: the messages for them go from the store.
    const one = await admin.delete('/api/admin/users', { ids: [aFriend] });
    expect(one.statusCode).toBe(200);
    expect(await storedKeys()).not.toContain(keys[1]);
    expect((await open(links[1]!)).status).toBe(404);
    expect(await storedKeys()).toContain(keys[0]);

    // Both accounts at once, with their recipients.
    const both = await admin.delete('/api/admin/users', {
      ids: [a.user.id, b.user.id],
      includeRecipients: true,
    });
    expect(both.statusCode).toBe(200);
    const held = await storedKeys();
    for (const key of keys) expect(held).not.toContain(key);
    for (const link of links) expect((await open(link)).status).toBe(404);
    expect(await t.db.select().from(uploads).where(eq(uploads.id, pending.uploadId))).toEqual([]);
    if (mode === 'file') expect(existsSync(path.join(uploadsRoot(), pending.uploadId))).toBe(false);
  });

  it('the nightly sweep removes what no row owns, once a day across servers, and nothing young', async () => {
    const owner = await createPaidOwner(t);
    const kept = randomBytes(800);
    const keptVideo = await indexVideo(owner.device, owner.nextOfKin.id, kept.length);
    const keptKey = await uploadWhole(owner.device, keptVideo, kept);
    const underWayBytes = randomBytes(PART_BYTES + 5);
    const underWayVideo = await indexVideo(owner.device, owner.nextOfKin.id, underWayBytes.length);
    const underWay = await sendUpload(owner.device, underWayVideo, underWayBytes, 1);

    // What no row owns: an object, an unfinished upload; and a name the app never makes.
    const orphanKey = randomBytes(16).toString('hex');
    const orphanUpload = randomUUID();
    if (mode === 's3') {
      await bucket!.send(
        new PutObjectCommand({ Bucket: TEST_BUCKET, Key: orphanKey, Body: randomBytes(50) }),
      );
      await bucket!.send(
        new PutObjectCommand({ Bucket: TEST_BUCKET, Key: 'notes/keep.txt', Body: 'not ours' }),
      );
      await bucket!.send(
        new CreateMultipartUploadCommand({
          Bucket: TEST_BUCKET,
          Key: randomBytes(16).toString('hex'),
        }),
      );
    } else {
      mkdirSync(path.join(objectsRoot(), orphanKey.slice(0, 2)), { recursive: true });
      writeFileSync(path.join(objectsRoot(), orphanKey.slice(0, 2), orphanKey), randomBytes(50));
      writeFileSync(path.join(objectsRoot(), orphanKey.slice(0, 2), 'keep.txt'), 'not ours');
      mkdirSync(path.join(uploadsRoot(), orphanUpload), { recursive: true });
      writeFileSync(path.join(uploadsRoot(), orphanUpload, '1.part'), randomBytes(50));
    }

    // Today (no sweep has run yet) everything is younger than the grace window: nothing goes.
    await t.db
      .update(scheduledJobs)
      .set({ nextRunAt: new Date(0) })
      .where(eq(scheduledJobs.name, 'cloud.orphan-sweep'));
    const today = await sweep(Date.now());
    expect(today).toMatchObject({ ran: true, objectsRemoved: 0, uploadsRemoved: 0 });
    expect(await storedKeys()).toContain(orphanKey);

    // Two days on, two servers tick together: one sweeps, the other finds it done.
    const later = (sweepClock += 3 * DAY_MS);
    const [first, second] = await Promise.all([sweep(later), sweep(later)]);
    const ran = [first!, second!].filter((result) => result.ran);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.objectsRemoved).toBeGreaterThanOrEqual(1);
    expect(ran[0]!.failed).toBe(0);
    const held = await storedKeys();
    expect(held).not.toContain(orphanKey);
    expect(held).toContain(keptKey);
    if (mode === 's3') {
      expect(held).toContain('notes/keep.txt');
      // s3rver cannot list unfinished uploads; a real store's listing is swept the same way.
      expect(ran[0]!.uploadsListed).toBe(false);
    } else {
      expect(held).toContain('keep.txt');
      expect(ran[0]).toMatchObject({ uploadsListed: true });
      expect(ran[0]!.uploadsRemoved).toBeGreaterThanOrEqual(1);
      expect(existsSync(path.join(uploadsRoot(), orphanUpload))).toBe(false);
      expect(existsSync(path.join(uploadsRoot(), underWay.uploadId))).toBe(true);
    }
    expect((await open(await playbackLink(owner.device, keptVideo))).status).toBe(200);

    // The upload under way still finishes after the sweep.
    const rest = await sendUpload(owner.device, underWayVideo, underWayBytes);
    const completed = await owner.device.post(`/api/uploads/${rest.uploadId}/complete`, {
      parts: rest.parts,
    });
    expect(completed.statusCode).toBe(200);

    // Within the day it does not run again.
    expect(await sweep(later + 3600_000)).toMatchObject({ ran: false });
  });
});
