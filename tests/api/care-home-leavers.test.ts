import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, legacyReleases, users } from '../../src/server/db/schema';
import {
  CARE_HOME_MESSAGES,
  type TMyCareHome,
  type TResidentProgress,
} from '../../src/shared/schemas/care-homes';
import { createSessionFor, TestClock, TestDevice, useTestApp } from '../setup/app';
import { makeCareHome } from './support/care-homes';
import { deliverMailTo } from './support/mail';

// A resident who leaves keeps their messages and their family keeps watching; recording a death
// only tells the next of kin they may ask for the legacy release. The home releases nothing.

const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });

type Home = Awaited<ReturnType<typeof makeCareHome>>;

const setStatus = (home: Home, linkId: number, status: string) =>
  home.manager.device.request({
    method: 'PUT',
    url: `/api/care-home/residents/${linkId}/status`,
    payload: { status },
  });

async function progressOf(home: Home, linkId: number) {
  const rows = (await home.manager.device.get('/api/care-home/residents')).json<
    TResidentProgress[]
  >();
  return rows.find((row) => row.id === linkId)!;
}

describe('leavers and deaths', () => {
  it('a leaver keeps their account and family; the family is told; they can come back', async () => {
    const home = await makeCareHome(t, 'Rosewood House');
    const usersBefore = (await t.db.select().from(users)).length;
    const res = await setStatus(home, home.arthur.linkId, 'left');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'left', statusChangedAt: expect.any(String) });
    const row = await progressOf(home, home.arthur.linkId);
    expect(row).toMatchObject({ status: 'left', needsHelp: [] });
    expect(row.statusChangedAt).not.toBeNull();
    // Nothing deleted: the account, the next of kin and every message stay.
    expect((await t.db.select().from(users)).length).toBe(usersBefore);
    const mail = await deliverMailTo(
      t,
      `tom.${home.manager.user.username}@example.test`,
      /has left Rosewood House$/,
    );
    expect(mail.text).toContain('Nothing changes for you');
    const again = await setStatus(home, home.arthur.linkId, 'left');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CARE_HOME_MESSAGES.statusUnchanged);
    // Back again.
    expect((await setStatus(home, home.arthur.linkId, 'active')).statusCode).toBe(200);
    expect((await progressOf(home, home.arthur.linkId)).status).toBe('active');
  });

  it('a death tells the next of kin they may ask; nothing is released, and it stays recorded', async () => {
    const home = await makeCareHome(t, 'Birchfield Lodge');
    const res = await setStatus(home, home.margaret.linkId, 'died');
    expect(res.statusCode).toBe(200);
    const mail = await deliverMailTo(
      t,
      `susan.${home.manager.user.username}@example.test`,
      /^Birchfield Lodge has told us of Margaret Hill’s death$/,
    );
    expect(mail.text).toContain('Ask to release Margaret');
    expect(mail.text).toContain('the home cannot open or release them');
    // The home released nothing: no legacy request, no release.
    const [resident] = await t.db.select().from(users).where(eq(users.id, home.margaret.userId));
    expect(resident!.legacyReleasedAt).toBeNull();
    expect(
      await t.db.select().from(legacyReleases).where(eq(legacyReleases.ownerId, resident!.id)),
    ).toHaveLength(0);
    const undo = await setStatus(home, home.margaret.linkId, 'active');
    expect(undo.statusCode).toBe(409);
    expect(undo.json().message).toBe(CARE_HOME_MESSAGES.diedIsFinal);
    const log = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.userId, home.margaret.userId));
    expect(log.map((line) => line.eventType)).toContain('care_home_resident_status');
  });

  it('is the manager’s own home only; bad input is refused plainly', async () => {
    const home = await makeCareHome(t, 'Oakview');
    const other = await makeCareHome(t, 'Elm Court');
    const theirs = await setStatus(home, other.ivy.linkId, 'left');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toBe(CARE_HOME_MESSAGES.notFound);
    expect((await progressOf(other, other.ivy.linkId)).status).toBe('active');
    const bad = await setStatus(home, home.ivy.linkId, 'gone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please choose left, back or died');
  });
});

describe('a resident’s own account', () => {
  it('shows their home and pauses Memento for them there; a leaver sees no home', async () => {
    const home = await makeCareHome(t, 'Willow Court');
    const tablet = await TestDevice.create(t.app);
    await createSessionFor(t, {
      userId: home.ivy.userId,
      device: tablet,
      method: 'username_password',
    });
    const mine = await tablet.get('/api/care-home/mine');
    expect(mine.statusCode).toBe(200);
    expect(mine.json<TMyCareHome>()).toMatchObject({
      home: { name: 'Willow Court' },
      paused: false,
    });
    const paused = await tablet.request({
      method: 'PUT',
      url: '/api/care-home/my-pause',
      payload: { paused: true },
    });
    expect(paused.json()).toEqual({ paused: true });
    expect((await tablet.get('/api/care-home/mine')).json<TMyCareHome>().paused).toBe(true);
    expect((await progressOf(home, home.ivy.linkId)).paused).toBe(true);
    // Anyone else's account has no home here.
    expect((await home.manager.device.get('/api/care-home/mine')).json()).toEqual({
      home: null,
      paused: false,
    });
    expect((await setStatus(home, home.ivy.linkId, 'left')).statusCode).toBe(200);
    expect((await tablet.get('/api/care-home/mine')).json<TMyCareHome>().home).toBeNull();
  });
});
