import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLogs,
  careHomeResidents,
  careHomeStaff,
  devices,
  users,
  videos,
} from '../../src/server/db/schema';
import { STATION_MESSAGES } from '../../src/shared/schemas/stations';
import { TestClock, TestDevice, useTestApp } from '../setup/app';
import {
  makeCareHome,
  makeCarer as makeCarerOf,
  makeStation as makeStationOf,
  residentTablet,
  saveStationTake,
  STATION_WEBM,
} from './support/care-homes';

// A care home's recording station: the manager makes it, a carer signs in with a PIN, picks a
// resident, and the session can record for that resident and nothing else.

const clock = new TestClock();
const t = useTestApp({ mail: true, clock });

const makeHome = (name: string) => makeCareHome(t, name);
const makeCarer = (manager: Parameters<typeof makeCarerOf>[1], pin?: string) =>
  makeCarerOf(t, manager, pin);
const makeStation = (manager: Parameters<typeof makeStationOf>[1], name?: string) =>
  makeStationOf(t, manager, name);

async function logOf(userId: number) {
  return t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId));
}

const WEBM = STATION_WEBM;

function saveRecording(tablet: TestDevice, recipientId: number, takeId = randomUUID()) {
  return saveStationTake(tablet, recipientId, { takeId });
}

describe('recording stations', () => {
  it('a carer signs in with a PIN, records for one resident, and the session reaches nothing else', async () => {
    const { manager, margaret, arthur } = await makeHome('Rosewood House');
    const { staffId } = await makeCarer(manager);
    const tablet = await makeStation(manager);

    // The manager's own sign-in ended there; the tablet belongs to no account.
    expect((await tablet.get('/api/care-home')).statusCode).toBe(401);
    const [device] = await t.db.select().from(devices).where(eq(devices.id, tablet.deviceId));
    expect(device!.userId).toBeNull();

    const station = await tablet.get('/api/station');
    expect(station.json()).toMatchObject({
      station: { name: 'Lounge tablet' },
      home: { name: 'Rosewood House' },
      staff: [{ id: staffId, name: 'Jane Doe' }],
      session: null,
    });
    expect((await tablet.get('/api/station/residents')).statusCode).toBe(401);

    const signedIn = await tablet.post('/api/station/sign-in', { staffId, pin: '4821' });
    expect(signedIn.statusCode).toBe(204);
    const residents = await tablet.get('/api/station/residents');
    // Names only, by last name.
    expect(residents.json()).toEqual([
      { id: expect.any(Number), name: 'Ivy Green' },
      { id: margaret.userId, name: 'Margaret Hill' },
      { id: arthur.userId, name: 'Arthur Jones' },
    ]);

    // Before a resident is picked, nothing of anyone's is reachable.
    expect((await tablet.get('/api/station/recipients')).statusCode).toBe(403);

    const picked = await tablet.post('/api/station/resident', { residentId: margaret.userId });
    expect(picked.json()).toEqual({ id: margaret.userId, name: 'Margaret Hill' });
    const recipients = await tablet.get('/api/station/recipients');
    expect(recipients.statusCode).toBe(200);
    const list = recipients.json<{ id: number; name: string }[]>();
    expect(list).toEqual([{ id: expect.any(Number), name: 'Susan Hill' }]);
    expect(recipients.body).not.toContain('@');

    const takeId = randomUUID();
    const saved = await saveRecording(tablet, list[0]!.id, takeId);
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toEqual({ saved: true, recipientName: 'Susan Hill' });
    // The same take sent again (an answer lost on the way back): still one message, one log line.
    const again = await saveRecording(tablet, list[0]!.id, takeId);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ saved: true, recipientName: 'Susan Hill' });
    const kept = await t.db.select().from(videos).where(eq(videos.creatorId, margaret.userId));
    expect(kept).toHaveLength(1);
    const savedLines = (await logOf(margaret.userId)).filter(
      (row) => row.eventType === 'care_home_recording_saved',
    );
    expect(savedLines).toHaveLength(1);
    const noTake = await tablet.request({
      method: 'POST',
      url: `/api/station/recordings?recipientId=${list[0]!.id}&durationMs=4000`,
      payload: WEBM,
      headers: { 'content-type': 'video/webm' },
    });
    expect(noTake.statusCode).toBe(400);
    expect(noTake.body).toContain(STATION_MESSAGES.saveFailed);
    const [video] = kept;
    expect(video).toMatchObject({
      recipientId: list[0]!.id,
      syncStatus: 'synced',
      byteSize: WEBM.length,
    });

    // Every other route refuses the station: earlier messages, next of kin, legacy, codes,
    // the log, settings.
    for (const url of [
      '/api/videos',
      '/api/recipients',
      '/api/legacy',
      '/api/audit-logs',
      '/api/user',
      '/api/encryption',
      '/api/cloud/status',
    ]) {
      const res = await tablet.get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.body, url).not.toContain('Susan');
    }
    const codes = await tablet.post(`/api/recipients/${list[0]!.id}/reshare-code`, {});
    expect(codes.statusCode).toBe(401);
    const legacyEnd = await tablet.post('/api/legacy/end', {});
    expect(legacyEnd.statusCode).toBe(401);

    // The resident's own log names the carer for every step.
    const finished = await tablet.post('/api/station/finish');
    expect(finished.statusCode).toBe(204);
    expect((await tablet.get('/api/station/recipients')).statusCode).toBe(401);
    const messages = (await logOf(margaret.userId)).map(
      (row) => (row.details as { message?: string }).message,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        'Jane Doe (carer) opened a recording session on Lounge tablet',
        'Jane Doe (carer) helped save a message for Susan Hill on Lounge tablet',
        'Jane Doe (carer) finished the recording session on Lounge tablet',
      ]),
    );
  });

  it('refuses another home’s resident, and offers no one paused or without consent', async () => {
    const { manager, margaret, arthur, ivy } = await makeHome('Oak Lodge');
    const other = await makeHome('Elm House');
    const { carer, staffId } = await makeCarer(manager, '1357');
    const tablet = await makeStation(manager);

    // No consent basis: not offered. Paused by the manager: not offered.
    const cleared = await manager.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${arthur.linkId}/consent`,
      payload: { consentBasis: null },
    });
    expect(cleared.statusCode).toBe(204);
    const paused = await manager.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${ivy.linkId}/pause`,
      payload: { paused: true },
    });
    expect(paused.json()).toEqual({ paused: true });
    // The manager's table says who is paused.
    const rows = (await manager.device.get('/api/care-home/residents')).json<
      { id: number; paused: boolean }[]
    >();
    expect(rows.find((row) => row.id === ivy.linkId)?.paused).toBe(true);
    expect(rows.find((row) => row.id === margaret.linkId)?.paused).toBe(false);

    await tablet.post('/api/station/sign-in', { staffId, pin: '1357' });
    expect((await tablet.get('/api/station/residents')).json()).toEqual([
      { id: margaret.userId, name: 'Margaret Hill' },
    ]);
    for (const residentId of [arthur.userId, ivy.userId, other.margaret.userId]) {
      const refused = await tablet.post('/api/station/resident', { residentId });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ message: STATION_MESSAGES.residentNotOffered });
    }

    // The resident themself may pause at the station: the session ends with it.
    await tablet.post('/api/station/resident', { residentId: margaret.userId });
    expect((await tablet.post('/api/station/pause')).statusCode).toBe(204);
    expect((await tablet.get('/api/station/recipients')).statusCode).toBe(401);
    const [link] = await t.db
      .select()
      .from(careHomeResidents)
      .where(eq(careHomeResidents.userId, margaret.userId));
    expect(link!.pausedAt).not.toBeNull();
    expect((await logOf(ivy.userId)).map((row) => row.eventType)).toContain('care_home_paused');

    // A carer, with their own account, resumes Ivy; only residents pause themselves.
    const resumed = await carer.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${ivy.linkId}/pause`,
      payload: { paused: false },
    });
    expect(resumed.json()).toEqual({ paused: false });
    const notResident = await manager.device.request({
      method: 'PUT',
      url: '/api/care-home/my-pause',
      payload: { paused: true },
    });
    expect(notResident.statusCode).toBe(404);
    const ivyLog = (await logOf(ivy.userId)).map((row) => row.details as { actor?: string });
    expect(ivyLog.map((details) => details.actor)).toEqual(
      expect.arrayContaining(['Jane Doe, carer', expect.stringMatching(/, manager of Oak Lodge$/)]),
    );
  });

  it('refuses to save when neither the home nor the resident has cloud sync, and ends a disabled carer', async () => {
    const { manager, margaret } = await makeHome('Ash Grove');
    const { staffId } = await makeCarer(manager, '9753');
    const tablet = await makeStation(manager);
    await tablet.post('/api/station/sign-in', { staffId, pin: '9753' });
    await tablet.post('/api/station/resident', { residentId: margaret.userId });
    const [susan] = (await tablet.get('/api/station/recipients')).json<{ id: number }[]>();
    // The home's plan lapsed: Margaret is on Community Edition, whose messages stay local.
    await t.db.update(users).set({ subscriptionTier: 'free' }).where(eq(users.id, manager.user.id));
    const refused = await saveRecording(tablet, susan!.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: STATION_MESSAGES.noCloud });
    expect(await t.db.select().from(videos).where(eq(videos.creatorId, margaret.userId))).toEqual(
      [],
    );

    await t.db
      .update(users)
      .set({ subscriptionTier: 'professional' })
      .where(eq(users.id, manager.user.id));
    const disabled = await manager.device.post(`/api/care-home/staff/${staffId}/disable`);
    expect(disabled.statusCode).toBe(200);
    expect((await tablet.get('/api/station/recipients')).statusCode).toBe(401);
  });

  it('rests a PIN after five wrong tries, each written down', async () => {
    const { manager } = await makeHome('Willow Court');
    const { carer, staffId } = await makeCarer(manager, '2468');
    const tablet = await makeStation(manager);
    const badFormat = await tablet.post('/api/station/sign-in', { staffId, pin: '12' });
    expect(badFormat.statusCode).toBe(400);
    for (let i = 0; i < 4; i += 1) {
      const wrong = await tablet.post('/api/station/sign-in', { staffId, pin: '0000' });
      expect(wrong.json()).toMatchObject({ message: STATION_MESSAGES.wrongPin });
    }
    const locked = await tablet.post('/api/station/sign-in', { staffId, pin: '0000' });
    expect(locked.statusCode).toBe(429);
    const stillLocked = await tablet.post('/api/station/sign-in', { staffId, pin: '2468' });
    expect(stillLocked.json()).toMatchObject({ message: STATION_MESSAGES.pinLocked });
    const refusals = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, carer.user.id), eq(auditLogs.eventType, 'care_home_pin_refused')),
      );
    expect(refusals).toHaveLength(5);
    clock.advance(16 * 60_000);
    expect((await tablet.post('/api/station/sign-in', { staffId, pin: '2468' })).statusCode).toBe(
      204,
    );
    const [row] = await t.db.select().from(careHomeStaff).where(eq(careHomeStaff.id, staffId));
    expect(row!.pinHash).not.toContain('2468');
  });

  it('counts stations and residents’ own tablets toward the manager’s device limit, and never on the manager’s main device', async () => {
    const { manager, ivy } = await makeHome('Beech House');
    const onMain = await manager.device.post('/api/care-home/station', { name: 'Hall tablet' });
    expect(onMain.statusCode).toBe(409);
    expect(onMain.json()).toMatchObject({ message: STATION_MESSAGES.ownMainDevice });
    await makeStation(manager, 'Lounge tablet');
    await makeStation(manager, 'Garden room tablet');
    const { countDevicesOfUser } =
      await import('../../src/server/modules/devices/devices.repository');
    expect(await countDevicesOfUser(t.db, manager.user.id)).toBe(3);

    // A resident's own tablet is one of the home's devices while they live there.
    await residentTablet(t, ivy.userId);
    expect(await countDevicesOfUser(t.db, manager.user.id)).toBe(4);
    const left = await manager.device.request({
      method: 'PUT',
      url: `/api/care-home/residents/${ivy.linkId}/status`,
      payload: { status: 'left' },
    });
    expect(left.statusCode).toBe(200);
    expect(await countDevicesOfUser(t.db, manager.user.id)).toBe(3);
  });
});
