import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, deviceTransfers, videos } from '../../src/server/db/schema';
import {
  createOnboardedUser,
  GOOD_PASSWORD,
  TestClock,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { extractCode } from '../setup/smtp';
import { parseConfig } from '../../src/server/config';

// Moving messages tablet to tablet: the old device offers, only the same account's new device
// may take the offer, once, within minutes; the server carries the handshake and the log rows.

const clock = new TestClock();
const t = useTestApp({ mail: true, clock });
const CODE_NOT_VALID =
  'This code does not work. It may have been used or be too old. Ask your old device for a new one.';
const ENDED = 'This move has ended. Ask your old device for a new code.';

const newLookup = () => createHash('sha256').update(randomBytes(16)).digest('hex');
type Owner = Awaited<ReturnType<typeof createOnboardedUser>>;

/** The real device move: password and emailed code on the new tablet; the old one is signed out. */
async function moveToNewTablet(owner: Owner): Promise<TestDevice> {
  const tablet = await TestDevice.create(t.app);
  const credentials = {
    username: owner.user.username,
    password: GOOD_PASSWORD,
    deviceId: tablet.deviceId,
  };
  const earlier = new Set(t.smtp.messages);
  expect((await tablet.post('/api/device/move/request', credentials)).statusCode).toBe(200);
  const mail = await t.smtp.waitFor(
    (m) =>
      !earlier.has(m) &&
      m.to.includes(owner.user.email) &&
      m.subject === 'Your Memento code to use a new device',
  );
  const done = await tablet.post('/api/device/move/complete', {
    ...credentials,
    code: extractCode(mail, 8),
  });
  expect(done.statusCode).toBe(200);
  return tablet;
}

async function offer(owner: Owner, videoCount = 2) {
  const lookup = newLookup();
  const res = await owner.device.post('/api/transfers', { lookup, videoCount });
  expect(res.statusCode).toBe(200);
  const body = res.json<{ transferId: string; senderToken: string; expiresAt: string }>();
  return { lookup, ...body, sender: { 'x-transfer-token': body.senderToken } };
}

async function auditTypes(userId: number) {
  const rows = await t.db
    .select()
    .from(auditLogs)
    .where(eq(auditLogs.userId, userId))
    .orderBy(auditLogs.id);
  return rows.filter((row) => row.eventType.startsWith('transfer_'));
}

describe('moving messages tablet to tablet', () => {
  it('the new device takes the offer after the move, the handshake crosses, the index rows follow, and the log has start and finish', async () => {
    const owner = await createOnboardedUser(t);
    const videoId = randomUUID();
    const indexed = await owner.device.post('/api/videos', {
      id: videoId,
      recipientId: owner.nextOfKin.id,
      storageType: 'local',
      syncStatus: 'local_only',
      metadata: { byteSize: 1000, durationMs: 3000, mimeType: 'video/webm' },
    });
    expect(indexed.statusCode).toBe(201);
    const made = await offer(owner);
    expect(Date.parse(made.expiresAt) - clock.now().getTime()).toBeLessThanOrEqual(15 * 60_000);
    const stored = await t.db.select().from(deviceTransfers);
    expect(JSON.stringify(stored)).not.toContain(made.senderToken);

    const tablet = await moveToNewTablet(owner);
    expect((await owner.device.get('/api/user')).statusCode).toBe(401);

    const claim = await tablet.post('/api/transfers/claim', { lookup: made.lookup });
    expect(claim.statusCode).toBe(200);
    expect(claim.json()).toEqual({ transferId: made.transferId, iceServers: [] });
    const signalUrl = `/api/transfers/${made.transferId}/signal`;

    const sent = await tablet.request({
      method: 'PUT',
      url: signalUrl,
      payload: { description: 'offer-sdp-1' },
    });
    expect(sent.json()).toMatchObject({ state: 'taken', attempt: 1, description: null });
    // The old device has no session any more: its token alone lets it answer.
    const seen = await owner.device.get(signalUrl, made.sender);
    expect(seen.json()).toEqual({ state: 'taken', attempt: 1, description: 'offer-sdp-1' });
    const answered = await owner.device.request({
      method: 'PUT',
      url: signalUrl,
      payload: { attempt: 1, description: 'answer-sdp-1' },
      headers: made.sender,
    });
    expect(answered.statusCode).toBe(200);
    expect((await tablet.get(signalUrl)).json()).toMatchObject({ description: 'answer-sdp-1' });

    const finished = await tablet.post(`/api/transfers/${made.transferId}/finish`, {
      videoIds: [videoId],
    });
    expect(finished.json()).toEqual({ movedIndexRows: 1 });
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row!.deviceId).toBe(tablet.deviceId);
    expect((await owner.device.get(signalUrl, made.sender)).json()).toMatchObject({
      state: 'finished',
    });
    expect((await auditTypes(owner.user.id)).map((r) => r.eventType)).toEqual([
      'transfer_started',
      'transfer_finished',
    ]);

    // The page opened again on the new tablet hears that the move is done; no other device does.
    const reopened = await tablet.post('/api/transfers/claim', { lookup: made.lookup });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toEqual({
      transferId: made.transferId,
      iceServers: [],
      isFinished: true,
    });
    const third = await moveToNewTablet(owner);
    const refused = await third.post('/api/transfers/claim', { lookup: made.lookup });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(CODE_NOT_VALID);
  });

  it('refuses a stranger: signed out, or signed in to another account', async () => {
    const owner = await createOnboardedUser(t);
    const made = await offer(owner);
    const passerBy = await TestDevice.create(t.app);
    const signedOut = await passerBy.post('/api/transfers/claim', { lookup: made.lookup });
    expect(signedOut.statusCode).toBe(401);

    const stranger = await createOnboardedUser(t);
    const other = await stranger.device.post('/api/transfers/claim', { lookup: made.lookup });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(CODE_NOT_VALID);
    const peek = await stranger.device.get(`/api/transfers/${made.transferId}/signal`);
    expect(peek.statusCode).toBe(404);
    const forged = await passerBy.get(`/api/transfers/${made.transferId}/signal`, {
      'x-transfer-token': 'not-the-token',
    });
    expect(forged.statusCode).toBe(404);
    expect(forged.json().message).toBe(ENDED);
    expect(await auditTypes(owner.user.id)).toEqual([]);
  });

  it('works once: a second device cannot take a taken offer, the first may come back to resume', async () => {
    const owner = await createOnboardedUser(t);
    const made = await offer(owner);
    const tablet = await moveToNewTablet(owner);
    expect((await tablet.post('/api/transfers/claim', { lookup: made.lookup })).statusCode).toBe(
      200,
    );
    expect((await tablet.post('/api/transfers/claim', { lookup: made.lookup })).statusCode).toBe(
      200,
    );

    const third = await moveToNewTablet(owner);
    const again = await third.post('/api/transfers/claim', { lookup: made.lookup });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(CODE_NOT_VALID);
    expect((await auditTypes(owner.user.id)).map((r) => r.eventType)).toEqual(['transfer_started']);
  });

  it('an offer nobody took ends after 15 minutes', async () => {
    const owner = await createOnboardedUser(t);
    const made = await offer(owner);
    const tablet = await moveToNewTablet(owner);
    clock.advance(15 * 60_000 + 1000);
    const late = await tablet.post('/api/transfers/claim', { lookup: made.lookup });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe(CODE_NOT_VALID);
    const sender = await owner.device.get(`/api/transfers/${made.transferId}/signal`, made.sender);
    expect(sender.statusCode).toBe(404);
  });

  it('the hourly clean-up forgets offers nobody took and moves past their hours to resume, never one still going', async () => {
    const owner = await createOnboardedUser(t);
    const untaken = await offer(owner);
    const taken = await offer(owner);
    const tablet = await moveToNewTablet(owner);
    const claimed = await tablet.post('/api/transfers/claim', { lookup: taken.lookup });
    expect(claimed.statusCode).toBe(200);
    const rowsOf = async () =>
      (
        await t.db
          .select({ id: deviceTransfers.id })
          .from(deviceTransfers)
          .where(eq(deviceTransfers.userId, owner.user.id))
      ).map((row) => row.id);

    expect((await rowsOf()).sort()).toEqual([untaken.transferId, taken.transferId].sort());

    // An hour later (the job runs hourly): the offer nobody took is gone, the taken one stays.
    expect(await t.app.jobs.runDue(clock.advance(60 * 60_000 + 1000))).toContain(
      'sessions.cleanup',
    );
    expect(await rowsOf()).toEqual([taken.transferId]);
    const resumed = await tablet.get(`/api/transfers/${taken.transferId}/signal`);
    expect(resumed.statusCode).toBe(200);

    // Six hours after it was taken, it can no longer resume, and the next run forgets it too.
    await t.app.jobs.runDue(clock.advance(5 * 60 * 60_000 + 1000));
    expect(await rowsOf()).toEqual([]);
    const gone = await owner.device.get(`/api/transfers/${taken.transferId}/signal`, taken.sender);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(ENDED);
    // The owner's log still says the move started.
    expect((await auditTypes(owner.user.id)).map((r) => r.eventType)).toEqual(['transfer_started']);
  });

  it('the old device cannot take its own offer, and a failure is on the log', async () => {
    const owner = await createOnboardedUser(t);
    const made = await offer(owner);
    const own = await owner.device.post('/api/transfers/claim', { lookup: made.lookup });
    expect(own.statusCode).toBe(400);
    const failed = await owner.device.post(
      `/api/transfers/${made.transferId}/failure`,
      { reason: 'no_connection' },
      made.sender,
    );
    expect(failed.statusCode).toBe(204);
    const [row] = await auditTypes(owner.user.id);
    expect(row).toMatchObject({ eventType: 'transfer_failed', successful: false });
    expect(row!.details).toMatchObject({ reason: 'no_connection', reportedBy: 'old device' });
  });

  it('answers bad input with a clear 4xx', async () => {
    const owner = await createOnboardedUser(t);
    const short = await owner.device.post('/api/transfers', { lookup: 'abc', videoCount: 1 });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('The code is not complete');
    const badId = await owner.device.get('/api/transfers/not-a-uuid/signal');
    expect(badId.statusCode).toBe(400);
    const made = await offer(owner);
    const reason = await owner.device.post(
      `/api/transfers/${made.transferId}/failure`,
      { reason: 'bored' },
      made.sender,
    );
    expect(reason.statusCode).toBe(400);
    const early = await owner.device.request({
      method: 'PUT',
      url: `/api/transfers/${made.transferId}/signal`,
      payload: { attempt: 1, description: 'x' },
      headers: made.sender,
    });
    expect(early.statusCode).toBe(404);
    const rows = await t.db
      .select()
      .from(deviceTransfers)
      .where(and(eq(deviceTransfers.id, made.transferId)));
    expect(rows[0]!.offerDescription).toBeNull();
  });
});

describe('the old device after the account moved without its messages', () => {
  it('offers them with the password, signed out; only the new device takes the offer', async () => {
    const owner = await createOnboardedUser(t);
    const oldDevice = owner.device.withoutCookies();
    const newTablet = await moveToNewTablet(owner);
    // Signed out by the move, the old device is refused the signed-in offer.
    const refused = await oldDevice.post('/api/transfers', { lookup: newLookup(), videoCount: 2 });
    expect(refused.statusCode).toBe(401);

    const lookup = newLookup();
    const made = await oldDevice.post('/api/transfers/with-password', {
      lookup,
      username: owner.user.username,
      password: GOOD_PASSWORD,
    });
    expect(made.statusCode).toBe(200);
    const body = made.json<{ transferId: string; senderToken: string; userId: number }>();
    expect(body.userId).toBe(owner.user.id);
    const [row] = await t.db
      .select()
      .from(deviceTransfers)
      .where(eq(deviceTransfers.id, body.transferId));
    expect(row!.senderDeviceId).toBe(oldDevice.deviceId);
    expect(row!.userId).toBe(owner.user.id);

    const claimed = await newTablet.post('/api/transfers/claim', { lookup });
    expect(claimed.statusCode).toBe(200);
    const sender = { 'x-transfer-token': body.senderToken };
    const signal = await oldDevice.get(`/api/transfers/${body.transferId}/signal`, sender);
    expect(signal.json()).toMatchObject({ state: 'taken' });
    const logged = await auditTypes(owner.user.id);
    expect(logged.map((r) => r.eventType)).toEqual([
      'transfer_offered_signed_out',
      'transfer_started',
    ]);
    expect(logged[0]!.deviceId).toBe(oldDevice.deviceId);
  });

  it('refuses a wrong password as a sign-in does, and the device that holds the account', async () => {
    const owner = await createOnboardedUser(t);
    const stranger = await TestDevice.create(t.app);
    const wrong = await stranger.post('/api/transfers/with-password', {
      lookup: newLookup(),
      username: owner.user.username,
      password: 'not-the-password-at-all',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid username or password');
    const failed = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'login_failed')));
    expect(failed).toHaveLength(1);

    const here = await owner.device.withoutCookies().post('/api/transfers/with-password', {
      lookup: newLookup(),
      username: owner.user.username,
      password: GOOD_PASSWORD,
    });
    expect(here.statusCode).toBe(400);
    expect(here.json().message).toBe(
      'Your account is on this device. Sign in here to move your messages.',
    );
    const incomplete = await stranger.post('/api/transfers/with-password', {
      lookup: 'abc',
      username: owner.user.username,
    });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().code).toBe('VALIDATION');
  });
});

describe('WEBRTC_ICE_SERVERS', () => {
  const turn = [{ urls: 'turn:turn.example.org:3478', username: 'u', credential: 'p' }];
  const withTurn = useTestApp({ env: { WEBRTC_ICE_SERVERS: JSON.stringify(turn) } });

  it('hands the configured servers to both devices', async () => {
    const owner = await createOnboardedUser(withTurn);
    const res = await owner.device.post('/api/transfers', { lookup: newLookup(), videoCount: 0 });
    expect(res.json().iceServers).toEqual(turn);
  });

  it('stops the start on text that is not a list of ICE servers', () => {
    expect(() => parseConfig({ WEBRTC_ICE_SERVERS: '{not json' })).toThrow(/WEBRTC_ICE_SERVERS/);
    expect(() => parseConfig({ WEBRTC_ICE_SERVERS: '[{"url":"stun:x"}]' })).toThrow(
      /WEBRTC_ICE_SERVERS/,
    );
  });
});
