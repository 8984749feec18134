import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LEGACY_MESSAGES } from '../../src/shared/domain/legacy';
import type { TLegacyState } from '../../src/shared/schemas/legacy';
import { auditLogs, legacyReleases, mailQueue, sessions, users } from '../../src/server/db/schema';
import { createSessionFor, NEXT_OF_KIN, TestClock, TestDevice, useTestApp } from '../setup/app';
import {
  createOwnerAndNextOfKin,
  INACTIVITY_CHECK_ON,
  insertCloudMessage,
  saveLegacySettings,
  signInNextOfKinAgain,
  type OwnerAndNextOfKin,
} from './support/legacy';
import { deliverMailTo } from './support/mail';
import {
  createDeviceSignedInByCode,
  fetchRecipientHome,
  signInWithCode,
} from './support/recipients';

// A legacy request nobody can misuse: no stream of requests after a cancel, a way back after a
// mistaken release, no request outliving its asker, and no recipient keeping the owner 'active'.

const DAY_MS = 24 * 3600_000;
const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });

/** After the clock has moved past a session's life, both sign in again, as they would. */
async function signInAgain(owner: OwnerAndNextOfKin) {
  await createSessionFor(t, {
    userId: owner.user.id,
    device: owner.device,
    method: 'username_password',
  });
  await signInNextOfKinAgain(t, owner);
}

async function legacyMessage(owner: { user: { id: number }; device: TestDevice }, to: number) {
  const id = await insertCloudMessage(t, owner.user.id, to);
  const set = await owner.device.request({
    method: 'PUT',
    url: `/api/videos/${id}/release`,
    payload: { rule: 'legacy' },
  });
  expect(set.statusCode).toBe(200);
  return id;
}

function ask(device: TestDevice, emergencyCode: string) {
  return device.post('/api/legacy/requests', { emergencyCode });
}

async function queuedSubjects(to: string) {
  const rows = await t.db.select().from(mailQueue).where(eq(mailQueue.toAddress, to));
  return rows.map((row) => row.subject);
}

async function legacyLog(userId: number) {
  const rows = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId));
  return rows.filter((row) => row.eventType.startsWith('legacy_'));
}

function setAsking(device: TestDevice, nextOfKinId: number | string, payload: object) {
  return device.request({
    method: 'PUT',
    url: `/api/legacy/next-of-kin/${nextOfKinId}/asking`,
    payload,
  });
}

/** The legacy released: asked for, and the owner's waiting period run out unanswered. */
async function releaseLegacy(owner: OwnerAndNextOfKin) {
  expect((await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode)).statusCode).toBe(
    201,
  );
  clock.advance(7 * DAY_MS + 60_000);
  await t.app.jobs.runLegacyWork(clock.now());
  const [row] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
  expect(row!.legacyReleasedAt).not.toBeNull();
}

describe('a pause after a cancel', () => {
  it('the same next of kin cannot ask again until the pause is over, and is told the day', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const code = owner.nextOfKin.emergencyAccessCode;
    expect((await ask(owner.nextOfKinDevice, code)).statusCode).toBe(201);
    const asked = await deliverMailTo(
      t,
      owner.user.email,
      /has asked to release your Memento legacy$/,
    );
    // The email says how to stop them asking at all.
    expect(asked.text).toContain("choose 'Stop Susan from asking'");
    expect(asked.text).toContain('cannot ask again for 30 days');

    const cancelledAt = clock.now().getTime();
    expect((await owner.device.post('/api/legacy/cancel')).statusCode).toBe(200);

    // Six tries in a row: each refused, none emails the owner or starts a clock.
    const before = (await queuedSubjects(owner.user.email)).length;
    for (let i = 0; i < 6; i += 1) {
      const again = await ask(owner.nextOfKinDevice, code);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(
        /^Margaret cancelled the last request\. You can ask again on /,
      );
    }
    expect((await queuedSubjects(owner.user.email)).length).toBe(before);
    const waiting = await t.db
      .select()
      .from(legacyReleases)
      .where(and(eq(legacyReleases.ownerId, owner.user.id), eq(legacyReleases.status, 'waiting')));
    expect(waiting).toEqual([]);
    expect((await legacyLog(owner.user.id)).some((row) => !row.successful)).toBe(true);

    const hold = (await fetchRecipientHome(owner.nextOfKinDevice)).legacy?.hold;
    expect(hold?.reason).toBe('cancelled');
    expect(Math.abs(Date.parse(hold!.askAgainOn!) - (cancelledAt + 30 * DAY_MS))).toBeLessThan(
      10_000,
    );
    const state = (await owner.device.get('/api/legacy')).json<TLegacyState>();
    expect(state.askers).toEqual([
      expect.objectContaining({ id: owner.nextOfKin.id, hold: expect.objectContaining(hold) }),
    ]);

    clock.advance(29 * DAY_MS);
    expect((await ask(owner.nextOfKinDevice, code)).statusCode).toBe(409);
    clock.advance(DAY_MS + 60_000);
    expect((await ask(owner.nextOfKinDevice, code)).statusCode).toBe(201);
    expect((await fetchRecipientHome(owner.nextOfKinDevice)).legacy?.hold).toBeUndefined();
  });

  it('a waiting period longer than a month makes the pause as long', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    await saveLegacySettings(owner.device, {
      waitingDays: 60,
      inactivityMonths: null,
      showWaitingMessages: false,
    });
    await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    await owner.device.post('/api/legacy/cancel');
    clock.advance(45 * DAY_MS);
    await signInAgain(owner);
    const early = await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    expect(early.statusCode).toBe(409);
    clock.advance(16 * DAY_MS);
    expect((await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode)).statusCode).toBe(
      201,
    );
  });

  it('the owner stops a next of kin from asking (cancelling what waits) and allows it again', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const code = owner.nextOfKin.emergencyAccessCode;
    await ask(owner.nextOfKinDevice, code);

    const stopped = await setAsking(owner.device, owner.nextOfKin.id, { isAllowed: false });
    expect(stopped.statusCode).toBe(200);
    const state = stopped.json<TLegacyState>();
    expect(state.request).toBeNull();
    expect(state.askers[0]!.hold).toEqual({ reason: 'stopped', askAgainOn: null });
    await deliverMailTo(t, owner.nextOfKin.email, /has cancelled the release of their legacy$/);

    const refused = await ask(owner.nextOfKinDevice, code);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(LEGACY_MESSAGES.stopped('Margaret'));
    expect((await fetchRecipientHome(owner.nextOfKinDevice)).legacy?.hold).toEqual({
      reason: 'stopped',
      askAgainOn: null,
    });
    clock.advance(400 * DAY_MS);
    await signInAgain(owner);
    expect((await ask(owner.nextOfKinDevice, code)).statusCode).toBe(409);

    const allowed = await setAsking(owner.device, owner.nextOfKin.id, { isAllowed: true });
    expect(allowed.json<TLegacyState>().askers[0]!.hold).toBeNull();
    expect((await ask(owner.nextOfKinDevice, code)).statusCode).toBe(201);
    const types = (await legacyLog(owner.user.id)).map((row) => row.eventType);
    expect(types).toEqual(
      expect.arrayContaining(['legacy_requests_stopped', 'legacy_requests_allowed']),
    );
    expect((await legacyLog(owner.nextOfKin.id)).map((row) => row.eventType)).toContain(
      'legacy_requests_stopped',
    );
  });

  it('answers bad input on the asking switch with a clear message, and only the owner may use it', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const other = await createOwnerAndNextOfKin(t);
    const notBoolean = await setAsking(owner.device, owner.nextOfKin.id, { isAllowed: 'no' });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.body).toContain(LEGACY_MESSAGES.chooseAsking);
    const badId = await setAsking(owner.device, 'abc', { isAllowed: false });
    expect(badId.statusCode).toBe(400);
    expect(badId.body).toContain(LEGACY_MESSAGES.nextOfKinNotFound);
    const hugeId = await setAsking(owner.device, '99999999999999', { isAllowed: false });
    expect(hugeId.statusCode).toBe(400);
    const othersKin = await setAsking(owner.device, other.nextOfKin.id, { isAllowed: false });
    expect(othersKin.statusCode).toBe(404);
    expect(othersKin.json().message).toBe(LEGACY_MESSAGES.nextOfKinNotFound);
    const byKin = await setAsking(owner.nextOfKinDevice, owner.nextOfKin.id, { isAllowed: true });
    expect(byKin.statusCode).toBe(403);
    const [row] = await t.db.select().from(users).where(eq(users.id, other.nextOfKin.id));
    expect(row!.legacyRequestsStoppedAt).toBeNull();
  });
});

describe('ending a mistaken release', () => {
  it('closes what nobody watched, keeps what was watched, seals later messages and tells everyone', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const added = await owner.device.post('/api/recipients', {
      firstName: 'Tom',
      lastName: 'Hill',
      email: `tom.${owner.user.username}@example.test`,
      category: 'family',
    });
    expect(added.statusCode).toBe(201);
    const tom = added.json<{ id: number; emergencyAccessCode: string }>();
    const tomDevice = await createDeviceSignedInByCode(t, tom.id);

    const watched = await legacyMessage(owner, owner.nextOfKin.id);
    const unwatched = await legacyMessage(owner, owner.nextOfKin.id);
    const forTom = await legacyMessage(owner, tom.id);
    await releaseLegacy(owner);
    const play = (device: TestDevice, id: string) => device.get(`/api/videos/${id}/playback`);
    expect((await play(owner.nextOfKinDevice, watched)).statusCode).toBe(200);
    expect((await play(owner.nextOfKinDevice, watched)).statusCode).toBe(200);

    const released = (await owner.device.get('/api/legacy')).json<TLegacyState>();
    expect(released.opened).toEqual({ total: 3, watched: 1 });

    const ended = await owner.device.post('/api/legacy/end');
    expect(ended.statusCode).toBe(200);
    const state = ended.json<TLegacyState>();
    expect(state.releasedAt).toBeNull();
    expect(state.opened).toBeNull();
    expect(state.endedAt).not.toBeNull();

    // What was watched stays open to the one who watched it; the rest close again.
    expect((await play(owner.nextOfKinDevice, watched)).statusCode).toBe(200);
    expect((await play(owner.nextOfKinDevice, unwatched)).statusCode).toBe(404);
    expect((await play(tomDevice, forTom)).statusCode).toBe(404);
    expect(
      (await fetchRecipientHome(owner.nextOfKinDevice)).sharedVideos.map((video) => video.id),
    ).toEqual([watched]);
    // A message for after the legacy, recorded now, stays sealed.
    const later = await legacyMessage(owner, owner.nextOfKin.id);
    expect((await play(owner.nextOfKinDevice, later)).statusCode).toBe(404);

    // The history stays: the release row is marked ended, not removed.
    const [row] = await t.db
      .select()
      .from(legacyReleases)
      .where(eq(legacyReleases.ownerId, owner.user.id));
    expect(row).toMatchObject({ status: 'ended' });
    expect(row!.endedAt).not.toBeNull();
    expect(row!.releasedAt).not.toBeNull();

    const kinMail = await deliverMailTo(
      t,
      owner.nextOfKin.email,
      /has ended the release of their legacy$/,
    );
    expect(kinMail.text).toContain('The message you have already watched stays with you');
    expect(kinMail.text).toContain('The other message Margaret left for you is closed again');
    const tomMail = await deliverMailTo(
      t,
      added.json().email,
      /has ended the release of their legacy$/,
    );
    expect(tomMail.text).toContain('is closed again for now');
    expect(tomMail.text).not.toContain('already watched');

    const ownerLog = await legacyLog(owner.user.id);
    const endRows = ownerLog.filter((entry) => entry.eventType === 'legacy_release_ended');
    expect(endRows.length).toBeGreaterThanOrEqual(3);
    expect(endRows.some((entry) => entry.details.videoId === watched)).toBe(true);
    expect((await legacyLog(owner.nextOfKin.id)).map((entry) => entry.eventType)).toContain(
      'legacy_release_ended',
    );
    const askerMail = await deliverMailTo(
      t,
      owner.nextOfKin.email,
      /has ended the release you asked for$/,
    );
    expect(askerMail.text).toContain('You can ask again from');

    // Once ended there is nothing to end, and the asker waits before asking again.
    const twice = await owner.device.post('/api/legacy/end');
    expect(twice.statusCode).toBe(404);
    expect(twice.json().message).toBe(LEGACY_MESSAGES.nothingReleased);
    const again = await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^Margaret ended the last release/);
    expect((await fetchRecipientHome(owner.nextOfKinDevice)).legacy).toMatchObject({
      status: 'none',
      hold: { reason: 'ended' },
    });
  });

  it('only the owner can end a release, and two ends at once do the work once', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    await legacyMessage(owner, owner.nextOfKin.id);
    await releaseLegacy(owner);
    expect((await owner.nextOfKinDevice.post('/api/legacy/end')).statusCode).toBe(403);
    const [a, b] = await Promise.all([
      owner.device.post('/api/legacy/end'),
      owner.device.post('/api/legacy/end'),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 404]);
    const subjects = await queuedSubjects(owner.nextOfKin.email);
    for (const told of [
      /has ended the release of their legacy$/,
      /ended the release you asked for$/,
    ]) {
      expect(subjects.filter((subject) => told.test(subject))).toHaveLength(1);
    }
  });
});

describe('a request outlives nobody', () => {
  it('removing the next of kin who asked cancels their request, and the owner is told', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const second = await owner.device.post('/api/recipients', {
      ...NEXT_OF_KIN,
      firstName: 'Peter',
      email: `peter.${owner.user.username}@example.test`,
    });
    expect(second.statusCode).toBe(201);
    await legacyMessage(owner, second.json().id);
    await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);

    const removed = await owner.device.delete(`/api/recipients/${owner.nextOfKin.id}`);
    expect(removed.statusCode).toBe(200);
    const [row] = await t.db
      .select()
      .from(legacyReleases)
      .where(eq(legacyReleases.ownerId, owner.user.id));
    expect(row).toMatchObject({ status: 'cancelled', cancelledBy: 'requester_removed' });
    const told = await deliverMailTo(
      t,
      owner.user.email,
      /request to release your Memento legacy is cancelled$/,
    );
    expect(told.text).toContain('You removed Susan Hill as your next of kin');
    expect((await owner.device.get('/api/user')).json().legacyRelease).toBeNull();
    expect((await legacyLog(owner.user.id)).map((entry) => entry.eventType)).toContain(
      'legacy_release_cancelled',
    );

    await t.app.jobs.runLegacyWork(new Date(clock.now().getTime() + 30 * DAY_MS));
    const [after] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(after!.legacyReleasedAt).toBeNull();
  });

  it('a request whose asker is gone by any other path is cancelled, never released', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    await ask(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    await t.db.delete(users).where(eq(users.id, owner.nextOfKin.id));
    await t.app.jobs.runLegacyWork(new Date(clock.now().getTime() + 30 * DAY_MS));
    const [row] = await t.db
      .select()
      .from(legacyReleases)
      .where(eq(legacyReleases.ownerId, owner.user.id));
    expect(row).toMatchObject({ status: 'cancelled', requestedById: null });
    const [after] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(after!.legacyReleasedAt).toBeNull();
    await deliverMailTo(
      t,
      owner.user.email,
      /request to release your Memento legacy is cancelled$/,
    );
  });
});

describe('whose activity counts', () => {
  it("a recipient's sign-in is on the owner's log but does not keep the inactivity check quiet", async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const saved = await saveLegacySettings(owner.device, INACTIVITY_CHECK_ON);
    expect(saved.statusCode).toBe(200);
    // The owner was last here 100 days ago. Sign-ins are logged at the database's time, so this
    // test keeps to the real clock.
    const away = new Date(Date.now() - 100 * DAY_MS);
    await t.db.update(users).set({ createdAt: away }).where(eq(users.id, owner.user.id));
    await t.db.update(sessions).set({ lastSeenAt: away }).where(eq(sessions.userId, owner.user.id));
    await t.db
      .update(auditLogs)
      .set({ timestamp: away })
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'login')));

    // Their daughter signs in with her access code, as she does every week.
    const phone = await TestDevice.create(t.app);
    const signedIn = await signInWithCode(phone, owner.nextOfKin);
    expect(signedIn.statusCode).toBe(200);
    const ownerLog = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'login')));
    expect(ownerLog.some((row) => row.details.recipientId === owner.nextOfKin.id)).toBe(true);

    const done = await t.app.jobs.runLegacyWork(new Date());
    expect(done.inactivityNotices).toBeGreaterThanOrEqual(1);
    await deliverMailTo(t, owner.user.email, /^Are you well\? Please sign in to Memento$/);
  });
});
