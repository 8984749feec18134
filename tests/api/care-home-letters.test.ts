import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, mailQueue, users } from '../../src/server/db/schema';
import { MESSAGES } from '../../src/shared/domain/errors';
import { CARE_HOME_MESSAGES, type TLetters } from '../../src/shared/schemas/care-homes';
import { TestClock, TestDevice, useTestApp } from '../setup/app';
import { makeCareHome } from './support/care-homes';
import { signInWithCode } from './support/recipients';

// Invitation letters: the manager prints one letter per family that has not joined, each with a
// new code that works for a month unless used. The code reaches the family only on paper: the
// answer holds it once, the database only its hash, and no email carries it.

const DAY_MS = 24 * 3600_000;
const clock = new TestClock();
const t = useTestApp({ mail: true, admin: true, clock });

type Home = Awaited<ReturnType<typeof makeCareHome>>;

async function printLetters(home: Home, residentIds?: number[]) {
  return home.manager.device.post('/api/care-home/letters', residentIds ? { residentIds } : {});
}

async function nextOfKinOf(residentUserId: number) {
  const [row] = await t.db.select().from(users).where(eq(users.createdById, residentUserId));
  return row!;
}

describe('invitation letters', () => {
  it('makes one code a family, printed and never emailed; it lets the family join once', async () => {
    const home = await makeCareHome(t, 'Rosewood House');
    const mailsBefore = (await t.db.select().from(mailQueue)).length;
    const res = await printLetters(home);
    expect(res.statusCode).toBe(200);
    const { letters, home: shown } = res.json<TLetters>();
    expect(shown.name).toBe('Rosewood House');
    expect(letters.map((letter) => letter.residentName).sort()).toEqual([
      'Arthur Jones',
      'Ivy Green',
      'Margaret Hill',
    ]);
    const forMargaret = letters.find((letter) => letter.residentName === 'Margaret Hill')!;
    expect(forMargaret).toMatchObject({
      room: '12',
      nextOfKinName: 'Susan Hill',
      maskedEmail: expect.stringMatching(/^s•+@example\.test$/),
    });
    // The answer holds the family's email only masked; the code only once, here.
    expect(JSON.stringify(res.json())).not.toContain('susan.');
    expect(new Date(forMargaret.expiresAt).getTime() - clock.now().getTime()).toBeGreaterThan(
      29 * DAY_MS,
    );
    expect((await t.db.select().from(mailQueue)).length).toBe(mailsBefore);
    const susan = await nextOfKinOf(home.margaret.userId);
    expect(susan.emergencyAccessCodeHash).not.toContain(forMargaret.code.replace(/-/g, ''));

    // The letter's code opens nothing but joining: emergency access waits until then.
    const glass = await (
      await TestDevice.create(t.app)
    ).post('/api/break-glass-reset', {
      nextOfKinEmail: susan.email,
      emergencyCode: forMargaret.code,
      newPassword: 'Daffodils&Jam-2027',
    });
    expect(glass.statusCode).toBe(400);
    expect(glass.json().message).toBe(MESSAGES.letterCodeUnused);

    const phone = await TestDevice.create(t.app);
    const joined = await signInWithCode(phone, {
      email: susan.email,
      emergencyAccessCode: forMargaret.code,
    });
    expect(joined.statusCode).toBe(200);
    expect((await nextOfKinOf(home.margaret.userId)).accessCodeExpiresAt).toBeNull();
    // A family that joined gets no new letter (their code stays theirs); the others do.
    const again = await printLetters(home);
    expect(
      again
        .json<TLetters>()
        .letters.map((letter) => letter.residentName)
        .sort(),
    ).toEqual(['Arthur Jones', 'Ivy Green']);
    const log = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.userId, home.margaret.userId));
    expect(log.map((row) => row.eventType)).toContain('care_home_letter_printed');
  });

  it('a code unused for a month no longer works, and says why; a new letter does', async () => {
    const home = await makeCareHome(t, 'Birchfield Lodge');
    const first = (await printLetters(home, [home.arthur.linkId])).json<TLetters>();
    expect(first.letters).toHaveLength(1);
    const tom = await nextOfKinOf(home.arthur.userId);
    // The month passes (set on the row: the manager's own session would end with the clock).
    await t.db
      .update(users)
      .set({ accessCodeExpiresAt: new Date(clock.now().getTime() - 60_000) })
      .where(eq(users.id, tom.id));
    const late = await signInWithCode(await TestDevice.create(t.app), {
      email: tom.email,
      emergencyAccessCode: first.letters[0]!.code,
    });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(MESSAGES.letterCodeExpired);
    const second = (await printLetters(home, [home.arthur.linkId])).json<TLetters>();
    const oldCode = await signInWithCode(await TestDevice.create(t.app), {
      email: tom.email,
      emergencyAccessCode: first.letters[0]!.code,
    });
    expect(oldCode.statusCode).toBe(401);
    expect(oldCode.json().message).toBe(MESSAGES.accessCodeInvalid);
    const fresh = await signInWithCode(await TestDevice.create(t.app), {
      email: tom.email,
      emergencyAccessCode: second.letters[0]!.code,
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('is for the home’s own residents, by its manager; bad input is refused plainly', async () => {
    const home = await makeCareHome(t, 'Oakview');
    const other = await makeCareHome(t, 'Elm Court');
    const theirs = await printLetters(home, [other.ivy.linkId]);
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().message).toBe(CARE_HOME_MESSAGES.noLetters);
    expect((await nextOfKinOf(other.ivy.userId)).emergencyAccessCodeHash).toBeNull();
    const bad = await home.manager.device.post('/api/care-home/letters', { residentIds: ['x'] });
    expect(bad.statusCode).toBe(400);
    const tooMany = await home.manager.device.post('/api/care-home/letters', {
      residentIds: Array.from({ length: 201 }, (_, index) => index + 1),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/at most 200/);
    // A resident's family member, signed in, is not the home's manager.
    const stranger = await TestDevice.create(t.app);
    expect((await stranger.post('/api/care-home/letters', {})).statusCode).toBe(401);
  });
});
