import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, users, videos } from '../../src/server/db/schema';
import { hashSecret } from '../../src/server/lib/crypto';
import { ENCRYPTION_MESSAGES, WRAP_LABEL_PARTS } from '../../src/shared/schemas/encryption';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import {
  STATION_SEALING_MESSAGES,
  type TStationUnlocked,
} from '../../src/shared/schemas/station-sealing';
import { STATION_MESSAGES } from '../../src/shared/schemas/stations';
import {
  newKdfParams,
  openStream,
  splitSecret,
  unwrapKey,
  wrapLabel,
} from '../../src/shared/sealing';
import { TestClock, TestDevice, useTestApp } from '../setup/app';
import { openCodeWrap } from '../setup/encryption';
import { recipientSignedIn } from './support/cards';
import { makeCareHome, makeCarer, makeStation, saveStationTake } from './support/care-homes';
import {
  openAtStation,
  saveSealedTake,
  sealResident,
  sealTake,
  splitAtStation,
} from './support/sealed-residents';

// A resident with enhanced encryption on records at a care home's station: the station's browser
// proves the resident's own password (never sends it), gets the account key's wrap it alone can
// open, and sends only sealed takes. Wrong passwords count as the resident's sign-ins do, and
// every try is on the resident's log, naming the carer and the station.

const clock = new TestClock();
const t = useTestApp({ mail: true, clock, env: { ENHANCED_ENCRYPTION: 'true' } });

type Home = Awaited<ReturnType<typeof makeCareHome>>;

/** A home with a station where its carer Jane Doe signed in and chose `resident`. */
async function stationFor(home: Home, resident: { userId: number }, pin = '4821') {
  const { staffId } = await makeCarer(t, home.manager, pin);
  const station = await makeStation(t, home.manager);
  expect((await station.post('/api/station/sign-in', { staffId, pin })).statusCode).toBe(204);
  const picked = await station.post('/api/station/resident', { residentId: resident.userId });
  expect(picked.statusCode).toBe(200);
  return station;
}

function unlock(station: TestDevice, passwordProof: string) {
  return station.post('/api/station/sealing/unlock', { passwordProof });
}

async function logOf(userId: number) {
  return t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId));
}

/** Opens a playback URL as a page's fetch does (file mode: the server's own signed URL). */
async function fetchObject(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('a sealed resident at a recording station', () => {
  it('opens the key with their password’s proof and saves a take sealed, which their daughter’s card opens', async () => {
    const home = await makeCareHome(t, 'Rosewood House');
    const sealed = await sealResident(t, home.margaret);
    const station = await stationFor(home, home.margaret);

    // The station learns only that takes must be sealed, and how to split the password.
    const [margaret] = await t.db.select().from(users).where(eq(users.id, home.margaret.userId));
    const state = await station.get('/api/station/sealing');
    expect(state.statusCode).toBe(200);
    expect(state.json()).toEqual({ isSealed: true, passwordKdf: margaret!.passwordKdf });

    // A plain take is refused, and so is a sealed one before the password was typed.
    const plain = await saveStationTake(station, sealed.kin.id);
    expect(plain.statusCode).toBe(409);
    expect(plain.json().message).toBe(ENCRYPTION_MESSAGES.sealedOnly);
    const early = await saveSealedTake(station, {
      takeId: randomUUID(),
      recipientId: sealed.kin.id,
      ...(await sealTake(randomUUID(), randomBytes(100), { accountKey: sealed.accountKey })),
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe(STATION_SEALING_MESSAGES.unlockFirst);

    // A wrong password: said plainly, and on Margaret's log naming the carer and the tablet.
    const wrong = await splitAtStation(station, 'Not-her-password-1');
    const refused = await unlock(station, wrong.signInHalf);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(STATION_SEALING_MESSAGES.wrongPassword);
    expect(refused.body).not.toContain('v1.');
    const failed = (await logOf(home.margaret.userId)).filter(
      (row) => row.eventType === 'login_failed',
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.successful).toBe(false);
    expect(failed[0]!.deviceId).toBe(station.deviceId);
    expect(failed[0]!.details).toMatchObject({
      reason: 'wrong password at a recording station',
      message: 'Wrong password on Lounge tablet, where Jane Doe (carer) was helping',
      actor: 'Jane Doe, carer',
    });

    // The right one: the wrap, which only the key half (never sent) opens.
    const halves = await splitAtStation(station, sealed.password);
    const opened = await unlock(station, halves.signInHalf);
    expect(opened.statusCode).toBe(200);
    const unlocked = opened.json<TStationUnlocked>();
    expect(unlocked).toEqual({
      passwordWrap: expect.any(String),
      passwordKdf: margaret!.passwordKdf,
      recipientKeys: [
        {
          recipientId: sealed.kin.id,
          keyId: sealed.card.keyId,
          ownerWrap: sealed.card.body.ownerWrap,
        },
      ],
    });
    const keys = await openAtStation(unlocked, halves.keyHalf, home.margaret.userId);
    const messages = (await logOf(home.margaret.userId)).map(
      (row) => (row.details as { message?: string } | null)?.message,
    );
    expect(messages).toContain(
      'Margaret Hill typed their own password on Lounge tablet to record sealed messages, with Jane Doe (carer) helping',
    );

    // A take sealed in the station's browser, for Susan's card.
    const takeId = randomUUID();
    const recording = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(300_000)]);
    const take = await sealTake(takeId, recording, {
      accountKey: keys.accountKey,
      card: keys.cards.get(sealed.kin.id),
    });
    const saved = await saveSealedTake(station, { takeId, recipientId: sealed.kin.id, ...take });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toEqual({ saved: true, recipientName: 'Susan Hill' });
    // Sent again (an answer lost on the way back): still one message, one line on the log.
    const again = await saveSealedTake(station, { takeId, recipientId: sealed.kin.id, ...take });
    expect(again.statusCode).toBe(201);
    const kept = await t.db.select().from(videos).where(eq(videos.creatorId, home.margaret.userId));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      id: takeId,
      syncStatus: 'synced',
      sealedKeyWrap: take.keyWrap,
      recipientKeyWrap: take.recipientKeyWrap,
      recipientKeyId: sealed.card.keyId,
      byteSize: take.sealed.length,
    });
    const savedLines = (await logOf(home.margaret.userId)).filter(
      (row) => row.eventType === 'care_home_recording_saved',
    );
    expect(savedLines).toHaveLength(1);

    // Susan signs in with her card and opens it; the stored bytes are sealed, never the recording.
    const susan = await recipientSignedIn(t, sealed.kin.email, sealed.card);
    const playback = (await susan.device.get(`/api/videos/${takeId}/playback`)).json<TPlayback>();
    expect(playback.sealed).toMatchObject({ holder: 'recipient', keyId: sealed.card.keyId });
    const stored = await fetchObject(playback.url);
    expect(stored.subarray(0, 4).toString('latin1')).toBe('MMSV');
    expect(stored.includes(recording.subarray(1000, 1064))).toBe(false);
    const recipientKey = await openCodeWrap(sealed.kin.email, sealed.card.code, {
      keyId: sealed.card.keyId,
      codeWrap: sealed.card.body.codeWrap,
    });
    const contentKey = await unwrapKey(
      playback.sealed!.keyWrap!,
      recipientKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(takeId, sealed.card.keyId)),
      'content',
    );
    const plaintext = await new Response(
      openStream(contentKey, new Blob([new Uint8Array(stored)]).stream(), takeId),
    ).arrayBuffer();
    expect(Buffer.from(plaintext).equals(recording)).toBe(true);
  });

  it('refuses a take that is not a sealed copy of itself', async () => {
    const home = await makeCareHome(t, 'Birch Lodge');
    const sealed = await sealResident(t, home.margaret);
    const station = await stationFor(home, home.margaret);
    const halves = await splitAtStation(station, sealed.password);
    const keys = await openAtStation(
      (await unlock(station, halves.signInHalf)).json<TStationUnlocked>(),
      halves.keyHalf,
      home.margaret.userId,
    );
    const takeId = randomUUID();
    const take = await sealTake(takeId, randomBytes(5000), { accountKey: keys.accountKey });
    for (const bytes of [
      randomBytes(take.sealed.length),
      take.sealed.subarray(0, take.sealed.length - 1),
      (await sealTake(randomUUID(), randomBytes(5000), keys)).sealed,
    ]) {
      const res = await saveSealedTake(station, {
        takeId,
        recipientId: sealed.kin.id,
        sealed: bytes,
        keyWrap: take.keyWrap,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(STATION_SEALING_MESSAGES.badSealedCopy);
    }
    const badWrap = await station.request({
      method: 'POST',
      url: `/api/station/sealed-recordings?takeId=${takeId}&recipientId=${sealed.kin.id}&durationMs=4000&mimeType=video/webm&keyWrap=nonsense`,
      payload: take.sealed,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(badWrap.statusCode).toBe(400);
    expect(badWrap.json().message).toBe(ENCRYPTION_MESSAGES.badWrap);
    expect(
      await t.db.select().from(videos).where(eq(videos.creatorId, home.margaret.userId)),
    ).toHaveLength(0);
  });

  it('counts wrong passwords with the resident’s sign-ins: the station waits, as any device would', async () => {
    const home = await makeCareHome(t, 'Cedar Court');
    const sealed = await sealResident(t, home.margaret);
    const station = await stationFor(home, home.margaret);
    const wrong = await splitAtStation(station, 'Not-her-password-1');
    for (let i = 0; i < 10; i++) {
      expect((await unlock(station, wrong.signInHalf)).statusCode).toBe(400);
    }
    // Even the right password waits now: the wait is told in plain words.
    const right = await splitAtStation(station, sealed.password);
    const throttled = await unlock(station, right.signInHalf);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().message).toMatch(/^Too many attempts from this device\. Please wait/);
    const failed = (await logOf(home.margaret.userId)).filter(
      (row) => row.eventType === 'login_failed',
    );
    expect(failed).toHaveLength(11);
    expect(failed.at(-1)!.details).toMatchObject({
      message: 'Too many wrong passwords on Lounge tablet, where Jane Doe (carer) was helping',
      actor: 'Jane Doe, carer',
    });
    // After the window, the right one opens.
    clock.advance(16 * 60_000);
    expect((await unlock(station, right.signInHalf)).statusCode).toBe(200);
  });

  it('refuses a station of another home, and anything that is not a station session', async () => {
    const home = await makeCareHome(t, 'Elm House');
    const sealed = await sealResident(t, home.margaret);
    const other = await makeCareHome(t, 'Oak Lodge');
    const { staffId, carer } = await makeCarer(t, other.manager);
    const elsewhere = await makeStation(t, other.manager);
    expect(
      (await elsewhere.post('/api/station/sign-in', { staffId, pin: '4821' })).statusCode,
    ).toBe(204);
    const picked = await elsewhere.post('/api/station/resident', {
      residentId: home.margaret.userId,
    });
    expect(picked.statusCode).toBe(404);
    expect(picked.json().message).toBe(STATION_MESSAGES.residentNotOffered);
    // Nobody of Margaret's is chosen there, so nothing of hers can be asked for.
    const proof = (await splitSecret('password', sealed.password, newKdfParams('password')))
      .signInHalf;
    for (const res of [
      await elsewhere.get('/api/station/sealing'),
      await unlock(elsewhere, proof),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(STATION_MESSAGES.pickResident);
    }

    // Margaret's own tablet, the carer's phone, a stranger: no station session, nothing.
    const stranger = await TestDevice.create(t.app);
    for (const device of [sealed.tablet, stranger, carer.device]) {
      expect((await device.get('/api/station/sealing')).statusCode).toBe(401);
      const res = await unlock(device, proof);
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('v1.');
    }
    // A session that ended (Finish) reaches nothing either.
    const station = await stationFor(home, home.margaret);
    expect((await station.post('/api/station/finish')).statusCode).toBe(204);
    expect((await unlock(station, proof)).statusCode).toBe(401);
    const failed = (await logOf(home.margaret.userId)).filter(
      (row) => row.eventType === 'login_failed',
    );
    expect(failed).toHaveLength(0);
  });

  it('holds the proof to the resident it was typed for, and says when a reset left the key behind', async () => {
    const home = await makeCareHome(t, 'Ash Grove');
    const sealed = await sealResident(t, home.margaret);
    const station = await stationFor(home, home.margaret);

    // Arthur's messages are not sealed: nothing to unlock.
    const halves = await splitAtStation(station, sealed.password);
    expect((await unlock(station, halves.signInHalf)).statusCode).toBe(200);
    await station.post('/api/station/resident', { residentId: home.arthur.userId });
    expect((await station.get('/api/station/sealing')).json()).toEqual({ isSealed: false });
    const notSealed = await unlock(station, halves.signInHalf);
    expect(notSealed.statusCode).toBe(409);
    expect(notSealed.json().message).toBe(STATION_SEALING_MESSAGES.notSealed);
    // Margaret's proof does not let a sealed-looking take in for Arthur.
    const [arthurKin] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.createdById, home.arthur.userId), eq(users.category, 'next_of_kin')));
    const takeId = randomUUID();
    const forArthur = await saveSealedTake(station, {
      takeId,
      recipientId: arthurKin!.id,
      ...(await sealTake(takeId, randomBytes(100), { accountKey: sealed.accountKey })),
    });
    expect(forArthur.statusCode).toBe(403);
    expect(forArthur.json().message).toBe(STATION_SEALING_MESSAGES.unlockFirst);

    // Margaret's password was reset since her key was wrapped: right, but it opens nothing yet.
    const resetKdf = newKdfParams('password');
    const reset = await splitSecret('password', 'Daffodils&Jam-2027', resetKdf);
    await t.db
      .update(users)
      .set({ passwordHash: await hashSecret(reset.signInHalf), passwordKdf: resetKdf })
      .where(eq(users.id, home.margaret.userId));
    await station.post('/api/station/resident', { residentId: home.margaret.userId });
    const stale = await unlock(station, reset.signInHalf);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STATION_SEALING_MESSAGES.passwordWrapOld);
  });
});
