import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { tierDowngrades, users, videos } from '../../src/server/db/schema';
import { CLOUD_MESSAGES } from '../../src/shared/schemas/cloud';
import { createOnboardedUser, TestDevice, useTestApp } from '../setup/app';

// A move to Community Edition keeps the cloud copies 30 days (the tier downgrade record's default),
// says so, and a daily job deletes them after that, recording how many.

const DAY_MS = 24 * 3600_000;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const t = useTestApp({ mail: true, admin: { email: 'admin@care.test' } });
let admin: TestDevice;
let secret: string;

function code(): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
}

beforeAll(async () => {
  admin = t.admin.device;
  secret = (await admin.post('/api/admin/2fa/enrol')).json<{ secret: string }>().secret;
  expect((await admin.post('/api/admin/2fa/confirm', { code: code() })).statusCode).toBe(200);
});

async function setTier(userId: number, tier: 'free' | 'premium', reason: string) {
  const res = await admin.post(`/api/admin/users/${userId}/override`, {
    tier,
    isVIP: false,
    reason,
  });
  expect(res.statusCode).toBe(200);
}

/** A premium owner with one message in the cloud (file mode, one part). */
async function ownerWithSyncedMessage() {
  const owner = await createOnboardedUser(t);
  await t.db.update(users).set({ subscriptionTier: 'premium' }).where(eq(users.id, owner.user.id));
  const bytes = randomBytes(2000);
  const videoId = randomUUID();
  await owner.device.post('/api/videos', {
    id: videoId,
    recipientId: owner.nextOfKin.id,
    metadata: { byteSize: bytes.length, durationMs: 3000, mimeType: 'video/webm' },
  });
  const upload = (
    await owner.device.post('/api/uploads', {
      videoId,
      title: 'Birthday wishes',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
    })
  ).json<{ uploadId: string }>();
  const put = await owner.device.request({
    method: 'PUT',
    url: `/api/uploads/${upload.uploadId}/parts/1`,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  const done = await owner.device.post(`/api/uploads/${upload.uploadId}/complete`, {
    parts: [{ partNumber: 1, etag: put.headers.etag }],
  });
  expect(done.statusCode).toBe(200);
  const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
  const objectFile = path.join(
    t.config.DATA_DIR,
    'videos',
    'objects',
    row!.cloudPath!.slice(0, 2),
    row!.cloudPath!,
  );
  return { owner, videoId, objectFile };
}

describe('moving to Community Edition with messages in the cloud', () => {
  it('keeps the copies 30 days, tells the user, then deletes them and records how many', async () => {
    const { owner, videoId, objectFile } = await ownerWithSyncedMessage();
    const before = Date.now();
    await setTier(owner.user.id, 'free', 'Subscription ended');

    const [record] = await t.db
      .select()
      .from(tierDowngrades)
      .where(eq(tierDowngrades.userId, owner.user.id));
    expect(record).toMatchObject({
      previousTier: 'premium',
      newTier: 'free',
      cloudRetentionDays: 30,
      cloudCleanupCompleted: false,
      videosDeleted: 0,
    });
    const expiry = record!.cloudRetentionExpiry.getTime();
    expect(expiry - before).toBeGreaterThanOrEqual(30 * DAY_MS - 60_000);
    expect(expiry - before).toBeLessThanOrEqual(30 * DAY_MS + 60_000);

    const mail = await t.smtp.waitFor(
      (message) => message.to.includes(owner.user.email) && message.subject.includes('cloud'),
    );
    expect(mail.subject).toMatch(/^Your Memento messages stay in the cloud until /);
    expect(mail.text).toContain('The cloud copies of your 1 message are kept until');
    expect(mail.text).toContain('Nothing on your device is deleted.');

    const status = (await owner.device.get('/api/cloud/status')).json();
    expect(status).toMatchObject({ hasCloudSync: false, syncedCount: 1 });
    expect(new Date(status.retentionExpiresAt).getTime()).toBe(expiry);
    // In the meantime the owner can still pull the message down, and sends nothing new.
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(200);
    const refused = await owner.device.post('/api/uploads', {
      videoId,
      title: 'Again',
      promptId: null,
      byteSize: 10,
      sha256: sha256(Buffer.from('x')),
    });
    expect(refused.json()).toEqual({
      code: 'UPGRADE_REQUIRED',
      message: CLOUD_MESSAGES.upgradeRequired,
    });

    // The daily job: nothing is due on day 29, everything on day 31.
    await t.app.jobs.runCloudRetention(new Date(expiry - DAY_MS));
    expect(existsSync(objectFile)).toBe(true);
    expect(await t.app.jobs.runCloudRetention(new Date(expiry + DAY_MS))).toBeGreaterThanOrEqual(1);

    const [after] = await t.db
      .select()
      .from(tierDowngrades)
      .where(eq(tierDowngrades.id, record!.id));
    expect(after).toMatchObject({ cloudCleanupCompleted: true, videosDeleted: 1 });
    expect(after!.cleanedUpAt).not.toBeNull();
    expect(existsSync(objectFile)).toBe(false);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    // The index row stays (the device still holds the video); the title leaves the server.
    expect(row).toMatchObject({
      syncStatus: 'local_only',
      storageType: 'local',
      cloudPath: null,
      title: null,
    });
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(404);
    expect((await owner.device.get('/api/cloud/status')).json()).toMatchObject({
      retentionExpiresAt: null,
      syncedCount: 0,
    });
    // A second run finds nothing more to do.
    expect(await t.app.jobs.runCloudRetention(new Date(expiry + 2 * DAY_MS))).toBe(0);
  });

  it('keeps the copies when a paid plan comes back before the date', async () => {
    const { owner, videoId, objectFile } = await ownerWithSyncedMessage();
    await setTier(owner.user.id, 'free', 'Card expired');
    await setTier(owner.user.id, 'premium', 'Card renewed');
    const [record] = await t.db
      .select()
      .from(tierDowngrades)
      .where(eq(tierDowngrades.userId, owner.user.id));
    await t.app.jobs.runCloudRetention(new Date(record!.cloudRetentionExpiry.getTime() + DAY_MS));
    const [after] = await t.db
      .select()
      .from(tierDowngrades)
      .where(eq(tierDowngrades.id, record!.id));
    expect(after).toMatchObject({ cloudCleanupCompleted: true, videosDeleted: 0 });
    expect(after!.metadata).toMatchObject({ outcome: 'cloud sync restored' });
    expect(existsSync(objectFile)).toBe(true);
    expect((await owner.device.get(`/api/videos/${videoId}/playback`)).statusCode).toBe(200);
  });
});
