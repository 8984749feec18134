import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountKeys, auditLogs, users, videos } from '../../src/server/db/schema';
import type { NewVideoRow } from '../../src/server/modules/videos/videos.repository';
import { residentTablet as ownTablet } from './support/care-homes';
import {
  CARE_TEAM_MESSAGES,
  type TCareTeamMine,
  type TCareTeamShared,
} from '../../src/shared/schemas/care-team';
import { CLOUD_MESSAGES, type TPlayback } from '../../src/shared/schemas/cloud';
import { newKdfParams } from '../../src/shared/sealing/secrets';
import {
  createPrimaryUser,
  createSessionFor,
  TestClock,
  TestDevice,
  useTestApp,
} from '../setup/app';
import {
  makeCareHome,
  makeCarer,
  makeStation,
  saveStationTake,
  STATION_WEBM,
} from './support/care-homes';

// "Share with the care team": a resident lets the staff and manager of their home watch one
// message, and can take it back. Nobody else at any home sees it, nothing unshared shows, a
// leaver's shares end, the message's own release rule holds, and each watch is on their log.

const DAY = 24 * 3600_000;
const clock = new TestClock();
const t = useTestApp({ mail: true, clock });

type Home = Awaited<ReturnType<typeof makeCareHome>>;
type Resident = Home['margaret'];

const SHARED = '/api/care-home/care-team/shared';
const shareUrl = (videoId: string) => `/api/care-home/care-team/shares/${videoId}`;
const playbackUrl = (videoId: string) => `/api/videos/${videoId}/playback`;

/** A home with its carer Jane Doe (signed in on her own phone). */
async function makeHomeWithCarer(name: string) {
  const home = await makeCareHome(t, name);
  const { carer, staffId } = await makeCarer(t, home.manager);
  return { ...home, carer, staffId };
}

/** The resident's own tablet: their primary device, signed in, on a plan (cloud sync or not). */
const residentTablet = (resident: Resident, tier: 'free' | 'premium' = 'premium') =>
  ownTablet(t, resident.userId, tier);

async function nextOfKinOf(resident: Resident) {
  const [kin] = await t.db
    .select()
    .from(users)
    .where(and(eq(users.createdById, resident.userId), eq(users.category, 'next_of_kin')));
  return kin!;
}

/** A message of the resident's already in the cloud, as their tablet's upload leaves it. */
async function cloudCopy(resident: Resident, title: string, extra: Partial<NewVideoRow> = {}) {
  const id = randomUUID();
  await t.db.insert(videos).values({
    id,
    creatorId: resident.userId,
    recipientId: (await nextOfKinOf(resident)).id,
    title,
    storageType: 'cloud',
    syncStatus: 'synced',
    cloudPath: randomBytes(16).toString('hex'),
    byteSize: 1000,
    durationMs: 3000,
    mimeType: 'video/webm',
    ...extra,
  });
  return id;
}

/** A message indexed by the resident's tablet, still only on it (no title on the server). */
async function indexedOnTablet(tablet: TestDevice, resident: Resident) {
  const id = randomUUID();
  const indexed = await tablet.post('/api/videos', {
    id,
    recipientId: (await nextOfKinOf(resident)).id,
    metadata: { byteSize: 1000, durationMs: 3000, mimeType: 'video/webm' },
  });
  expect(indexed.statusCode).toBe(201);
  return id;
}

function share(tablet: TestDevice, videoId: string) {
  return tablet.request({ method: 'PUT', url: shareUrl(videoId) });
}

async function sharedWith(device: TestDevice) {
  const res = await device.get(SHARED);
  expect(res.statusCode).toBe(200);
  return res.json<TCareTeamShared>();
}

async function mine(tablet: TestDevice) {
  const res = await tablet.get('/api/care-home/care-team/mine');
  expect(res.statusCode).toBe(200);
  return res.json<TCareTeamMine>();
}

async function logOf(userId: number) {
  return t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId));
}

const setStatus = (home: Home, resident: Resident, status: string) =>
  home.manager.device.request({
    method: 'PUT',
    url: `/api/care-home/residents/${resident.linkId}/status`,
    payload: { status },
  });

/** A refusal that says no more than a message that does not exist would. */
async function expectNotThere(device: TestDevice, videoId: string, title: string) {
  const res = await device.get(playbackUrl(videoId));
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ message: CLOUD_MESSAGES.videoNotFound });
  expect(res.body).not.toContain(title);
  const unknown = await device.get(playbackUrl(randomUUID()));
  expect(unknown.json()).toEqual(res.json());
}

describe('sharing a message with the care team', () => {
  it('at a station: the staff and the manager list it and watch it, each watch on the resident’s log', async () => {
    const home = await makeHomeWithCarer('Rosewood House');
    const tablet = await makeStation(t, home.manager);
    expect(
      (await tablet.post('/api/station/sign-in', { staffId: home.staffId, pin: '4821' }))
        .statusCode,
    ).toBe(204);
    await tablet.post('/api/station/resident', { residentId: home.margaret.userId });
    const [susan] = (await tablet.get('/api/station/recipients')).json<{ id: number }[]>();
    const takeId = randomUUID();
    const saved = await saveStationTake(tablet, susan!.id, { takeId, careTeam: 'yes' });
    expect(saved.statusCode).toBe(201);
    // The same take again (an answer lost on the way): still one share, one line.
    expect((await saveStationTake(tablet, susan!.id, { takeId, careTeam: 'yes' })).statusCode).toBe(
      201,
    );
    // A take saved without the choice is not shared.
    expect((await saveStationTake(tablet, susan!.id)).statusCode).toBe(201);

    const expected = {
      homeName: 'Rosewood House',
      messages: [
        {
          videoId: takeId,
          residentName: 'Margaret Hill',
          title: 'A message for Susan',
          createdAt: expect.any(String),
          durationMs: 4000,
        },
      ],
    };
    expect(await sharedWith(home.carer.device)).toEqual(expected);
    expect(await sharedWith(home.manager.device)).toEqual(expected);

    // The ordinary playback path, for the carer's own sign-in: the stored bytes come back.
    const playback = await home.carer.device.get(playbackUrl(takeId));
    expect(playback.statusCode).toBe(200);
    const { url, sealed } = playback.json<TPlayback>();
    expect(sealed).toBeNull();
    const content = await home.carer.device.get(url);
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(STATION_WEBM)).toBe(true);
    expect((await home.manager.device.get(playbackUrl(takeId))).statusCode).toBe(200);

    const log = await logOf(home.margaret.userId);
    const lines = (type: string) =>
      log
        .filter((row) => row.eventType === type)
        .map((row) => (row.details as { message: string }).message);
    expect(lines('care_team_shared')).toEqual([
      'Jane Doe (carer) helped share a message with the care team at Rosewood House on Lounge tablet',
    ]);
    expect(lines('care_team_watched').sort()).toEqual(
      [
        'Jane Doe (carer at Rosewood House) watched a message you shared with the care team',
        `${home.manager.user.firstName} ${home.manager.user.lastName} (manager of Rosewood House) watched a message you shared with the care team`,
      ].sort(),
    );
    // The log names the message by its id only, never its title.
    const watched = log.filter((row) => row.eventType === 'care_team_watched');
    expect(watched.every((row) => (row.details as { videoId: string }).videoId === takeId)).toBe(
      true,
    );
    expect(JSON.stringify(log)).not.toContain('A message for Susan');
  });

  it('from the resident’s own tablet, and taken back: unshared messages never show', async () => {
    const home = await makeHomeWithCarer('Oak Lodge');
    const tablet = await residentTablet(home.margaret);
    expect(await mine(tablet)).toEqual({ home: { name: 'Oak Lodge' }, whyNot: null, shares: [] });

    const secret = await cloudCopy(home.margaret, 'Why I gave you up');
    const birthday = await cloudCopy(home.margaret, 'Happy birthday, Tom');
    const shared = await share(tablet, birthday);
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toEqual({ shared: true });
    // Sharing again changes nothing, and writes no second line.
    expect((await share(tablet, birthday)).statusCode).toBe(200);

    expect((await mine(tablet)).shares).toEqual([
      {
        videoId: birthday,
        title: 'Happy birthday, Tom',
        createdAt: expect.any(String),
        sharedAt: expect.any(String),
        state: 'watchable',
      },
    ]);
    expect((await sharedWith(home.carer.device)).messages.map((m) => m.title)).toEqual([
      'Happy birthday, Tom',
    ]);

    // Nothing of the unshared message in any answer the manager or the carer gets.
    const answers = [
      await home.manager.device.get('/api/care-home'),
      await home.manager.device.get('/api/care-home/staff'),
      await home.manager.device.get('/api/care-home/residents'),
      await home.manager.device.get(SHARED),
      await home.carer.device.get('/api/care-home'),
      await home.carer.device.get('/api/care-home/support'),
      await home.carer.device.get(SHARED),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain('Why I gave you up');
      expect(answer.body).not.toContain(secret);
      expect(answer.body).not.toContain('/api/videos');
    }
    await expectNotThere(home.carer.device, secret, 'Why I gave you up');
    await expectNotThere(home.manager.device, secret, 'Why I gave you up');

    // Taken back: gone from the list and from playback at once.
    const stopped = await tablet.delete(shareUrl(birthday));
    expect(stopped.statusCode).toBe(204);
    expect((await sharedWith(home.carer.device)).messages).toEqual([]);
    await expectNotThere(home.carer.device, birthday, 'Happy birthday, Tom');
    expect((await mine(tablet)).shares).toEqual([]);
    expect((await tablet.delete(shareUrl(birthday))).statusCode).toBe(204);

    const types = (await logOf(home.margaret.userId)).map((row) => row.eventType);
    expect(types.filter((type) => type === 'care_team_shared')).toHaveLength(1);
    expect(types.filter((type) => type === 'care_team_unshared')).toHaveLength(1);
    const [line] = (await logOf(home.margaret.userId)).filter(
      (row) => row.eventType === 'care_team_unshared',
    );
    expect(line!.details).toMatchObject({
      message: 'Stopped sharing a message with the care team at Oak Lodge',
      actor: 'Margaret Hill, themself',
    });
  });

  it('a message still on its way to the cloud shows once its copy is there', async () => {
    const home = await makeHomeWithCarer('Birch House');
    const tablet = await residentTablet(home.arthur);
    const videoId = await indexedOnTablet(tablet, home.arthur);
    expect((await share(tablet, videoId)).statusCode).toBe(200);
    expect((await mine(tablet)).shares).toMatchObject([
      { videoId, title: null, state: 'waiting_for_copy' },
    ]);
    expect((await sharedWith(home.carer.device)).messages).toEqual([]);
    expect((await home.carer.device.get(playbackUrl(videoId))).statusCode).toBe(404);

    await t.db
      .update(videos)
      .set({
        title: 'Our garden',
        storageType: 'cloud',
        syncStatus: 'synced',
        cloudPath: randomBytes(16).toString('hex'),
      })
      .where(eq(videos.id, videoId));
    expect((await sharedWith(home.carer.device)).messages).toMatchObject([
      { videoId, residentName: 'Arthur Jones', title: 'Our garden' },
    ]);
    expect((await home.carer.device.get(playbackUrl(videoId))).statusCode).toBe(200);
  });

  it('only a resident shares, on their own tablet, their own messages', async () => {
    const home = await makeHomeWithCarer('Ash Grove');
    const tablet = await residentTablet(home.margaret);
    const videoId = await cloudCopy(home.margaret, 'Sunday lunch');

    // Someone who lives at no home is offered nothing, and refused before anything is looked up.
    const owner = await createPrimaryUser(t);
    expect(await mine(owner.device)).toEqual({ home: null, whyNot: null, shares: [] });
    for (const device of [owner.device, home.manager.device]) {
      const refused = await share(device, videoId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(CARE_TEAM_MESSAGES.notResident);
    }

    // Another device of the resident's (not their own tablet) may not choose.
    const other = await TestDevice.create(t.app);
    await createSessionFor(t, {
      userId: home.margaret.userId,
      device: other,
      method: 'username_password',
    });
    const elsewhere = await share(other, videoId);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe(CARE_TEAM_MESSAGES.ownDevice);

    // Another resident's message does not exist for her; a bad id is told plainly.
    const arthurs = await cloudCopy(home.arthur, 'Arthur’s own');
    const theirs = await share(tablet, arthurs);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe(CARE_TEAM_MESSAGES.messageNotFound);
    const bad = await share(tablet, 'not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(CARE_TEAM_MESSAGES.messageNotFound);
    expect((await sharedWith(home.carer.device)).messages).toEqual([]);
  });

  it('a plan that keeps videos on the tablet, or enhanced encryption, is told why not', async () => {
    const home = await makeHomeWithCarer('Elm Court');
    const free = await residentTablet(home.ivy, 'free');
    expect(await mine(free)).toMatchObject({ home: { name: 'Elm Court' }, whyNot: 'on_device' });
    const onTablet = await indexedOnTablet(free, home.ivy);
    const refused = await share(free, onTablet);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CARE_TEAM_MESSAGES.onDevice);

    // Arthur shared a plain message, then turned enhanced encryption on: the server can open
    // none of his messages for the care team any more, and he cannot share another.
    const sealedTablet = await residentTablet(home.arthur);
    const before = await cloudCopy(home.arthur, 'Before sealing');
    expect((await share(sealedTablet, before)).statusCode).toBe(200);
    expect((await sharedWith(home.carer.device)).messages).toHaveLength(1);
    await t.db.insert(accountKeys).values({
      userId: home.arthur.userId,
      passwordWrap: 'wrap',
      passwordKdf: newKdfParams('password'),
      recoveryWrap: 'wrap',
      recoveryKdf: newKdfParams('recovery'),
    });
    expect(await mine(sealedTablet)).toMatchObject({
      whyNot: 'sealed',
      shares: [{ videoId: before, state: 'sealed' }],
    });
    expect((await sharedWith(home.carer.device)).messages).toEqual([]);
    await expectNotThere(home.carer.device, before, 'Before sealing');
    const another = await cloudCopy(home.arthur, 'After sealing', { sealedKeyWrap: 'sealed' });
    const sealed = await share(sealedTablet, another);
    expect(sealed.statusCode).toBe(409);
    expect(sealed.json().message).toBe(CARE_TEAM_MESSAGES.sealed);
  });

  it('another home’s staff, a disabled carer and anyone else are refused', async () => {
    const home = await makeHomeWithCarer('Willow Park');
    const other = await makeHomeWithCarer('Cedar House');
    const tablet = await residentTablet(home.margaret);
    const videoId = await cloudCopy(home.margaret, 'Our wedding day');
    expect((await share(tablet, videoId)).statusCode).toBe(200);

    for (const device of [other.carer.device, other.manager.device]) {
      const list = await sharedWith(device);
      expect(list).toEqual({ homeName: 'Cedar House', messages: [] });
      await expectNotThere(device, videoId, 'Our wedding day');
    }
    const stranger = await createPrimaryUser(t);
    const refused = await stranger.device.get(SHARED);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(CARE_TEAM_MESSAGES.notStaff);
    await expectNotThere(stranger.device, videoId, 'Our wedding day');

    // The manager disables Jane: at once she sees nothing and can watch nothing.
    const disabled = await home.manager.device.post(`/api/care-home/staff/${home.staffId}/disable`);
    expect(disabled.statusCode).toBe(200);
    const gone = await home.carer.device.get(SHARED);
    expect(gone.statusCode).toBe(403);
    expect(gone.body).not.toContain('Our wedding day');
    await expectNotThere(home.carer.device, videoId, 'Our wedding day');
    expect((await home.manager.device.get(playbackUrl(videoId))).statusCode).toBe(200);
  });

  it('a resident who leaves ends every share; coming back does not bring them back', async () => {
    const home = await makeHomeWithCarer('Larch Lodge');
    const tablet = await residentTablet(home.margaret);
    const videoId = await cloudCopy(home.margaret, 'For the nurses');
    expect((await share(tablet, videoId)).statusCode).toBe(200);
    expect((await sharedWith(home.carer.device)).messages).toHaveLength(1);

    clock.advance(1000);
    expect((await setStatus(home, home.margaret, 'left')).statusCode).toBe(200);
    expect((await sharedWith(home.carer.device)).messages).toEqual([]);
    await expectNotThere(home.carer.device, videoId, 'For the nurses');
    await expectNotThere(home.manager.device, videoId, 'For the nurses');
    // A leaver is offered no care team and cannot share.
    expect(await mine(tablet)).toEqual({ home: null, whyNot: null, shares: [] });
    const refused = await share(tablet, videoId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(CARE_TEAM_MESSAGES.notResident);

    clock.advance(1000);
    expect((await setStatus(home, home.margaret, 'active')).statusCode).toBe(200);
    expect((await sharedWith(home.carer.device)).messages).toEqual([]);
    expect((await mine(tablet)).shares).toEqual([]);
    // Shared again after coming back: shown again.
    clock.advance(1000);
    expect((await share(tablet, videoId)).statusCode).toBe(200);
    expect((await sharedWith(home.carer.device)).messages).toHaveLength(1);
  });

  it('the message’s release rule holds: a dated one from its date, an after-my-legacy one after the release', async () => {
    const home = await makeHomeWithCarer('Holly House');
    const tablet = await residentTablet(home.ivy);
    const dated = await cloudCopy(home.ivy, 'For your birthday', {
      releaseRule: 'date',
      releaseAt: new Date(clock.now().getTime() + 2 * DAY),
    });
    const legacy = await cloudCopy(home.ivy, 'After I am gone', { releaseRule: 'legacy' });
    expect((await share(tablet, dated)).statusCode).toBe(200);
    expect((await share(tablet, legacy)).statusCode).toBe(200);
    expect((await mine(tablet)).shares.map((s) => s.state)).toEqual([
      'not_open_yet',
      'not_open_yet',
    ]);

    const titles = async () =>
      (await sharedWith(home.carer.device)).messages.map((message) => message.title).sort();
    expect(await titles()).toEqual([]);
    await expectNotThere(home.carer.device, dated, 'For your birthday');
    await expectNotThere(home.carer.device, legacy, 'After I am gone');

    clock.advance(3 * DAY);
    expect(await titles()).toEqual(['For your birthday']);
    expect((await home.carer.device.get(playbackUrl(dated))).statusCode).toBe(200);
    await expectNotThere(home.carer.device, legacy, 'After I am gone');

    await t.db
      .update(users)
      .set({ legacyReleasedAt: clock.now() })
      .where(eq(users.id, home.ivy.userId));
    expect(await titles()).toEqual(['After I am gone', 'For your birthday']);
    expect((await home.carer.device.get(playbackUrl(legacy))).statusCode).toBe(200);
  });
});
