import { eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { users, videos } from '../../src/server/db/schema';
import {
  createOnboardedUser,
  type TestApp,
  type TestDevice,
  useTestApp,
  useTwoTestApps,
} from '../setup/app';

// A server sends a session the list it sent before (the library's index, the recipients page),
// without reading the rows, only while the owner's lists version read with the request is the one
// it was sent with. Every change to a list (through the app, another server, or straight in the
// database) must show on the next visit, and a session that ended must get nothing.

const indexBody = (recipientId: number, secondsAgo: number) => ({
  id: randomUUID(),
  recipientId,
  metadata: { byteSize: 180_000, durationMs: 3200, mimeType: 'video/webm' },
  createdAt: new Date(Date.now() - secondsAgo * 1000).toISOString(),
});

async function libraryIds(device: TestDevice): Promise<string[]> {
  const res = await device.get('/api/videos');
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }[]>().map((entry) => entry.id);
}

async function recipientsShown(device: TestDevice) {
  const res = await device.get('/api/recipients');
  expect(res.statusCode).toBe(200);
  return res
    .json<{ recipients: { firstName: string; videoCount: number }[] }>()
    .recipients.map((r) => `${r.firstName} ${r.videoCount}`);
}

const TOM = { firstName: 'Tom', lastName: 'Hill', category: 'family' };

async function listsVersion(t: TestApp, userId: number): Promise<number> {
  const [row] = await t.db
    .select({ version: users.listsVersion })
    .from(users)
    .where(eq(users.id, userId));
  return row!.version;
}

describe('GET /api/videos on one server', () => {
  const t = useTestApp({ admin: { email: 'admin@care.test' } });

  it('shows every change to the library at the next visit, whoever made it', async () => {
    const alice = await createOnboardedUser(t);
    const first = indexBody(alice.nextOfKin.id, 60);
    expect((await alice.device.post('/api/videos', first)).statusCode).toBe(201);
    expect(await libraryIds(alice.device)).toEqual([first.id]);
    // Nothing changed: the same list again, and the version where it was.
    const version = await listsVersion(t, alice.user.id);
    expect(await libraryIds(alice.device)).toEqual([first.id]);
    expect(await listsVersion(t, alice.user.id)).toBe(version);

    const second = indexBody(alice.nextOfKin.id, 30);
    await alice.device.post('/api/videos', second);
    expect(await libraryIds(alice.device)).toEqual([second.id, first.id]);

    // A write that bypasses the app (an upload finishing, a repair by hand) shows too.
    await t.db
      .update(videos)
      .set({ title: 'For Susan', storageType: 'cloud', syncStatus: 'synced' })
      .where(eq(videos.id, first.id));
    const entries = (await alice.device.get('/api/videos')).json<{ title: string | null }[]>();
    expect(entries.map((entry) => entry.title)).toEqual([null, 'For Susan']);

    // A change the list does not show leaves the version alone.
    const before = await listsVersion(t, alice.user.id);
    await t.db.update(videos).set({ updatedAt: new Date() }).where(eq(videos.id, first.id));
    expect(await listsVersion(t, alice.user.id)).toBe(before);

    expect((await alice.device.delete('/api/videos', { ids: [second.id] })).statusCode).toBe(200);
    expect(await libraryIds(alice.device)).toEqual([first.id]);
  });

  it('sends the list it cached without reading it while the version stands', async () => {
    const alice = await createOnboardedUser(t);
    const video = indexBody(alice.nextOfKin.id, 10);
    await alice.device.post('/api/videos', video);
    const sent = (await alice.device.get('/api/videos')).body;
    // A change made with the version's trigger off is one the server is never told of: the list
    // it cached goes out again, which shows it was not read. (Every real write raises the version.)
    await t.db.execute(sql`alter table videos disable trigger videos_lists_version`);
    try {
      await t.db.update(videos).set({ durationMs: 9999 }).where(eq(videos.id, video.id));
    } finally {
      await t.db.execute(sql`alter table videos enable trigger videos_lists_version`);
    }
    expect((await alice.device.get('/api/videos')).body).toBe(sent);
    // Another session of the same owner has nothing cached, and reads the rows.
    const newTab = alice.device.withoutCookies();
    const signIn = await newTab.post('/api/login', {
      username: alice.user.username,
      password: alice.password,
      deviceId: alice.device.deviceId,
    });
    expect(signIn.statusCode).toBe(200);
    const read = (await newTab.get('/api/videos')).json<{ metadata: { durationMs: number } }[]>();
    expect(read.map((entry) => entry.metadata.durationMs)).toEqual([9999]);
  });

  it('shows every change to the recipients page at the next visit', async () => {
    const alice = await createOnboardedUser(t);
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0']);
    const added = await alice.device.post('/api/recipients', {
      ...TOM,
      email: `tom.${alice.user.username}@example.test`,
    });
    expect(added.statusCode).toBe(201);
    const tomId = added.json<{ id: number }>().id;
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0', 'Tom 0']);
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0', 'Tom 0']);

    // A video for Tom changes his count; a name changed in the database shows too.
    await alice.device.post('/api/videos', indexBody(tomId, 5));
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0', 'Tom 1']);
    await t.db.update(users).set({ firstName: 'Thomas' }).where(eq(users.id, tomId));
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0', 'Thomas 1']);
    // A change the page does not show leaves the version alone.
    const before = await listsVersion(t, alice.user.id);
    await t.db.update(users).set({ firstLogin: false }).where(eq(users.id, tomId));
    expect(await listsVersion(t, alice.user.id)).toBe(before);

    expect((await alice.device.delete(`/api/recipients/${tomId}`)).statusCode).toBe(200);
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0']);
  });

  it('answers a session that ended with 401, not with the list it was sent before', async () => {
    const alice = await createOnboardedUser(t);
    const video = indexBody(alice.nextOfKin.id, 10);
    await alice.device.post('/api/videos', video);
    const oldTab = alice.device.withDeviceId(alice.device.deviceId); // keeps the old cookie
    expect(await libraryIds(oldTab)).toEqual([video.id]);
    expect((await alice.device.post('/api/logout')).statusCode).toBe(200);
    const res = await oldTab.get('/api/videos');
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain(video.id);
  });

  it('never sends one owner’s list to another', async () => {
    const alice = await createOnboardedUser(t);
    const bob = await createOnboardedUser(t);
    const hers = indexBody(alice.nextOfKin.id, 10);
    await alice.device.post('/api/videos', hers);
    expect(await libraryIds(alice.device)).toEqual([hers.id]);
    // Bob's library is at the same version number as Alice's was when hers was sent.
    await t.db
      .update(users)
      .set({ listsVersion: await listsVersion(t, alice.user.id) })
      .where(eq(users.id, bob.user.id));
    expect(await libraryIds(bob.device)).toEqual([]);
  });
});

describe('GET /api/videos on two servers sharing one PostgreSQL', () => {
  const servers = useTwoTestApps();

  it('shows on one server what was changed through the other at once', async () => {
    const alice = await createOnboardedUser(servers.a);
    const onB = alice.device.onApp(servers.b.app);
    const first = indexBody(alice.nextOfKin.id, 60);
    await alice.device.post('/api/videos', first);
    expect(await libraryIds(alice.device)).toEqual([first.id]);
    expect(await libraryIds(onB)).toEqual([first.id]);

    const second = indexBody(alice.nextOfKin.id, 30);
    expect((await onB.post('/api/videos', second)).statusCode).toBe(201);
    expect(await libraryIds(alice.device)).toEqual([second.id, first.id]);

    expect((await onB.delete('/api/videos', { ids: [first.id] })).statusCode).toBe(200);
    expect(await libraryIds(alice.device)).toEqual([second.id]);
  });

  it('shows a recipient added through one server on the other at once', async () => {
    const alice = await createOnboardedUser(servers.a);
    const onB = alice.device.onApp(servers.b.app);
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0']);
    const email = `tom.${alice.user.username}@example.test`;
    expect((await onB.post('/api/recipients', { ...TOM, email })).statusCode).toBe(201);
    expect(await recipientsShown(alice.device)).toEqual(['Susan 0', 'Tom 0']);
  });

  it('ends a session on one server at once on the other, list cached or not', async () => {
    const alice = await createOnboardedUser(servers.a);
    await alice.device.post('/api/videos', indexBody(alice.nextOfKin.id, 10));
    const oldTabOnA = alice.device.withDeviceId(alice.device.deviceId);
    expect(await libraryIds(oldTabOnA)).toHaveLength(1);
    expect((await alice.device.onApp(servers.b.app).post('/api/logout')).statusCode).toBe(200);
    expect((await oldTabOnA.get('/api/videos')).statusCode).toBe(401);
  });
});
