import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditLogs, videos } from '../../src/server/db/schema';
import { createOnboardedUser, TestDevice, useTestApp } from '../setup/app';

const t = useTestApp({ admin: { email: 'admin@care.test' } });

const videoBody = (recipientId: number, overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  recipientId,
  storageType: 'local',
  syncStatus: 'local_only',
  metadata: { byteSize: 180_000, durationMs: 3200, mimeType: 'video/webm;codecs=vp8,opus' },
  createdAt: new Date(Date.now() - 5000).toISOString(),
  ...overrides,
});

describe('POST /api/videos (the index of a local video)', () => {
  it('stores an index row without title or content, once per id however often it is sent', async () => {
    const alice = await createOnboardedUser(t);
    const body = videoBody(alice.nextOfKin.id, { title: 'For Susan', promptId: 'family-01' });

    const first = await alice.device.post('/api/videos', body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      id: body.id,
      recipientId: alice.nextOfKin.id,
      deviceId: alice.device.deviceId,
      storageType: 'local',
      syncStatus: 'local_only',
      metadata: body.metadata,
      createdAt: body.createdAt,
    });
    const retry = await alice.device.post('/api/videos', body);
    expect(retry.statusCode).toBe(200);

    const rows = await t.db.select().from(videos).where(eq(videos.id, body.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      creatorId: alice.user.id,
      title: null,
      promptId: null,
      videoUrl: null,
      byteSize: 180_000,
    });
  });

  it('refuses a recipient that is not the caller’s, and an id another account used', async () => {
    const alice = await createOnboardedUser(t);
    const mallory = await createOnboardedUser(t);
    const res = await mallory.device.post('/api/videos', videoBody(alice.nextOfKin.id));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Recipient not found');

    const body = videoBody(alice.nextOfKin.id);
    await alice.device.post('/api/videos', body);
    const clash = await mallory.device.post('/api/videos', {
      ...body,
      recipientId: mallory.nextOfKin.id,
    });
    expect(clash.statusCode).toBe(400);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, body.id));
    expect(row!.creatorId).toBe(alice.user.id);
  });

  it('answers bad input with clear messages', async () => {
    const alice = await createOnboardedUser(t);
    const empty = await alice.device.post(
      '/api/videos',
      videoBody(alice.nextOfKin.id, {
        metadata: { byteSize: 0, durationMs: 0, mimeType: 'video/webm' },
      }),
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Invalid video data - no video captured');
    const notVideo = await alice.device.post(
      '/api/videos',
      videoBody(alice.nextOfKin.id, {
        metadata: { byteSize: 10, durationMs: 1000, mimeType: 'text/html' },
      }),
    );
    expect(notVideo.json().message).toContain('Only video recordings can be saved');
    const badId = await alice.device.post(
      '/api/videos',
      videoBody(alice.nextOfKin.id, { id: 'not-a-uuid' }),
    );
    expect(badId.statusCode).toBe(400);
    const tooLong = await alice.device.post(
      '/api/videos',
      videoBody(alice.nextOfKin.id, {
        metadata: { byteSize: 10, durationMs: 120_000, mimeType: 'video/webm' },
      }),
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe('This recording is longer than your plan allows.');
  });

  it('is for the primary user on their primary device only', async () => {
    const alice = await createOnboardedUser(t);
    const otherBrowser = await TestDevice.create(t.app);
    expect((await otherBrowser.post('/api/videos', videoBody(alice.nextOfKin.id))).statusCode).toBe(
      401,
    );

    const phone = await TestDevice.create(t.app);
    await phone.post('/api/login', {
      email: alice.nextOfKin.email,
      password: alice.nextOfKin.emergencyAccessCode,
      method: 'email_access_code',
      deviceId: phone.deviceId,
    });
    const res = await phone.post('/api/videos', videoBody(alice.nextOfKin.id));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'Access Denied - Only primary users can record video messages.',
    );
  });
});

describe('GET /api/videos', () => {
  it('lists only the caller’s own rows, newest first', async () => {
    const alice = await createOnboardedUser(t);
    const bob = await createOnboardedUser(t);
    const older = videoBody(alice.nextOfKin.id, {
      createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const newer = videoBody(alice.nextOfKin.id);
    await alice.device.post('/api/videos', older);
    await alice.device.post('/api/videos', newer);
    await bob.device.post('/api/videos', videoBody(bob.nextOfKin.id));

    const res = await alice.device.get('/api/videos');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((v: { id: string }) => v.id)).toEqual([newer.id, older.id]);
  });

  it('lists each entry as it was answered when indexed, with a title only beside a cloud copy', async () => {
    const alice = await createOnboardedUser(t);
    const kin = alice.nextOfKin.id;
    // The last is stamped by the server (microseconds and all) rather than sent by the device.
    const bodies = [
      videoBody(kin),
      videoBody(kin),
      videoBody(kin),
      videoBody(kin, { createdAt: undefined }),
    ];
    const answered = [];
    for (const body of bodies) answered.push((await alice.device.post('/api/videos', body)).json());
    // What the cloud upload later sets (cloud.test.ts); the local one's title should never be
    // on the server, and is set here only to show it would not be listed.
    const states = [
      { title: 'Stays on the phone', storageType: 'local', syncStatus: 'local_only' },
      { title: 'On its way', storageType: 'cloud', syncStatus: 'pending_sync' },
      { title: 'In the cloud', storageType: 'cloud', syncStatus: 'synced' },
      { title: 'Failed to send', storageType: 'local', syncStatus: 'conflict' },
    ] as const;
    for (const [i, state] of states.entries()) {
      await t.db.update(videos).set(state).where(eq(videos.id, answered[i].id));
    }

    const res = await alice.device.get('/api/videos');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const byId = new Map(res.json().map((entry: { id: string }) => [entry.id, entry]));
    const shownTitles = [null, 'On its way', 'In the cloud', null];
    for (const [i, entry] of answered.entries()) {
      expect(byId.get(entry.id)).toEqual({ ...entry, ...states[i], title: shownTitles[i] });
    }
  });
});

describe('DELETE /api/videos', () => {
  it('removes only the caller’s own rows and audits it', async () => {
    const alice = await createOnboardedUser(t);
    const mallory = await createOnboardedUser(t);
    const mine = videoBody(alice.nextOfKin.id);
    const theirs = videoBody(mallory.nextOfKin.id);
    await alice.device.post('/api/videos', mine);
    await mallory.device.post('/api/videos', theirs);

    const res = await alice.device.delete('/api/videos', { ids: [mine.id, theirs.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deletedIds: [mine.id] });
    expect(await t.db.select().from(videos).where(eq(videos.id, theirs.id))).toHaveLength(1);
    expect(await t.db.select().from(videos).where(eq(videos.id, mine.id))).toHaveLength(0);
    const audit = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, alice.user.id), eq(auditLogs.eventType, 'videos_deleted')));
    expect(audit).toHaveLength(1);

    const none = await alice.device.delete('/api/videos', { ids: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain('Please choose at least one video');
  });
});
