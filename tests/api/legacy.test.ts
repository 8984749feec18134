import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LEGACY_MESSAGES } from '../../src/shared/domain/legacy';
import type { TLegacyState } from '../../src/shared/schemas/legacy';
import { auditLogs, legacyReleases, mailQueue, users, videos } from '../../src/server/db/schema';
import { buildApp } from '../../src/server/app';
import { createTestDatabase } from '../setup/database';
import {
  createOnboardedUser,
  useTwoTestApps,
  TestClock,
  TestDevice,
  useTestApp,
  type TestApp,
} from '../setup/app';
import type { ReceivedMail } from '../setup/smtp';
import {
  createOwnerAndNextOfKin,
  INACTIVITY_CHECK_ON,
  insertCloudMessage,
  saveLegacySettings,
  signInNextOfKinAgain,
} from './support/legacy';
import { deliverMailTo } from './support/mail';
import { fetchRecipientHome } from './support/recipients';

const DAY_MS = 24 * 3600_000;
const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });
/** Every job on the schedule, sorted: each runs once when all are due. */
const ALL_JOBS = [
  'billing.run-out-plans',
  'cloud.orphan-sweep',
  'cloud.retention',
  'legacy',
  'sessions.cleanup',
].sort();

function setRelease(device: TestDevice, videoId: string, release: object) {
  return device.request({ method: 'PUT', url: `/api/videos/${videoId}/release`, payload: release });
}

function cancelTokenIn(mail: ReceivedMail): string {
  const match = /\/legacy\/cancel#([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no cancel link in: ${mail.text}`);
  return match[1]!;
}

async function auditTypes(userId: number) {
  const rows = await t.db
    .select({ type: auditLogs.eventType, ok: auditLogs.successful })
    .from(auditLogs)
    .where(eq(auditLogs.userId, userId));
  return rows.filter((row) => row.type.startsWith('legacy_'));
}

async function queuedMailCount(to: string) {
  const rows = await t.db.select().from(mailQueue).where(eq(mailQueue.toAddress, to));
  return rows.length;
}

describe('when a recipient may watch a message', () => {
  it('refuses a dated message without a date or with one in the past', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const id = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
    const noDate = await setRelease(owner.device, id, { rule: 'date', at: null });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.body).toContain(LEGACY_MESSAGES.chooseDate);
    const past = await setRelease(owner.device, id, {
      rule: 'date',
      at: new Date(Date.now() - DAY_MS).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain(LEGACY_MESSAGES.dateInFuture);
    const unknown = await setRelease(owner.device, id, { rule: 'someday' });
    expect(unknown.statusCode).toBe(400);
  });

  it("only the owner, on their primary device, changes a message's release", async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const other = await createOwnerAndNextOfKin(t);
    const id = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
    expect((await setRelease(other.device, id, { rule: 'legacy' })).statusCode).toBe(404);
    expect((await setRelease(owner.nextOfKinDevice, id, { rule: 'legacy' })).statusCode).toBe(403);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, id));
    expect(row!.releaseRule).toBe('now');
  });

  it('a dated message stays hidden, unplayable and unmentioned until its day, then opens once', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const id = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
    const opensAt = new Date(clock.now().getTime() + 10 * DAY_MS);
    const set = await setRelease(owner.device, id, { rule: 'date', at: opensAt.toISOString() });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ id, release: { rule: 'date', at: opensAt.toISOString() } });

    const before = await fetchRecipientHome(owner.nextOfKinDevice);
    expect(before.sharedVideos).toEqual([]);
    expect(before.waitingMessages).toEqual([]); // the owner has not chosen to tell
    expect((await owner.nextOfKinDevice.get(`/api/videos/${id}/playback`)).statusCode).toBe(404);
    // The owner still plays their own message.
    expect((await owner.device.get(`/api/videos/${id}/playback`)).statusCode).toBe(200);

    const mailBefore = await queuedMailCount(owner.nextOfKin.email);
    clock.advance(11 * DAY_MS);
    const after = await fetchRecipientHome(owner.nextOfKinDevice);
    expect(after.sharedVideos.map((video) => video.id)).toEqual([id]);
    expect((await owner.nextOfKinDevice.get(`/api/videos/${id}/playback`)).statusCode).toBe(200);

    await Promise.all([
      t.app.jobs.runLegacyWork(clock.now()),
      t.app.jobs.runLegacyWork(clock.now()),
    ]);
    await t.app.jobs.runLegacyWork(clock.now());
    expect(await queuedMailCount(owner.nextOfKin.email)).toBe(mailBefore + 1);
    const mail = await deliverMailTo(t, owner.nextOfKin.email, /has opened for you$/);
    expect(mail.text).toContain('chose today for you to watch it');
    expect(await auditTypes(owner.user.id)).toContainEqual({
      type: 'legacy_message_opened',
      ok: true,
    });
  });

  it('tells recipients what is waiting, and when it opens, only where the owner allows it', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const dated = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
    const later = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
    const opensAt = new Date(clock.now().getTime() + 30 * DAY_MS).toISOString();
    await setRelease(owner.device, dated, { rule: 'date', at: opensAt });
    await setRelease(owner.device, later, { rule: 'legacy' });
    const saved = await saveLegacySettings(owner.device, {
      waitingDays: 7,
      inactivityMonths: null,
      showWaitingMessages: true,
    });
    expect(saved.statusCode).toBe(200);
    const seen = await fetchRecipientHome(owner.nextOfKinDevice);
    expect(seen.sharedVideos).toEqual([]);
    expect(seen.waitingMessages).toEqual(
      expect.arrayContaining([
        { id: dated, opensWith: 'date', opensAt },
        { id: later, opensWith: 'legacy', opensAt: null },
      ]),
    );
  });
});

describe('legacy release', () => {
  async function requestRelease(device: TestDevice, emergencyCode: string) {
    return device.post('/api/legacy/requests', { emergencyCode });
  }

  it('refuses a wrong emergency code, and anyone but the next of kin, and says so in the log', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const wrong = await requestRelease(owner.nextOfKinDevice, 'AAAA-BBBB-CCCC-DDDD');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(LEGACY_MESSAGES.wrongCode);
    expect(await auditTypes(owner.user.id)).toContainEqual({
      type: 'legacy_release_requested',
      ok: false,
    });
    const byOwner = await requestRelease(owner.device, owner.nextOfKin.emergencyAccessCode);
    expect(byOwner.statusCode).toBe(403);
    const waiting = await t.db
      .select()
      .from(legacyReleases)
      .where(eq(legacyReleases.ownerId, owner.user.id));
    expect(waiting).toEqual([]);
  });

  it('emails the owner at once, shows the wait on their screens, and takes one request at a time', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const asked = await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({ status: 'waiting', releasedAt: null });

    const mail = await deliverMailTo(
      t,
      owner.user.email,
      /has asked to release your Memento legacy$/,
    );
    expect(mail.text).toContain('Cancel this release');
    expect(cancelTokenIn(mail)).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const user = (await owner.device.get('/api/user')).json();
    expect(user.legacyRelease).toMatchObject({ requestedBy: { firstName: 'Susan' } });
    const again = await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(LEGACY_MESSAGES.alreadyWaiting);
  });

  it('reminds the owner halfway and the day before, once each, even with two runs at once', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    const start = clock.now().getTime();
    const before = await queuedMailCount(owner.user.email);

    const halfway = new Date(start + 3.6 * DAY_MS);
    const [a, b] = await Promise.all([
      t.app.jobs.runLegacyWork(halfway),
      t.app.jobs.runLegacyWork(halfway),
    ]);
    expect(a.reminders + b.reminders).toBeGreaterThanOrEqual(1);
    expect(await queuedMailCount(owner.user.email)).toBe(before + 1);
    const lastDay = new Date(start + 6.2 * DAY_MS);
    await t.app.jobs.runLegacyWork(lastDay);
    await t.app.jobs.runLegacyWork(lastDay);
    expect(await queuedMailCount(owner.user.email)).toBe(before + 2);
    await deliverMailTo(t, owner.user.email, 'Tomorrow: your Memento legacy will be released');
    const types = (await auditTypes(owner.user.id)).map((row) => row.type);
    expect(types.filter((type) => type === 'legacy_release_reminder')).toHaveLength(2);
  });

  for (const stage of ['at once', 'after the halfway reminder', 'after the last reminder']) {
    it(`the owner cancels with one click from the email ${stage}; the link then works no more`, async () => {
      const owner = await createOwnerAndNextOfKin(t);
      const id = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
      await setRelease(owner.device, id, { rule: 'legacy' });
      await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
      const token = cancelTokenIn(
        await deliverMailTo(t, owner.user.email, /has asked to release your Memento legacy$/),
      );
      const start = clock.now().getTime();
      if (stage !== 'at once') await t.app.jobs.runLegacyWork(new Date(start + 3.6 * DAY_MS));
      if (stage === 'after the last reminder') {
        await t.app.jobs.runLegacyWork(new Date(start + 6.5 * DAY_MS));
      }

      const anonymous = await TestDevice.create(t.app);
      const cancelled = await anonymous.post('/api/legacy/cancel-link', { token });
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toEqual({ ownerFirstName: 'Margaret' });
      expect((await anonymous.post('/api/legacy/cancel-link', { token })).statusCode).toBe(404);
      await deliverMailTo(t, owner.nextOfKin.email, /has cancelled the release of their legacy$/);

      // Nothing is released when the period would have ended.
      await t.app.jobs.runLegacyWork(new Date(start + 8 * DAY_MS));
      expect((await auditTypes(owner.user.id)).map((row) => row.type)).not.toContain(
        'legacy_released',
      );
      expect((await fetchRecipientHome(owner.nextOfKinDevice)).sharedVideos).toEqual([]);
      expect((await owner.device.get('/api/user')).json().legacyRelease).toBeNull();
      expect(await auditTypes(owner.user.id)).toContainEqual({
        type: 'legacy_release_cancelled',
        ok: true,
      });
    });
  }

  it('the owner cancels from any signed-in device; the next of kin may ask again after a pause', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    const cancelled = await owner.device.post('/api/legacy/cancel');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<TLegacyState>().request).toBeNull();
    expect((await owner.device.post('/api/legacy/cancel')).statusCode).toBe(404);
    const tooSoon = await requestRelease(
      owner.nextOfKinDevice,
      owner.nextOfKin.emergencyAccessCode,
    );
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().message).toMatch(/You can ask again on /);
    clock.advance(30 * DAY_MS + 60_000);
    await signInNextOfKinAgain(t, owner);
    const again = await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    expect(again.statusCode).toBe(201);
  });

  it('unanswered, it releases the legacy messages, emails their recipients and shows the next of kin the history', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const afterLegacy = await insertCloudMessage(t, owner.user.id, owner.nextOfKin.id);
    await setRelease(owner.device, afterLegacy, { rule: 'legacy' });
    await saveLegacySettings(owner.device, {
      waitingDays: 2,
      inactivityMonths: null,
      showWaitingMessages: false,
    });
    await requestRelease(owner.nextOfKinDevice, owner.nextOfKin.emergencyAccessCode);
    const token = cancelTokenIn(
      await deliverMailTo(t, owner.user.email, /has asked to release your Memento legacy$/),
    );
    expect((await fetchRecipientHome(owner.nextOfKinDevice)).legacy).toMatchObject({
      status: 'waiting',
      waitingDays: 2,
    });
    expect(
      (await owner.nextOfKinDevice.get(`/api/videos/${afterLegacy}/playback`)).statusCode,
    ).toBe(404);

    const end = new Date(clock.now().getTime() + 2 * DAY_MS + 60_000);
    const before = await queuedMailCount(owner.nextOfKin.email);
    await Promise.all([t.app.jobs.runLegacyWork(end), t.app.jobs.runLegacyWork(end)]);
    expect(await queuedMailCount(owner.nextOfKin.email)).toBe(before + 1);
    const released = (await auditTypes(owner.user.id)).filter(
      (row) => row.type === 'legacy_released',
    );
    expect(released).toHaveLength(1);
    await deliverMailTo(t, owner.nextOfKin.email, /left a message for you on Memento$/);

    const seen = await fetchRecipientHome(owner.nextOfKinDevice);
    expect(seen.sharedVideos.map((video) => video.id)).toEqual([afterLegacy]);
    expect(seen.legacy?.status).toBe('released');
    expect(seen.legacy?.history.map((entry) => entry.text).join('\n')).toMatch(
      /asked to release the legacy[\s\S]*|released after the waiting period/,
    );
    expect(
      (await owner.nextOfKinDevice.get(`/api/videos/${afterLegacy}/playback`)).statusCode,
    ).toBe(200);
    // Too late to cancel.
    const anonymous = await TestDevice.create(t.app);
    expect((await anonymous.post('/api/legacy/cancel-link', { token })).statusCode).toBe(404);
    const [row] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row!.legacyReleasedAt).not.toBeNull();
  });
});

describe('inactivity check', () => {
  it('reminds the owner three times a week apart, then tells the next of kin; coming back starts over', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const saved = await saveLegacySettings(owner.device, INACTIVITY_CHECK_ON);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<TLegacyState>().settings.inactivityMonths).toBe(3);

    const away = clock.now().getTime() + 91 * DAY_MS;
    const noticesAt = async (ms: number) =>
      (await t.app.jobs.runLegacyWork(new Date(ms))).inactivityNotices;
    expect(await noticesAt(clock.now().getTime() + 30 * DAY_MS)).toBe(0);
    expect(await noticesAt(away)).toBeGreaterThanOrEqual(1);
    expect(await noticesAt(away + DAY_MS)).toBe(0);
    await noticesAt(away + 7 * DAY_MS);
    await noticesAt(away + 14 * DAY_MS);
    await deliverMailTo(t, owner.user.email, 'Are you well? Please sign in to Memento');
    await noticesAt(away + 21 * DAY_MS);
    await deliverMailTo(t, owner.nextOfKin.email, /has not signed in to Memento for a long time$/);
    const [row] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row!.inactivityNotices).toBe(4);
    expect(await queuedMailCount(owner.user.email)).toBeGreaterThanOrEqual(3);
  });

  it('refuses settings outside what the screen offers', async () => {
    const owner = await createOwnerAndNextOfKin(t);
    const tooLong = await saveLegacySettings(owner.device, {
      waitingDays: 91,
      inactivityMonths: null,
      showWaitingMessages: false,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain(LEGACY_MESSAGES.waitingDays);
    const odd = await saveLegacySettings(owner.device, {
      waitingDays: 7,
      inactivityMonths: 5,
      showWaitingMessages: false,
    });
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toContain(LEGACY_MESSAGES.inactivityMonths);
  });
});

describe('the job schedule', () => {
  it('runs each due job once across two runs at once, and not again before its interval', async () => {
    const now = new Date(clock.now().getTime() + 400 * DAY_MS);
    const [a, b] = await Promise.all([t.app.jobs.runDue(now), t.app.jobs.runDue(now)]);
    const ran = [...a, ...b].sort();
    expect(ran).toEqual(ALL_JOBS);
    expect(await t.app.jobs.runDue(new Date(now.getTime() + 60_000))).toEqual([]);
    expect(await t.app.jobs.runDue(new Date(now.getTime() + 6 * 60_000))).toEqual(['legacy']);
  });
});

describe('restarts and several servers', () => {
  it('a release that fell due while every server was down happens once, when one starts again', async () => {
    const database = await createTestDatabase();
    const start = (options: { clock: TestClock; startSchedule: boolean }) =>
      buildApp({ config: t.config, database, ...options });
    const before = new TestClock();
    const first = await start({ clock: before, startSchedule: false });
    await first.ready();
    const firstApp: TestApp = {
      app: first,
      db: database.db,
      config: t.config,
      close: () => first.close(),
    };
    await createOnboardedUser(firstApp, { user: { email: 'admin.restart@example.test' } });
    const owner = await createOwnerAndNextOfKin(firstApp);
    const nextOfKinDevice = owner.nextOfKinDevice;
    const asked = await nextOfKinDevice.post('/api/legacy/requests', {
      emergencyCode: owner.nextOfKin.emergencyAccessCode,
    });
    expect(asked.statusCode).toBe(201);
    await first.close();

    // Eight days later the server starts again: the overdue release runs by itself, once.
    const later = new TestClock();
    later.advance(8 * DAY_MS);
    const second = await start({ clock: later, startSchedule: true });
    await second.ready();
    try {
      await expect
        .poll(async () => {
          const [row] = await database.db
            .select({ status: legacyReleases.status })
            .from(legacyReleases)
            .where(eq(legacyReleases.ownerId, owner.user.id));
          return row?.status;
        })
        .toBe('released');
      const released = await database.db
        .select()
        .from(auditLogs)
        .where(eq(auditLogs.userId, owner.user.id));
      expect(released.filter((row) => row.eventType === 'legacy_released')).toHaveLength(1);
    } finally {
      await second.close();
      await database.close();
    }
  });

  describe('two servers on one PostgreSQL', () => {
    const servers = useTwoTestApps();

    it('remind and release once between them, and run each scheduled job on one of them', async () => {
      const { a, b } = servers;
      const owner = await createOwnerAndNextOfKin(a);
      const nextOfKinDevice = owner.nextOfKinDevice;
      const asked = await nextOfKinDevice.post('/api/legacy/requests', {
        emergencyCode: owner.nextOfKin.emergencyAccessCode,
      });
      expect(asked.statusCode).toBe(201);
      const start = Date.now();
      const ownerMail = async () =>
        (await a.db.select().from(mailQueue).where(eq(mailQueue.toAddress, owner.user.email)))
          .length;
      const mailBefore = await ownerMail();
      for (const days of [3.6, 6.2]) {
        const at = new Date(start + days * DAY_MS);
        await Promise.all([a.app.jobs.runLegacyWork(at), b.app.jobs.runLegacyWork(at)]);
      }
      expect(await ownerMail()).toBe(mailBefore + 2);
      const end = new Date(start + 8 * DAY_MS);
      await Promise.all([a.app.jobs.runLegacyWork(end), b.app.jobs.runLegacyWork(end)]);
      const log = await a.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
      expect(log.filter((row) => row.eventType === 'legacy_released')).toHaveLength(1);

      const dueAt = new Date(start + 500 * DAY_MS);
      const [onA, onB] = await Promise.all([a.app.jobs.runDue(dueAt), b.app.jobs.runDue(dueAt)]);
      expect([...onA, ...onB].sort()).toEqual(ALL_JOBS);
    });
  });
});
