import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { videos } from '../../src/server/db/schema';
import { CLOUD_MESSAGES } from '../../src/shared/schemas/cloud';
import { compositeChecksumInput } from '../../src/shared/domain/composite-checksum';
import { findPlan } from '../../src/shared/domain/plans';
import { createOnboardedUser, createPrimaryUser, setTier, TestDevice } from '../setup/app';
import {
  createPaidOwner,
  indexVideo,
  PART_BYTES,
  partSums,
  sha256,
  type StorageMode,
  useCloudApp,
  withSums,
} from '../setup/cloud';

// The cloud library's upload protocol and playback, in both storage modes — files under DATA_DIR,
// and a real S3-compatible server (s3rver) — each on the test run's database.

describe.each<StorageMode>(['file', 's3'])('cloud library in %s mode', (mode) => {
  const t = useCloudApp(mode);

  /** PUTs one part where the server said: its own endpoint, or the store's presigned URL. */
  async function putPart(
    device: TestDevice,
    part: { url: string; isSameOrigin: boolean; headers?: Record<string, string> },
    bytes: Buffer,
  ): Promise<{ status: number; etag: string | undefined }> {
    if (part.isSameOrigin) {
      const res = await device.request({
        method: 'PUT',
        url: part.url,
        payload: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      });
      return { status: res.statusCode, etag: res.headers.etag as string | undefined };
    }
    const res = await fetch(part.url, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: part.headers ?? {},
    });
    return { status: res.status, etag: res.headers.get('etag') ?? undefined };
  }

  async function startUpload(
    device: TestDevice,
    videoId: string,
    bytes: Buffer,
    title = 'For Susan',
  ) {
    return device.post('/api/uploads', {
      videoId,
      title,
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
    });
  }

  type TSigned = {
    partNumber: number;
    url: string;
    isSameOrigin: boolean;
    headers: Record<string, string>;
  };

  /** Links for these parts, with the device's checksums the S3 store binds them to. */
  async function signParts(device: TestDevice, uploadId: string, bytes: Buffer, numbers: number[]) {
    const signed = await device.post(`/api/uploads/${uploadId}/sign`, {
      partNumbers: numbers,
      sha256s: partSums(bytes, numbers),
    });
    expect(signed.statusCode).toBe(200);
    return signed.json<{ parts: TSigned[] }>().parts;
  }

  /**
   * The whole client path: create (which in file mode signs the first parts; an S3 link needs
   * the part's checksum, so there the device signs them), send every part, complete.
   */
  async function uploadWhole(device: TestDevice, videoId: string, bytes: Buffer) {
    const created = await startUpload(device, videoId, bytes);
    expect(created.statusCode).toBe(200);
    const upload = created.json<{
      uploadId: string;
      partSize: number;
      partCount: number;
      needsPartChecksums: boolean;
      parts: TSigned[];
    }>();
    expect(upload.needsPartChecksums).toBe(mode === 's3');
    if (upload.needsPartChecksums) {
      expect(upload.parts).toEqual([]);
      upload.parts = await signParts(
        device,
        upload.uploadId,
        bytes,
        Array.from({ length: upload.partCount }, (_, index) => index + 1),
      );
    }
    expect(upload.parts.map((part) => part.partNumber)).toEqual(
      Array.from({ length: upload.partCount }, (_, index) => index + 1),
    );
    const parts = [];
    for (const part of upload.parts) {
      const slice = bytes.subarray(
        (part.partNumber - 1) * upload.partSize,
        part.partNumber * upload.partSize,
      );
      const sent = await putPart(device, part, slice);
      expect(sent.status).toBe(200);
      parts.push({ partNumber: part.partNumber, etag: sent.etag! });
    }
    const completed = await device.post(`/api/uploads/${upload.uploadId}/complete`, {
      parts: withSums(bytes, parts),
    });
    return { upload, completed };
  }

  /** Reads a cloud copy the way the player does: playback URL, then a ranged GET. */
  async function readCloudCopy(device: TestDevice, videoId: string, range?: string) {
    const playback = await device.get(`/api/videos/${videoId}/playback`);
    if (playback.statusCode !== 200) return { status: playback.statusCode, body: playback.json() };
    const { url } = playback.json<{ url: string }>();
    if (url.startsWith('/')) {
      // A signed URL: the <video> element sends neither X-Device-ID nor needs the session.
      const res = await t.app.inject({ method: 'GET', url, headers: range ? { range } : {} });
      return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers };
    }
    const res = await fetch(url, range ? { headers: { range } } : {});
    return {
      status: res.status,
      bytes: Buffer.from(await res.arrayBuffer()),
      headers: Object.fromEntries(res.headers),
    };
  }

  it('sends a paid user’s video in parts and keeps a byte-identical copy that plays with Range', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES * 2 + 1234);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);

    const { upload, completed } = await uploadWhole(owner.device, videoId, bytes);
    expect(upload.partCount).toBe(3);
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({
      id: videoId,
      syncStatus: 'synced',
      storageType: 'cloud',
      title: 'For Susan',
    });

    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({
      syncStatus: 'synced',
      sha256: sha256(bytes),
      byteSize: bytes.length,
      title: 'For Susan',
    });
    expect(row!.cloudPath).toMatch(/^[0-9a-f]{32}$/);

    const whole = await readCloudCopy(owner.device, videoId);
    expect(whole.status).toBe(200);
    expect(sha256(whole.bytes!)).toBe(sha256(bytes));

    const ranged = await readCloudCopy(owner.device, videoId, 'bytes=100-199');
    expect(ranged.status).toBe(206);
    expect(ranged.bytes!.equals(bytes.subarray(100, 200))).toBe(true);

    const status = await owner.device.get('/api/cloud/status');
    expect(status.json()).toMatchObject({
      hasCloudSync: true,
      usedBytes: bytes.length,
      quotaBytes: findPlan('premium').cloudStorageBytes,
      syncedCount: 1,
    });
    expect(status.json().lastSyncAt).not.toBeNull();

    const index = await owner.device.get('/api/videos');
    expect(index.json()).toEqual([
      expect.objectContaining({ id: videoId, title: 'For Susan', syncStatus: 'synced' }),
    ]);

    // Asking again for a synced, identical video sends nothing more.
    const again = await startUpload(owner.device, videoId, bytes);
    expect(again.json()).toEqual({ state: 'synced', videoId });
  });

  it('keeps a copy declared part by part, with no whole checksum: each part checked, their composite kept', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES * 2 + 77);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const start = () =>
      owner.device.post('/api/uploads', {
        videoId,
        title: 'For Susan',
        promptId: null,
        byteSize: bytes.length,
      });
    const created = await start();
    expect(created.statusCode).toBe(200);
    const { uploadId } = created.json<{ uploadId: string }>();
    // A reload asks again with the same size: the same upload, so sent parts stay sent.
    expect((await start()).json().uploadId).toBe(uploadId);

    const parts = [];
    for (const part of await signParts(owner.device, uploadId, bytes, [1, 2, 3])) {
      const slice = bytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      const sent = await putPart(owner.device, part, slice);
      expect(sent.status).toBe(200);
      parts.push({ partNumber: part.partNumber, etag: sent.etag! });
    }
    const unsummed = await owner.device.post(`/api/uploads/${uploadId}/complete`, { parts });
    expect(unsummed.statusCode).toBe(400);
    expect(unsummed.json()).toMatchObject({ message: CLOUD_MESSAGES.partChecksumsNeeded });
    const completed = await owner.device.post(`/api/uploads/${uploadId}/complete`, {
      parts: withSums(bytes, parts),
    });
    expect(completed.statusCode).toBe(200);

    const composite = sha256(Buffer.from(compositeChecksumInput(partSums(bytes, [1, 2, 3]))));
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ syncStatus: 'synced', sha256: composite });
    expect((await owner.device.get('/api/videos')).json()).toEqual([
      expect.objectContaining({ id: videoId, sha256: composite }),
    ]);
    expect((await readCloudCopy(owner.device, videoId)).bytes!.equals(bytes)).toBe(true);
  });

  it('resumes an upload under the same id, so parts already sent are never sent again', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES * 2 + 10);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const first = (await startUpload(owner.device, videoId, bytes)).json<{ uploadId: string }>();
    const parts = await signParts(owner.device, first.uploadId, bytes, [1, 2, 3]);
    const sentFirst = await putPart(owner.device, parts[0]!, bytes.subarray(0, PART_BYTES));

    // The tab closed here. Later the device asks again and gets the same upload.
    const resumed = (await startUpload(owner.device, videoId, bytes)).json<{
      uploadId: string;
      state: string;
    }>();
    expect(resumed).toMatchObject({ state: 'uploading', uploadId: first.uploadId });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row!.syncStatus).toBe('pending_sync');

    const sentRest = [];
    for (const part of parts.slice(1)) {
      const slice = bytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      sentRest.push({
        partNumber: part.partNumber,
        etag: (await putPart(owner.device, part, slice)).etag!,
      });
    }
    const completed = await owner.device.post(`/api/uploads/${first.uploadId}/complete`, {
      parts: withSums(bytes, [{ partNumber: 1, etag: sentFirst.etag! }, ...sentRest]),
    });
    expect(completed.statusCode).toBe(200);
    expect(sha256((await readCloudCopy(owner.device, videoId)).bytes!)).toBe(sha256(bytes));
  });

  it('catches a part sent again with other bytes: only a byte-identical copy is kept', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES * 2 + 77);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const upload = (await startUpload(owner.device, videoId, bytes)).json<{
      uploadId: string;
      parts: TSigned[];
    }>();
    if (mode === 's3')
      upload.parts = await signParts(owner.device, upload.uploadId, bytes, [1, 2, 3]);
    const etags = [];
    for (const part of upload.parts) {
      const slice = bytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      etags.push({
        partNumber: part.partNumber,
        etag: (await putPart(owner.device, part, slice)).etag!,
      });
    }
    // Part 2 again, the same size but other bytes: what is stored now differs from the device's.
    const other = await putPart(owner.device, upload.parts[1]!, randomBytes(PART_BYTES));
    expect(other.status).toBe(200);
    etags[1] = { partNumber: 2, etag: other.etag! };

    // In S3 mode the link binds part 2's checksum: a real store refuses the other bytes at once;
    // s3rver keeps them, and completion finds them in the store's listing.
    const completed = await owner.device.post(`/api/uploads/${upload.uploadId}/complete`, {
      parts: withSums(bytes, etags),
    });
    expect(completed.statusCode).toBe(409);
    expect(completed.json().message).toBe(CLOUD_MESSAGES.checksumMismatch);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ syncStatus: 'local_only', cloudPath: null });
  });

  it('discards a copy whose checksum does not match the device’s and keeps the message local', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 5);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const created = await owner.device.post('/api/uploads', {
      videoId,
      title: 'Wrong sum',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(Buffer.from('something else')),
    });
    const upload = created.json<{ uploadId: string }>();
    // The device's checksums are of other bytes than arrived: the whole file's in file mode,
    // each part's in S3 mode (where the store vouches for parts, not the whole).
    const other = randomBytes(bytes.length);
    const parts = [];
    for (const part of await signParts(owner.device, upload.uploadId, other, [1, 2])) {
      const slice = bytes.subarray(
        (part.partNumber - 1) * PART_BYTES,
        part.partNumber * PART_BYTES,
      );
      parts.push({
        partNumber: part.partNumber,
        etag: (await putPart(owner.device, part, slice)).etag!,
      });
    }
    const completed = await owner.device.post(`/api/uploads/${upload.uploadId}/complete`, {
      parts: withSums(other, parts),
    });
    expect(completed.statusCode).toBe(409);
    expect(completed.json()).toEqual({
      code: 'CONFLICT',
      message: CLOUD_MESSAGES.checksumMismatch,
    });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ syncStatus: 'local_only', cloudPath: null });
    expect(
      (await owner.device.post(`/api/uploads/${upload.uploadId}/sign`, { partNumbers: [1] }))
        .statusCode,
    ).toBe(404);
  });

  it('never takes a free user’s video: Community Edition stays on the device', async () => {
    const owner = await createOnboardedUser(t);
    const bytes = randomBytes(1000);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const res = await startUpload(owner.device, videoId, bytes);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'UPGRADE_REQUIRED',
      message: CLOUD_MESSAGES.upgradeRequired,
    });
    expect((await owner.device.get('/api/cloud/status')).json()).toMatchObject({
      hasCloudSync: false,
      quotaBytes: null,
    });
  });

  it('says plainly when the cloud storage is full, and keeps nothing', async () => {
    const owner = await createPaidOwner(t);
    await setTier(t, owner.user.id, 'standard');
    const big = await indexVideo(owner.device, owner.nextOfKin.id, 10);
    await t.db
      .update(videos)
      .set({
        syncStatus: 'synced',
        storageType: 'cloud',
        byteSize: findPlan('standard').cloudStorageBytes - 100,
      })
      .where(eq(videos.id, big));
    const bytes = randomBytes(500);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const res = await startUpload(owner.device, videoId, bytes);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'STORAGE_FULL', message: CLOUD_MESSAGES.storageFull });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row!.syncStatus).toBe('local_only');
  });

  /** A paid owner's message in the cloud, shared with their next of kin, who signs in for it. */
  async function sharedMessage() {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 77);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    expect((await uploadWhole(owner.device, videoId, bytes)).completed.statusCode).toBe(200);
    const nextOfKinPhone = await TestDevice.create(t.app);
    const signIn = await nextOfKinPhone.post('/api/login', {
      email: owner.nextOfKin.email,
      password: owner.nextOfKin.emergencyAccessCode,
      method: 'email_access_code',
      deviceId: nextOfKinPhone.deviceId,
    });
    expect(signIn.statusCode).toBe(200);
    return { owner, bytes, videoId, nextOfKinPhone };
  }

  it('lets the recipient it is shared with watch it', async () => {
    const { bytes, videoId, nextOfKinPhone } = await sharedMessage();
    const home = await nextOfKinPhone.get('/api/recipient-home');
    expect(home.json().sharedVideos).toEqual([
      expect.objectContaining({ id: videoId, title: 'For Susan' }),
    ]);
    const watched = await readCloudCopy(nextOfKinPhone, videoId);
    expect(watched.status).toBe(200);
    expect(sha256(watched.bytes!)).toBe(sha256(bytes));
  });

  it('lets nobody else watch it: another recipient of the owner, another user, nobody at all', async () => {
    const { owner, videoId } = await sharedMessage();
    // Another recipient of the same owner, not shared with.
    const friend = await owner.device.post('/api/recipients', {
      firstName: 'Frank',
      lastName: 'Ford',
      email: `frank.${owner.user.username}@example.test`,
      category: 'friend',
    });
    const friendPhone = await TestDevice.create(t.app);
    await friendPhone.post('/api/login', {
      email: `frank.${owner.user.username}@example.test`,
      password: friend.json().emergencyAccessCode,
      method: 'email_access_code',
      deviceId: friendPhone.deviceId,
    });
    expect((await friendPhone.get('/api/recipient-home')).statusCode).toBe(200);
    expect((await friendPhone.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(404);

    const stranger = await createPrimaryUser(t);
    expect((await stranger.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(404);
    const anonymous = await TestDevice.create(t.app);
    expect((await anonymous.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(401);
  });

  if (mode === 'file') {
    it('refuses its signed URL once any part of it is touched', async () => {
      const { videoId, nextOfKinPhone } = await sharedMessage();
      // The signed URL names one object for a few minutes; touching any part of it breaks it.
      const signed = (await nextOfKinPhone.get(`/api/videos/${videoId}/playback`)).json<{
        url: string;
      }>();
      const url = new URL(signed.url, 'http://localhost');
      const tamper = async (name: string, value: string) => {
        const forged = new URL(url);
        forged.searchParams.set(name, value);
        return (await t.app.inject({ method: 'GET', url: forged.pathname + forged.search }))
          .statusCode;
      };
      expect(await tamper('expires', String(Math.floor(Date.now() / 1000) + 86_400))).toBe(404);
      expect(await tamper('expires', String(Math.floor(Date.now() / 1000) - 1))).toBe(404);
      expect(await tamper('sig', 'A'.repeat(43))).toBe(404);
      expect(await tamper('type', 'text/html')).toBe(404);
      const otherVideo = randomUUID();
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/videos/${otherVideo}/content${url.search}`,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/videos/${videoId}/content` })).json(),
      ).toMatchObject({
        code: 'VALIDATION',
        message: 'This link has ended. Please open the message again.',
      });
    });
  }

  it('lets nobody else start an upload for it, paid or not', async () => {
    const { bytes, videoId, nextOfKinPhone } = await sharedMessage();
    const stranger = await createPrimaryUser(t);
    await setTier(t, stranger.user.id, 'premium');
    const startFor = (device: TestDevice) =>
      device.post('/api/uploads', {
        videoId,
        title: 'x',
        promptId: null,
        byteSize: bytes.length,
        sha256: sha256(bytes),
      });
    expect((await startFor(stranger.device)).statusCode).toBe(404);
    expect((await startFor(nextOfKinPhone)).statusCode).toBe(403);
  });

  it('removes the cloud copy with the message, and the recipient loses access at once', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 1);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    await uploadWhole(owner.device, videoId, bytes);
    const playback = (await owner.device.get(`/api/videos/${videoId}/playback`)).json<{
      url: string;
    }>();
    if (mode === 'file') expect(countObjects()).toBeGreaterThan(0);

    const deleted = await owner.device.delete('/api/videos', { ids: [videoId] });
    expect(deleted.json()).toEqual({ deletedIds: [videoId] });
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(404);
    if (mode === 'file') {
      // A URL signed before the delete finds nothing now: the file went with the message.
      expect((await t.app.inject({ method: 'GET', url: playback.url })).statusCode).toBe(404);
    } else {
      // Even a presigned URL handed out before the delete finds nothing now.
      expect((await fetch(playback.url)).status).toBe(404);
    }
  });

  it('removes the cloud copies of a deleted recipient’s messages, and the recipient with them', async () => {
    const owner = await createPaidOwner(t);
    const friend = await owner.device.post('/api/recipients', {
      firstName: 'Fay',
      lastName: 'Fox',
      email: `fay.${owner.user.username}@example.test`,
      category: 'friend',
    });
    const bytes = randomBytes(300);
    const videoId = await indexVideo(owner.device, friend.json().id, bytes.length);
    await uploadWhole(owner.device, videoId, bytes);
    const playback = (await owner.device.get(`/api/videos/${videoId}/playback`)).json<{
      url: string;
    }>();
    expect((await owner.device.delete(`/api/recipients/${friend.json().id}`)).statusCode).toBe(200);
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(404);
    if (mode === 's3') expect((await fetch(playback.url)).status).toBe(404);
  });

  it('answers bad input with a clear message, never a 500', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 3);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);

    const noTitle = await owner.device.post('/api/uploads', {
      videoId,
      title: '  ',
      promptId: null,
      byteSize: 3,
      sha256: sha256(bytes),
    });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().message).toBe(CLOUD_MESSAGES.titleRequired);
    const badSum = await owner.device.post('/api/uploads', {
      videoId,
      title: 'A',
      byteSize: 3,
      sha256: 'abc',
    });
    expect(badSum.json()).toMatchObject({
      code: 'VALIDATION',
      message: 'The checksum must be a SHA-256 in hex',
    });
    expect(
      (
        await owner.device.post('/api/uploads', {
          videoId: 'nope',
          title: 'A',
          byteSize: 3,
          sha256: sha256(bytes),
        })
      ).json().message,
    ).toBe('Video id must be a UUID');
    expect((await startUpload(owner.device, randomUUID(), bytes)).json()).toEqual({
      code: 'NOT_FOUND',
      message: CLOUD_MESSAGES.videoNotFound,
    });
    expect(
      (await owner.device.post(`/api/uploads/not-a-uuid/sign`, { partNumbers: [1] })).json()
        .message,
    ).toBe('Upload id must be a UUID');
    expect(
      (await owner.device.post(`/api/uploads/${randomUUID()}/sign`, { partNumbers: [1] }))
        .statusCode,
    ).toBe(404);

    const upload = (await startUpload(owner.device, videoId, bytes)).json<{ uploadId: string }>();
    const beyond = await owner.device.post(`/api/uploads/${upload.uploadId}/sign`, {
      partNumbers: [3],
    });
    expect(beyond.json()).toMatchObject({
      code: 'VALIDATION',
      message: 'This upload has 2 parts.',
    });
    expect(
      (await owner.device.post(`/api/uploads/${upload.uploadId}/sign`, { partNumbers: [] })).json()
        .message,
    ).toBe('Please name at least one part');
    expect(
      (
        await owner.device.post(`/api/uploads/${upload.uploadId}/complete`, {
          parts: [{ partNumber: 1, etag: '"x"' }],
        })
      ).json(),
    ).toMatchObject({ code: 'VALIDATION', message: CLOUD_MESSAGES.partsMissing });
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).json()).toEqual({
      code: 'NOT_FOUND',
      message: CLOUD_MESSAGES.notInCloud,
    });
    expect(
      (
        await owner.device.request({
          method: 'POST',
          url: '/api/uploads',
          payload: 'x=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(415);

    if (mode === 'file') {
      const url = `/api/uploads/${upload.uploadId}/parts/1`;
      const short = await owner.device.request({
        method: 'PUT',
        url,
        payload: randomBytes(10),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(short.json()).toEqual({ code: 'VALIDATION', message: CLOUD_MESSAGES.partSizeWrong });
      const long = await owner.device.request({
        method: 'PUT',
        url,
        payload: randomBytes(PART_BYTES + 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(long.json()).toEqual({ code: 'VALIDATION', message: CLOUD_MESSAGES.partSizeWrong });
      const zero = await owner.device.request({
        method: 'PUT',
        url: `/api/uploads/${upload.uploadId}/parts/0`,
        payload: randomBytes(1),
      });
      expect(zero.json().message).toBe('Part numbers start at 1');
      const stranger = await createPaidOwner(t);
      const foreign = await stranger.device.request({
        method: 'PUT',
        url,
        payload: randomBytes(PART_BYTES),
      });
      expect(foreign.statusCode).toBe(404);
    }
    // Abort ends it; the message is local again.
    expect((await owner.device.delete(`/api/uploads/${upload.uploadId}`)).statusCode).toBe(204);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row!.syncStatus).toBe('local_only');
  });

  it('makes one upload from parallel starts for the same message', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(200);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => startUpload(owner.device, videoId, bytes)),
    );
    const ids = new Set(answers.map((res) => res.json().uploadId));
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect(ids.size).toBe(1);
  });

  function countObjects(): number {
    const root = path.join(t.config.DATA_DIR, 'videos', 'objects');
    if (!existsSync(root)) return 0;
    return readdirSync(root).reduce(
      (total, folder) => total + readdirSync(path.join(root, folder)).length,
      0,
    );
  }
});
