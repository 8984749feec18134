import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploads, users, videos } from '../../src/server/db/schema';
import {
  buildTestApp,
  createOnboardedUser,
  createPrimaryUser,
  type TestApp,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { startS3Server, TEST_BUCKET } from '../setup/s3';

// A stored video is only ever kept and served as a video: the allow-list of types on every route
// that takes one, and the headers its cloud copy is sent with, in both storage modes.

const PART_BYTES = 64 * 1024;
const SAVE_REFUSED = 'Only video recordings can be saved';
const IMPORT_REFUSED = 'Only videos can be imported';
const SANDBOX = "sandbox; default-src 'none'";
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What the recorders send, and the one form each is kept in. */
const RECORDER_TYPES: Array<[sent: string, stored: string, served: string]> = [
  ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp8,opus', 'video/webm;codecs="vp8,opus"'],
  ['video/webm; codecs="vp8, opus"', 'video/webm;codecs=vp8,opus', 'video/webm;codecs="vp8,opus"'],
  [
    'video/mp4;codecs="avc1.42E01E,mp4a.40.2"',
    'video/mp4;codecs=avc1.42E01E,mp4a.40.2',
    'video/mp4;codecs="avc1.42E01E,mp4a.40.2"',
  ],
  ['video/mp4', 'video/mp4', 'video/mp4'],
  [' Video/QuickTime ', 'video/quicktime', 'video/quicktime'],
];

const HOSTILE_TYPES = [
  'video/mp4;,text/html',
  'video/mp4;,text/javascript',
  'video/mp4;codecs=avc1,text/html',
  'video/mp4;codecs="avc1";charset=utf-8',
  'video/webm;charset=utf-8',
  'video/webm;',
  'text/html',
  'image/svg+xml',
  'video/svg+xml',
  'video/x-matroska',
  'video/webm\u0000',
  'video/webm;codecs=vp8\u0000,opus',
  'video/mp4é',
  'video/webm;codecs=vp8,opus\r\nSet-Cookie: a=b',
  `video/webm;codecs=${'vp8,'.repeat(30)}opus`,
];

/** A premium owner with a next of kin, signed in on their primary device. */
async function paidOwner(t: TestApp) {
  const owner = await createOnboardedUser(t);
  await t.db.update(users).set({ subscriptionTier: 'premium' }).where(eq(users.id, owner.user.id));
  return owner;
}

async function indexVideo(device: TestDevice, recipientId: number, mimeType: string) {
  const id = randomUUID();
  const res = await device.post('/api/videos', {
    id,
    recipientId,
    metadata: { byteSize: 1000, durationMs: 4000, mimeType },
  });
  return { id, res };
}

/** The client's whole path for one small video: start, sign its one part, PUT it, complete. */
async function upload(t: TestApp, device: TestDevice, videoId: string, bytes: Buffer) {
  const checksum = sha256(bytes);
  const created = await device.post('/api/uploads', {
    videoId,
    title: 'For Susan',
    promptId: null,
    byteSize: bytes.length,
    sha256: checksum,
  });
  expect(created.statusCode).toBe(200);
  const { uploadId } = created.json<{ uploadId: string }>();
  const signed = await device.post(`/api/uploads/${uploadId}/sign`, {
    partNumbers: [1],
    sha256s: [checksum],
  });
  expect(signed.statusCode).toBe(200);
  const [part] = signed.json<{
    parts: Array<{ url: string; isSameOrigin: boolean; headers?: Record<string, string> }>;
  }>().parts;
  const headers = part!.headers ?? {};
  let etag: string | null;
  if (part!.isSameOrigin) {
    const put = await device.request({
      method: 'PUT',
      url: part!.url,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream', ...headers },
    });
    etag = put.headers.etag as string;
  } else {
    const put = await fetch(part!.url, { method: 'PUT', body: new Uint8Array(bytes), headers });
    etag = put.headers.get('etag');
  }
  const completed = await device.post(`/api/uploads/${uploadId}/complete`, {
    parts: [{ partNumber: 1, etag, sha256: checksum }],
  });
  expect(completed.statusCode).toBe(200);
}

async function storedType(t: TestApp, videoId: string) {
  const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
  return row?.mimeType;
}

describe('video types in file mode', () => {
  const t = useTestApp({ uploadPartBytes: PART_BYTES, admin: true });

  it('refuses every type that is not a video on the list with a clear 400, storing nothing', async () => {
    const owner = await paidOwner(t);
    for (const mimeType of HOSTILE_TYPES) {
      const { id, res } = await indexVideo(owner.device, owner.nextOfKin.id, mimeType);
      expect(res.statusCode, JSON.stringify(mimeType)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION' });
      expect(res.json().message).toContain(SAVE_REFUSED);
      expect(await storedType(t, id)).toBeUndefined();
    }
  });

  it('refuses them on a paired phone too, starting no upload', async () => {
    const owner = await paidOwner(t);
    const created = await owner.device.post('/api/pairings');
    const token = new URL(created.json<{ url: string }>().url).hash.replace('#pair=', '');
    const phone = await TestDevice.create(t.app);
    const headers = { 'x-pairing-token': token };
    const bytes = randomBytes(500);
    const send = (mimeType: string) =>
      phone.post(
        '/api/pairing/videos',
        {
          id: randomUUID(),
          recipientId: owner.nextOfKin.id,
          title: 'Grandad at the seaside',
          durationMs: 4000,
          mimeType,
          byteSize: bytes.length,
          sha256: sha256(bytes),
        },
        headers,
      );
    for (const mimeType of HOSTILE_TYPES) {
      const res = await send(mimeType);
      expect(res.statusCode, JSON.stringify(mimeType)).toBe(400);
      expect(res.json().message).toContain(IMPORT_REFUSED);
    }
    const kept = await t.db.select().from(videos).where(eq(videos.creatorId, owner.user.id));
    expect(kept).toEqual([]);
    const started = await t.db.select().from(uploads).where(eq(uploads.userId, owner.user.id));
    expect(started).toEqual([]);

    // Safari's own way of writing a gallery video's type is kept in the one form.
    const accepted = await send('video/mp4; codecs="avc1.42E01E, mp4a.40.2"');
    expect(accepted.statusCode).toBe(200);
    const rows = await t.db.select().from(videos).where(eq(videos.creatorId, owner.user.id));
    expect(rows.map((row) => row.mimeType)).toEqual(['video/mp4;codecs=avc1.42E01E,mp4a.40.2']);
  });

  it('keeps the recorders’ types, each in its one written form', async () => {
    const owner = await paidOwner(t);
    for (const [sent, stored] of RECORDER_TYPES) {
      const { id, res } = await indexVideo(owner.device, owner.nextOfKin.id, sent);
      expect(res.statusCode, sent).toBe(201);
      expect(res.json().metadata.mimeType).toBe(stored);
      expect(await storedType(t, id)).toBe(stored);
    }
  });

  it('serves a cloud copy as a video only: its type, nosniff, inline, sandboxed', async () => {
    const owner = await paidOwner(t);
    const bytes = randomBytes(2000);
    for (const [sent, stored, served] of RECORDER_TYPES.slice(1, 3)) {
      const { id } = await indexVideo(owner.device, owner.nextOfKin.id, sent);
      await upload(t, owner.device, id, bytes);
      const playback = await owner.device.get(`/api/videos/${id}/playback`);
      expect(playback.json().mimeType).toBe(stored);
      const url = playback.json<{ url: string }>().url;
      const whole = await t.app.inject({ method: 'GET', url });
      const ranged = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-99' } });
      expect([whole.statusCode, ranged.statusCode]).toEqual([200, 206]);
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      const extension = stored.startsWith('video/mp4') ? 'mp4' : 'webm';
      for (const res of [whole, ranged]) {
        expect(res.headers).toMatchObject({
          'content-type': served,
          'x-content-type-options': 'nosniff',
          'content-disposition': `inline; filename="message.${extension}"`,
          'content-security-policy': SANDBOX,
        });
      }

      // The signed type cannot be swapped for another.
      const swapped = url.replace(/type=[^&]+/, `type=${encodeURIComponent('text/html')}`);
      expect((await t.app.inject({ method: 'GET', url: swapped })).statusCode).toBe(404);
    }
  });

  it('sends a row saved with a hostile type before the list existed as a download', async () => {
    const owner = await paidOwner(t);
    const page = Buffer.from('<!doctype html><script>document.title = "ran"</script>');
    const { id } = await indexVideo(owner.device, owner.nextOfKin.id, 'video/mp4');
    await upload(t, owner.device, id, page);
    for (const legacy of ['video/mp4;,text/html', 'vidéo/mp4', 'video/mp4;,text/javascript']) {
      await t.db.update(videos).set({ mimeType: legacy }).where(eq(videos.id, id));
      const playback = await owner.device.get(`/api/videos/${id}/playback`);
      expect(playback.statusCode).toBe(200);
      expect(playback.json().mimeType).toBe('application/octet-stream');
      const res = await t.app.inject({ method: 'GET', url: playback.json<{ url: string }>().url });
      expect(res.statusCode).toBe(200);
      expect(res.headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'attachment; filename="message.bin"',
        'content-security-policy': SANDBOX,
      });
    }
  });
});

describe('video types in S3 mode', () => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let client: S3Client;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await buildTestApp({ env: s3.env, uploadPartBytes: PART_BYTES });
    await createPrimaryUser(t);
    client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.env.S3_REGION!,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  });
  afterAll(async () => {
    client.destroy();
    await t.close();
    await s3.close();
  });

  async function uploadAndRead(mimeType: string, legacyType?: string) {
    const owner = await paidOwner(t);
    const bytes = randomBytes(1500);
    const { id } = await indexVideo(owner.device, owner.nextOfKin.id, mimeType);
    if (legacyType) {
      await t.db.update(videos).set({ mimeType: legacyType }).where(eq(videos.id, id));
    }
    await upload(t, owner.device, id, bytes);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, id));
    const object = await client.send(
      new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: row!.cloudPath! }),
    );
    const playback = await owner.device.get(`/api/videos/${id}/playback`);
    const url = new URL(playback.json<{ url: string }>().url);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    return { object, url, res, playback: playback.json<{ mimeType: string }>() };
  }

  it('stores the object as the video it is, and signs GETs that say so again', async () => {
    const { object, url, res, playback } = await uploadAndRead(
      'video/mp4; codecs="avc1.42E01E, mp4a.40.2"',
    );
    const served = 'video/mp4;codecs="avc1.42E01E,mp4a.40.2"';
    const disposition = 'inline; filename="message.mp4"';
    expect(playback.mimeType).toBe('video/mp4;codecs=avc1.42E01E,mp4a.40.2');
    expect(object.ContentType).toBe(served);
    expect(object.ContentDisposition).toBe(disposition);
    expect(url.searchParams.get('response-content-type')).toBe(served);
    expect(url.searchParams.get('response-content-disposition')).toBe(disposition);
    expect(res.headers.get('content-type')).toBe(served);
    expect(res.headers.get('content-disposition')).toBe(disposition);
  });

  it('stores and serves a legacy row’s hostile type as a download', async () => {
    const { object, url, res } = await uploadAndRead('video/webm', 'video/mp4;,text/html');
    expect(object.ContentType).toBe('application/octet-stream');
    expect(url.searchParams.get('response-content-type')).toBe('application/octet-stream');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      'attachment; filename="message.bin"',
    );
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
  });
});
