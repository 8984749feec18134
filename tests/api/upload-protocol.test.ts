import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, devices, uploads, videos } from '../../src/server/db/schema';
import { MESSAGES } from '../../src/shared/domain/errors';
import { findPlan } from '../../src/shared/domain/plans';
import { CLOUD_MESSAGES } from '../../src/shared/schemas/cloud';
import { PAIRING_MESSAGES } from '../../src/shared/schemas/pairing';
import { MAX_VIDEO_BYTES } from '../../src/shared/schemas/videos';
import { createSessionFor, setTier, TestDevice } from '../setup/app';
import {
  createPaidOwner,
  indexVideo,
  PART_BYTES,
  partOf,
  partSums,
  sha256,
  type StorageMode,
  useCloudApp,
} from '../setup/cloud';

// The upload protocol holds against its own users: a phone only ever makes new messages, every
// step asks again for the plan and the device, two writers of one part never mix, S3 part links
// bind the part's length and checksum for 15 minutes, and the quota counts unfinished uploads.

type TSigned = {
  partNumber: number;
  url: string;
  isSameOrigin: boolean;
  headers: Record<string, string>;
};
type TUploading = { uploadId: string; partCount: number; parts: TSigned[] };

describe.each<StorageMode>(['file', 's3'])('the upload protocol in %s mode', (mode) => {
  const t = useCloudApp(mode);

  async function start(device: TestDevice, videoId: string, bytes: Buffer) {
    const res = await device.post('/api/uploads', {
      videoId,
      title: 'For Susan',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
    });
    expect(res.statusCode).toBe(200);
    return res.json<TUploading>();
  }

  function sign(
    device: TestDevice,
    uploadId: string,
    bytes: Buffer,
    numbers: number[],
    headers = {},
  ) {
    return device.post(
      `/api/uploads/${uploadId}/sign`,
      { partNumbers: numbers, sha256s: partSums(bytes, numbers) },
      headers,
    );
  }

  async function put(device: TestDevice, part: TSigned, body: Buffer, headers = {}) {
    if (part.isSameOrigin) {
      const res = await device.request({
        method: 'PUT',
        url: part.url,
        payload: body,
        headers: { ...headers, 'content-type': 'application/octet-stream' },
      });
      return { status: res.statusCode, etag: res.headers.etag as string };
    }
    const res = await fetch(part.url, {
      method: 'PUT',
      body: new Uint8Array(body),
      headers: part.headers,
    });
    return { status: res.status, etag: res.headers.get('etag')! };
  }

  /** Sends every part as the device holds it; answers the parts to complete with. */
  async function sendAll(device: TestDevice, upload: TUploading, bytes: Buffer, headers = {}) {
    const numbers = Array.from({ length: upload.partCount }, (_, index) => index + 1);
    const signed = await sign(device, upload.uploadId, bytes, numbers, headers);
    const sent = [];
    for (const part of signed.json<{ parts: TSigned[] }>().parts) {
      const { etag } = await put(device, part, partOf(bytes, part.partNumber), headers);
      sent.push({
        partNumber: part.partNumber,
        etag,
        sha256: sha256(partOf(bytes, part.partNumber)),
      });
    }
    return sent;
  }

  async function complete(device: TestDevice, uploadId: string, parts: unknown[], headers = {}) {
    return device.post(`/api/uploads/${uploadId}/complete`, { parts }, headers);
  }

  async function readCloudCopy(device: TestDevice, videoId: string): Promise<Buffer> {
    const { url } = (await device.get(`/api/videos/${videoId}/playback`)).json<{ url: string }>();
    if (url.startsWith('/')) return (await t.app.inject({ method: 'GET', url })).rawPayload;
    return Buffer.from(await (await fetch(url)).arrayBuffer());
  }

  async function uploadRow(uploadId: string) {
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, uploadId));
    return row!;
  }

  async function videoRow(videoId: string) {
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    return row!;
  }

  async function pairPhone(owner: Awaited<ReturnType<typeof createPaidOwner>>) {
    const created = await owner.device.post('/api/pairings');
    const token = new URL(created.json<{ url: string }>().url).hash.replace('#pair=', '');
    return { phone: await TestDevice.create(t.app), headers: { 'x-pairing-token': token } };
  }

  function phoneVideo(id: string, recipientId: number, bytes: Buffer) {
    return {
      id,
      recipientId,
      title: 'From the phone',
      durationMs: 1000,
      mimeType: 'video/mp4',
      byteSize: bytes.length,
      sha256: sha256(bytes),
    };
  }

  it('lets a paired phone only ever make a new message, never take over an existing id', async () => {
    const owner = await createPaidOwner(t);
    const { phone, headers } = await pairPhone(owner);
    const bytes = randomBytes(PART_BYTES + 500);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const upload = await start(owner.device, videoId, bytes);
    const sent = await sendAll(owner.device, upload, bytes);

    const stranger = await createPaidOwner(t);
    const theirs = await indexVideo(stranger.device, stranger.nextOfKin.id, 10);
    const fake = randomBytes(129);
    for (const id of [videoId, theirs]) {
      const taken = await phone.post(
        '/api/pairing/videos',
        phoneVideo(id, owner.nextOfKin.id, fake),
        headers,
      );
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ code: 'CONFLICT', message: PAIRING_MESSAGES.idInUse });
    }
    // The same new id twice with other bytes: the second is refused as well.
    const fresh = randomUUID();
    const first = await phone.post(
      '/api/pairing/videos',
      phoneVideo(fresh, owner.nextOfKin.id, fake),
      headers,
    );
    expect(first.statusCode).toBe(200);
    const again = await phone.post(
      '/api/pairing/videos',
      phoneVideo(fresh, owner.nextOfKin.id, randomBytes(129)),
      headers,
    );
    expect(again.statusCode).toBe(409);
    // Nor can the phone reach the owner's own upload.
    expect((await sign(phone, upload.uploadId, bytes, [1], headers)).statusCode).toBe(404);

    // The owner's upload went on untouched and the message holds the owner's bytes.
    expect((await uploadRow(upload.uploadId)).status).toBe('active');
    expect((await complete(owner.device, upload.uploadId, sent)).statusCode).toBe(200);
    expect(sha256(await readCloudCopy(owner.device, videoId))).toBe(sha256(bytes));
    expect(await videoRow(theirs)).toMatchObject({ creatorId: stranger.user.id, byteSize: 10 });
  });

  it('answers a phone asking again for its own upload as the first time, and nothing else', async () => {
    const owner = await createPaidOwner(t);
    const { phone, headers } = await pairPhone(owner);
    const bytes = randomBytes(PART_BYTES + 700);
    const video = phoneVideo(randomUUID(), owner.nextOfKin.id, bytes);
    const post = (body: object, as = headers) => phone.post('/api/pairing/videos', body, as);

    const first = await post(video);
    expect(first.statusCode).toBe(200);
    const answer = first.json<TUploading>();
    // The answer was lost on the way: the phone asks again and gets the same upload.
    const retry = await post(video);
    expect(retry.statusCode).toBe(200);
    expect(retry.json<TUploading>()).toMatchObject({
      uploadId: answer.uploadId,
      partCount: answer.partCount,
      parts: answer.parts.map((part) => ({ partNumber: part.partNumber })),
    });
    const received = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'pairing_video_received')),
      );
    expect(received).toHaveLength(1);

    // The same id with another size, type or bytes is refused, and changes nothing.
    for (const changed of [
      { ...video, byteSize: bytes.length + 1 },
      { ...video, mimeType: 'video/webm' },
      { ...video, sha256: sha256(randomBytes(16)) },
    ]) {
      const refused = await post(changed);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'CONFLICT', message: PAIRING_MESSAGES.idInUse });
    }
    expect(await videoRow(video.id)).toMatchObject({
      byteSize: bytes.length,
      mimeType: 'video/mp4',
    });
    expect((await uploadRow(answer.uploadId)).status).toBe('active');

    // The phone sends its parts and completes: the message holds its bytes.
    const sent = await sendAll(phone, answer, bytes, headers);
    expect((await complete(phone, answer.uploadId, sent, headers)).statusCode).toBe(200);
    expect(sha256(await readCloudCopy(owner.device, video.id))).toBe(sha256(bytes));

    // Complete, it is not answered again; nor is a new pairing's ask for the first one's video.
    expect((await post(video)).statusCode).toBe(409);
    const unfinished = phoneVideo(randomUUID(), owner.nextOfKin.id, bytes);
    expect((await post(unfinished)).statusCode).toBe(200);
    const second = await pairPhone(owner);
    const byOther = await second.phone.post('/api/pairing/videos', unfinished, second.headers);
    expect(byOther.statusCode).toBe(409);
    expect(byOther.json()).toMatchObject({ code: 'CONFLICT', message: PAIRING_MESSAGES.idInUse });
  });

  it('lets only the primary device, or the phone for its own uploads, take any step', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 10);
    const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const upload = await start(owner.device, videoId, bytes);
    const sent = await sendAll(owner.device, upload, bytes);

    // The owner signed in on an added device: it may watch, never send.
    const added = await TestDevice.create(t.app);
    await t.db.update(devices).set({ userId: owner.user.id }).where(eq(devices.id, added.deviceId));
    await createSessionFor(t, {
      userId: owner.user.id,
      device: added,
      method: 'username_password',
    });
    const refusals = [
      await sign(added, upload.uploadId, bytes, [1]),
      await complete(added, upload.uploadId, sent),
      await added.delete(`/api/uploads/${upload.uploadId}`),
      await added.request({
        method: 'PUT',
        url: `/api/uploads/${upload.uploadId}/parts/1`,
        payload: partOf(bytes, 1),
        headers: { 'content-type': 'application/octet-stream' },
      }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'FORBIDDEN', message: MESSAGES.primaryOnlyRecord });
    }
    expect((await uploadRow(upload.uploadId)).status).toBe('active');
    expect((await complete(owner.device, upload.uploadId, sent)).statusCode).toBe(200);
  });

  it('stops an upload at its next step once the plan has no cloud sync, and frees its bytes', async () => {
    const owner = await createPaidOwner(t);
    const { phone, headers } = await pairPhone(owner);
    const bytes = randomBytes(PART_BYTES * 2 + 3);
    const [first, second] = [
      await indexVideo(owner.device, owner.nextOfKin.id, bytes.length),
      await indexVideo(owner.device, owner.nextOfKin.id, bytes.length),
    ];
    const one = await start(owner.device, first!, bytes);
    const two = await start(owner.device, second!, bytes);
    const twoSent = await sendAll(owner.device, two, bytes);
    const byPhone = await phone.post(
      '/api/pairing/videos',
      phoneVideo(randomUUID(), owner.nextOfKin.id, bytes),
      headers,
    );
    const phoneUpload = byPhone.json<TUploading>();
    const phoneSent = await sendAll(phone, phoneUpload, bytes, headers);

    await setTier(t, owner.user.id, 'free');
    const steps = [
      mode === 'file'
        ? await owner.device.request({
            method: 'PUT',
            url: one.parts[0]!.url,
            payload: partOf(bytes, 1),
            headers: { 'content-type': 'application/octet-stream' },
          })
        : await sign(owner.device, one.uploadId, bytes, [1]),
      await complete(owner.device, two.uploadId, twoSent),
      await complete(phone, phoneUpload.uploadId, phoneSent, headers),
    ];
    for (const step of steps) {
      expect(step.statusCode).toBe(403);
      expect(step.json()).toEqual({
        code: 'UPGRADE_REQUIRED',
        message: CLOUD_MESSAGES.upgradeRequired,
      });
    }
    for (const id of [one.uploadId, two.uploadId, phoneUpload.uploadId]) {
      expect((await uploadRow(id)).status).toBe('aborted');
    }
    expect(await videoRow(second!)).toMatchObject({ syncStatus: 'local_only', cloudPath: null });
    expect((await owner.device.get('/api/cloud/status')).json()).toMatchObject({ usedBytes: 0 });
    // Back on a paid plan, the upload has ended and starts afresh.
    await setTier(t, owner.user.id, 'premium');
    expect((await complete(owner.device, two.uploadId, twoSent)).json()).toEqual({
      code: 'NOT_FOUND',
      message: CLOUD_MESSAGES.uploadNotFound,
    });
  });

  it('counts every byte held against the quota, unfinished uploads included', async () => {
    const owner = await createPaidOwner(t);
    await setTier(t, owner.user.id, 'standard');
    // Parallel starts of the largest video: exactly as many as the plan holds get in.
    const ids = [];
    for (let i = 0; i < 20; i += 1) {
      ids.push(await indexVideo(owner.device, owner.nextOfKin.id, MAX_VIDEO_BYTES));
    }
    const answers = await Promise.all(
      ids.map((videoId) =>
        owner.device.post('/api/uploads', {
          videoId,
          title: 'Long',
          promptId: null,
          byteSize: MAX_VIDEO_BYTES,
          sha256: sha256(Buffer.from(videoId)),
        }),
      ),
    );
    const fits = Math.floor(findPlan('standard').cloudStorageBytes / MAX_VIDEO_BYTES);
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(fits);
    expect(answers.filter((res) => res.json().code === 'STORAGE_FULL')).toHaveLength(20 - fits);
    expect((await owner.device.get('/api/cloud/status')).json().usedBytes).toBe(
      fits * MAX_VIDEO_BYTES,
    );

    // A message sent again with other bytes holds both copies until the new one is complete.
    const other = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES + 1);
    const videoId = await indexVideo(other.device, other.nextOfKin.id, bytes.length);
    const firstCopy = await start(other.device, videoId, bytes);
    const used = async () => (await other.device.get('/api/cloud/status')).json().usedBytes;
    expect(await used()).toBe(bytes.length);
    await complete(other.device, firstCopy.uploadId, await sendAll(other.device, firstCopy, bytes));
    const newer = randomBytes(PART_BYTES * 2);
    const secondCopy = await start(other.device, videoId, newer);
    expect(await used()).toBe(bytes.length + newer.length);
    const done = await complete(
      other.device,
      secondCopy.uploadId,
      await sendAll(other.device, secondCopy, newer),
    );
    expect(done.statusCode).toBe(200);
    expect(await used()).toBe(newer.length);
  });

  if (mode === 'file') {
    it('keeps one writer’s bytes of a part sent twice at once, never a mix', async () => {
      const owner = await createPaidOwner(t);
      const bytes = randomBytes(PART_BYTES * 2);
      const url = (n: number, upload: TUploading) => upload.parts[n - 1]!.url;

      /** A PUT whose body is half sent, then held until `release` is called. */
      function slowPut(target: string, body: Buffer) {
        const stream = new PassThrough();
        stream.write(body.subarray(0, body.length / 2));
        const answer = owner.device.request({
          method: 'PUT',
          url: target,
          payload: stream,
          headers: { 'content-type': 'application/octet-stream' },
        });
        return { answer, release: () => stream.end(body.subarray(body.length / 2)) };
      }

      // A longer body that started first and ends last is refused and leaves nothing behind.
      const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
      const upload = await start(owner.device, videoId, bytes);
      const long = slowPut(url(1, upload), randomBytes(PART_BYTES + 2048));
      const right = await put(owner.device, upload.parts[0]!, partOf(bytes, 1));
      expect(right.status).toBe(200);
      long.release();
      // Cut off at its first byte too many, as a connection is.
      await expect(long.answer).rejects.toThrow();
      const last = await put(owner.device, upload.parts[1]!, partOf(bytes, 2));
      const completed = await complete(owner.device, upload.uploadId, [
        { partNumber: 1, etag: right.etag },
        { partNumber: 2, etag: last.etag },
      ]);
      expect(completed.statusCode).toBe(200);
      expect((await readCloudCopy(owner.device, videoId)).equals(bytes)).toBe(true);

      // Other bytes of the right length that finish last replace the part whole: the check at
      // completion sees them and discards the copy.
      const second = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
      const next = await start(owner.device, second, bytes);
      const other = slowPut(url(1, next), randomBytes(PART_BYTES));
      const mine = await put(owner.device, next.parts[0]!, partOf(bytes, 1));
      other.release();
      expect((await other.answer).statusCode).toBe(200);
      const rest = await put(owner.device, next.parts[1]!, partOf(bytes, 2));
      const refused = await complete(owner.device, next.uploadId, [
        { partNumber: 1, etag: mine.etag },
        { partNumber: 2, etag: rest.etag },
      ]);
      expect(refused.json()).toEqual({
        code: 'CONFLICT',
        message: CLOUD_MESSAGES.checksumMismatch,
      });
    });
  }

  if (mode === 's3') {
    it('signs each part link for its exact length and checksum, for 15 minutes at most', async () => {
      const owner = await createPaidOwner(t);
      const bytes = randomBytes(PART_BYTES * 2 + 100);
      const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
      const upload = await start(owner.device, videoId, bytes);
      // The link binds the part's checksum, which only the sign step is told.
      expect(upload).toMatchObject({ needsPartChecksums: true, parts: [] });
      const unsummed = await owner.device.post(`/api/uploads/${upload.uploadId}/sign`, {
        partNumbers: [1],
      });
      expect(unsummed.json()).toMatchObject({
        code: 'VALIDATION',
        message: CLOUD_MESSAGES.partChecksumsNeeded,
      });

      const signed = (await sign(owner.device, upload.uploadId, bytes, [1, 2, 3])).json<{
        parts: TSigned[];
      }>().parts;
      for (const part of signed) {
        const url = new URL(part.url);
        const length = part.partNumber < 3 ? PART_BYTES : 100;
        const checksum = createHash('sha256')
          .update(partOf(bytes, part.partNumber))
          .digest('base64');
        expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe(
          'content-length;host;x-amz-checksum-sha256',
        );
        expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(900);
        expect(url.searchParams.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');
        expect(part.headers).toEqual({ 'x-amz-checksum-sha256': checksum });
        // The signature holds for exactly this length and checksum, and for nothing longer.
        const headers = { 'content-length': String(length), 'x-amz-checksum-sha256': checksum };
        expect(signatureFor(url, headers)).toBe(url.searchParams.get('X-Amz-Signature'));
        expect(signatureFor(url, { ...headers, 'content-length': String(length * 5) })).not.toBe(
          url.searchParams.get('X-Amz-Signature'),
        );
      }
    });

    it('checks part lengths and checksums from the store’s listing at completion', async () => {
      const owner = await createPaidOwner(t);
      const bytes = randomBytes(PART_BYTES * 2);
      const videoId = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
      const upload = await start(owner.device, videoId, bytes);
      const [first, second] = (await sign(owner.device, upload.uploadId, bytes, [1, 2])).json<{
        parts: TSigned[];
      }>().parts;
      // s3rver does not check signatures: a real store refuses this body outright. A device that
      // then reports the longer part as its own is caught by the listing.
      const longer = Buffer.concat([partOf(bytes, 1), randomBytes(PART_BYTES * 4)]);
      const big = await put(owner.device, first!, longer);
      expect(big.status).toBe(200);
      const rest = await put(owner.device, second!, partOf(bytes, 2));
      const withoutSums = await complete(owner.device, upload.uploadId, [
        { partNumber: 1, etag: big.etag },
        { partNumber: 2, etag: rest.etag },
      ]);
      expect(withoutSums.json()).toMatchObject({
        code: 'VALIDATION',
        message: CLOUD_MESSAGES.partChecksumsNeeded,
      });
      const refused = await complete(owner.device, upload.uploadId, [
        { partNumber: 1, etag: big.etag, sha256: sha256(longer) },
        { partNumber: 2, etag: rest.etag, sha256: sha256(partOf(bytes, 2)) },
      ]);
      expect(refused.json()).toEqual({
        code: 'CONFLICT',
        message: CLOUD_MESSAGES.checksumMismatch,
      });
      expect(await videoRow(videoId)).toMatchObject({ syncStatus: 'local_only', cloudPath: null });
      expect((await uploadRow(upload.uploadId)).status).toBe('aborted');
    });
  }
});

/** AWS Signature V4 of a presigned PUT, recomputed for these header values. */
function signatureFor(url: URL, headers: Record<string, string>): string {
  const hmac = (key: string | Buffer, text: string) =>
    createHmac('sha256', key).update(text).digest();
  const query = url.search
    .slice(1)
    .split('&')
    .filter((pair) => !pair.startsWith('X-Amz-Signature='))
    .sort();
  const signed = url.searchParams.get('X-Amz-SignedHeaders')!;
  const values: Record<string, string> = { ...headers, host: url.host };
  const canonical = [
    'PUT',
    url.pathname,
    query.join('&'),
    ...signed.split(';').map((name) => `${name}:${values[name]}`),
    '',
    signed,
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, day, region, service] = url.searchParams.get('X-Amz-Credential')!.split('/');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    url.searchParams.get('X-Amz-Date'),
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  let key = hmac('AWS4S3RVER', day!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(toSign).digest('hex');
}
