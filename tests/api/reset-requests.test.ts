import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oneTimeCodes } from '../../src/server/db/schema';
import { createPrimaryUser, TestDevice, useTestApp } from '../setup/app';
import { extractCode } from '../setup/smtp';

// A stranger asking for reset codes must neither suppress the mail silently nor make the owner's
// code stop working; past the limit the answer says so with the real wait.

const BEYOND_LIMIT =
  /^We have already sent several reset codes to this address in the last 15 minutes\. Each of them works for 30 minutes: please look for the newest one in your email, including the spam folder\. You can ask for another in (14|15) minutes\.$/;

const t = useTestApp({ mail: true });

const request = async (email: string) =>
  (await TestDevice.create(t.app)).post('/api/temporary-password-reset', { email });

describe('password reset requests', () => {
  it('keeps every code mailed working, and says plainly when no more are sent', async () => {
    const { user } = await createPrimaryUser(t);
    expect((await request(user.email)).statusCode).toBe(200);
    const first = extractCode(await t.smtp.waitFor((m) => m.to.includes(user.email)), 8);
    expect((await request(user.email)).statusCode).toBe(200);
    expect((await request(user.email)).statusCode).toBe(200);
    await t.smtp.waitFor(
      () => t.smtp.messages.filter((m) => m.to.includes(user.email)).length === 3,
    );

    const fourth = await request(user.email);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toMatch(BEYOND_LIMIT);
    // The same words for an address with no account: the count is per address, not per account.
    for (let i = 0; i < 3; i += 1) await request('nobody@example.test');
    expect((await request('nobody@example.test')).json().message).toMatch(BEYOND_LIMIT);

    // The first code, mailed before the stranger's requests, still works.
    const done = await (
      await TestDevice.create(t.app)
    ).post('/api/complete-temporary-reset', {
      email: user.email,
      resetToken: first,
      newPassword: 'Bluebells-in-May-2027',
    });
    expect(done.statusCode).toBe(200);
    // …and once one is used, none of the others does.
    const live = await t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(live.every((row) => row.usedAt !== null)).toBe(true);
  });

  it('sends exactly the limit when 50 requests arrive at once', async () => {
    const { user } = await createPrimaryUser(t);
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(user.email)));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(47);
    const codes = await t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(codes).toHaveLength(3);
  });
});
