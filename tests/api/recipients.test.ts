import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditLogs, sessions, users, videos } from '../../src/server/db/schema';
import {
  createOnboardedUser,
  createPrimaryUser,
  NEXT_OF_KIN,
  TestClock,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { extractCode } from '../setup/smtp';
import { ACCESS_CODE_FORMAT, signInWithCode } from './support/recipients';

// Waits are moved past on the app's clock rather than slept through.
const clock = new TestClock();
const t = useTestApp({ mail: true, admin: { email: 'admin@care.test' }, clock });

let counter = 0;
const person = (category: 'family' | 'friend' | 'next_of_kin' = 'family') => {
  counter += 1;
  return {
    firstName: 'Tom',
    lastName: `Lee${counter}`,
    email: `tom${counter}.${randomUUID().slice(0, 6)}@example.test`,
    category,
    ...(category === 'next_of_kin' ? { phoneNumber: '+44 7700 900456', relationship: 'Son' } : {}),
  };
};

async function indexVideoFor(device: TestDevice, recipientId: number) {
  const id = randomUUID();
  const res = await device.post('/api/videos', {
    id,
    recipientId,
    storageType: 'local',
    syncStatus: 'local_only',
    metadata: { byteSize: 120_000, durationMs: 3000, mimeType: 'video/webm;codecs=vp8,opus' },
  });
  expect(res.statusCode).toBe(201);
  return id;
}

async function setTier(userId: number, values: Partial<typeof users.$inferInsert>) {
  await t.db.update(users).set(values).where(eq(users.id, userId));
}

describe('GET /api/recipients', () => {
  it('lists only the owner’s recipients, with video counts and the plan’s limits', async () => {
    const alice = await createOnboardedUser(t);
    const bob = await createOnboardedUser(t);
    const family = (await alice.device.post('/api/recipients', person())).json<{ id: number }>();
    await indexVideoFor(alice.device, family.id);
    await indexVideoFor(alice.device, family.id);

    const res = await alice.device.get('/api/recipients');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      maxRecipients: 1,
      maxRecordingSeconds: 60,
      showsHouseBanner: true,
    });
    expect(body.recipients.map((r: { id: number }) => r.id)).toEqual([
      alice.nextOfKin.id,
      family.id,
    ]);
    expect(body.recipients[1]).toMatchObject({ category: 'family', videoCount: 2 });
    expect(body.recipients[0]).toMatchObject({ category: 'next_of_kin', videoCount: 0 });
    expect(JSON.stringify(body)).not.toMatch(/hash|emergencyAccessCode/i);

    const bobs = (await bob.device.get('/api/recipients')).json();
    expect(bobs.recipients.map((r: { id: number }) => r.id)).toEqual([bob.nextOfKin.id]);
  });

  it('keeps each count as videos are indexed again, removed, moved and deleted with a recipient', async () => {
    const alice = await createOnboardedUser(t);
    const kin = alice.nextOfKin.id;
    const family = (await alice.device.post('/api/recipients', person())).json<{ id: number }>();
    const ids = [
      await indexVideoFor(alice.device, family.id),
      await indexVideoFor(alice.device, family.id),
      await indexVideoFor(alice.device, family.id),
      await indexVideoFor(alice.device, kin),
    ];
    const counts = async () =>
      Object.fromEntries(
        (await alice.device.get('/api/recipients'))
          .json<{ recipients: { id: number; videoCount: number }[] }>()
          .recipients.map((r) => [r.id, r.videoCount]),
      );
    expect(await counts()).toEqual({ [kin]: 1, [family.id]: 3 });

    // The same index row sent again (a retry) is stored once and counted once.
    const again = await alice.device.post('/api/videos', {
      id: ids[0],
      recipientId: family.id,
      metadata: { byteSize: 120_000, durationMs: 3000, mimeType: 'video/webm;codecs=vp8,opus' },
    });
    expect(again.statusCode).toBe(200);
    expect(await counts()).toEqual({ [kin]: 1, [family.id]: 3 });

    expect((await alice.device.delete('/api/videos', { ids: [ids[1]] })).statusCode).toBe(200);
    expect(await counts()).toEqual({ [kin]: 1, [family.id]: 2 });

    // A row moved to another recipient (no route does this; the count follows the row anyway).
    await t.db.update(videos).set({ recipientId: kin }).where(eq(videos.id, ids[2]!));
    await t.db.update(videos).set({ title: 'Unchanged recipient' }).where(eq(videos.id, ids[3]!));
    expect(await counts()).toEqual({ [kin]: 2, [family.id]: 1 });

    expect((await alice.device.delete(`/api/recipients/${family.id}`)).statusCode).toBe(200);
    expect(await counts()).toEqual({ [kin]: 2 });
    const [row] = await t.db.select({ n: users.videoCount }).from(users).where(eq(users.id, kin));
    expect(row!.n).toBe(2);
  });

  it('refuses the signed-out and recipients', async () => {
    const anonymous = await TestDevice.create(t.app);
    expect((await anonymous.get('/api/recipients')).statusCode).toBe(401);
  });
});

describe('POST /api/recipients: the plan limits', () => {
  it('lets a free user add one recipient besides the next of kin, then asks to upgrade', async () => {
    const alice = await createOnboardedUser(t);
    expect((await alice.device.post('/api/recipients', person('friend'))).statusCode).toBe(201);
    const res = await alice.device.post('/api/recipients', person('family'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'UPGRADE_REQUIRED',
      message: 'Your plan includes your next of kin and 1 more recipient. Upgrade to add more.',
    });
    const rows = await t.db.select().from(users).where(eq(users.createdById, alice.user.id));
    expect(rows).toHaveLength(2);
  });

  it('allows 10 on Standard, and no limit for Premium, VIPs and admins', async () => {
    const standard = await createOnboardedUser(t);
    await setTier(standard.user.id, { subscriptionTier: 'standard' });
    for (let i = 0; i < 10; i += 1) {
      expect((await standard.device.post('/api/recipients', person())).statusCode).toBe(201);
    }
    expect((await standard.device.post('/api/recipients', person())).json().code).toBe(
      'UPGRADE_REQUIRED',
    );

    for (const values of [
      { subscriptionTier: 'premium' as const },
      { isVIP: true },
      { isAdmin: true },
    ]) {
      const user = await createOnboardedUser(t);
      await setTier(user.user.id, values);
      for (let i = 0; i < 3; i += 1) {
        expect((await user.device.post('/api/recipients', person())).statusCode).toBe(201);
      }
    }
  });

  it('emails a family member their access code and keeps only its hash', async () => {
    const alice = await createOnboardedUser(t, {
      user: { firstName: 'Margaret', lastName: 'Hill' },
    });
    const tom = person('family');
    const res = await alice.device.post('/api/recipients', {
      ...tom,
      email: ` ${tom.email.toUpperCase()} `,
    });
    expect(res.statusCode).toBe(201);
    const code = res.json().emergencyAccessCode;
    expect(code).toMatch(ACCESS_CODE_FORMAT);
    const mail = await t.smtp.waitFor((m) => m.to.includes(tom.email));
    expect(mail.subject).toBe('Margaret Hill is recording video messages for you on Memento');
    expect(extractCode(mail, 16)).toBe(code);
    const [row] = await t.db.select().from(users).where(eq(users.id, res.json().id));
    expect(row!.emergencyAccessCodeHash).toMatch(/^\$argon2id\$/);
  });

  it('answers bad input with the form’s messages', async () => {
    const alice = await createOnboardedUser(t);
    const res = await alice.device.post('/api/recipients', {
      firstName: '',
      lastName: 'X',
      email: 'nope',
      category: 'cousin',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      firstName: 'First name is required',
      email: 'Please enter a valid email address',
      category: 'Please select a category',
    });
  });
});

describe('POST /api/recipients/{id}/reshare-code', () => {
  it('issues a new code, emails it, audits it, and the old code stops working', async () => {
    const alice = await createOnboardedUser(t);
    const tom = person('friend');
    const added = (await alice.device.post('/api/recipients', tom)).json();

    const res = await alice.device.post(`/api/recipients/${added.id}/reshare-code`);
    expect(res.statusCode).toBe(200);
    const fresh = res.json();
    expect(fresh).toMatchObject({ id: added.id, firstName: 'Tom', category: 'friend' });
    expect(fresh.emergencyAccessCode).toMatch(ACCESS_CODE_FORMAT);
    expect(fresh.emergencyAccessCode).not.toBe(added.emergencyAccessCode);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(tom.email) && m.subject.startsWith('Your new access code'),
    );
    expect(extractCode(mail, 16)).toBe(fresh.emergencyAccessCode);

    // As the web form sends it: the email in `username`.
    const phone = await TestDevice.create(t.app);
    const signInAsTom = (code: string) =>
      phone.post('/api/login', {
        username: tom.email,
        password: code,
        method: 'email_access_code',
        deviceId: phone.deviceId,
      });
    expect((await signInAsTom(added.emergencyAccessCode)).statusCode).toBe(401);
    expect((await signInAsTom(fresh.emergencyAccessCode)).statusCode).toBe(200);

    const audit = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.userId, alice.user.id),
          eq(auditLogs.eventType, 'recipient_code_reissued'),
        ),
      );
    expect(audit).toHaveLength(1);
  });

  it('re-issues a next of kin’s code the same way', async () => {
    const alice = await createOnboardedUser(t);
    const res = await alice.device.post(`/api/recipients/${alice.nextOfKin.id}/reshare-code`);
    expect(res.statusCode).toBe(200);
    expect(res.json().emergencyAccessCode).not.toBe(alice.nextOfKin.emergencyAccessCode);
    await t.smtp.waitFor(
      (m) =>
        m.to.includes(alice.nextOfKin.email) && m.subject.startsWith('Your new emergency code'),
    );
  });
});

describe('DELETE /api/recipients/{id}', () => {
  it('removes the recipient with their video index rows, audited, naming how many', async () => {
    const alice = await createOnboardedUser(t);
    const tom = (await alice.device.post('/api/recipients', person())).json();
    const videoIds = [
      await indexVideoFor(alice.device, tom.id),
      await indexVideoFor(alice.device, tom.id),
    ];

    const res = await alice.device.delete(`/api/recipients/${tom.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().deletedVideoIds.sort()).toEqual(videoIds.sort());
    expect(await t.db.select().from(users).where(eq(users.id, tom.id))).toHaveLength(0);
    expect(await t.db.select().from(videos).where(eq(videos.recipientId, tom.id))).toHaveLength(0);
    const [audit] = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, alice.user.id), eq(auditLogs.eventType, 'recipient_deleted')),
      );
    expect(audit!.details).toMatchObject({ videoCount: 2 });
    expect(String(audit!.details.message)).toContain('2 videos');
  });

  it('refuses to delete the last next of kin, but allows it once there is another', async () => {
    const alice = await createOnboardedUser(t);
    await setTier(alice.user.id, { subscriptionTier: 'premium' });
    const res = await alice.device.delete(`/api/recipients/${alice.nextOfKin.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'LAST_NEXT_OF_KIN',
      message: 'Add another next of kin first',
    });

    const second = (await alice.device.post('/api/recipients', person('next_of_kin'))).json();
    expect((await alice.device.delete(`/api/recipients/${alice.nextOfKin.id}`)).statusCode).toBe(
      200,
    );
    expect((await alice.device.delete(`/api/recipients/${second.id}`)).statusCode).toBe(409);
  });

  it('ends a deleted recipient’s sessions', async () => {
    const alice = await createOnboardedUser(t);
    const tom = person();
    const added = (await alice.device.post('/api/recipients', tom)).json();
    const phone = await TestDevice.create(t.app);
    await signInWithCode(phone, { ...tom, emergencyAccessCode: added.emergencyAccessCode });
    expect((await phone.get('/api/user')).statusCode).toBe(200);
    await alice.device.delete(`/api/recipients/${added.id}`);
    expect((await phone.get('/api/user')).statusCode).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, added.id))).toHaveLength(0);
  });
});

describe('one user cannot reach another’s recipients', () => {
  it('answers 404 to delete, reshare and prompts for someone else’s recipient', async () => {
    const alice = await createOnboardedUser(t);
    const mallory = await createOnboardedUser(t);
    for (const res of [
      await mallory.device.delete(`/api/recipients/${alice.nextOfKin.id}`),
      await mallory.device.post(`/api/recipients/${alice.nextOfKin.id}/reshare-code`),
      await mallory.device.get(`/api/prompts?recipientId=${alice.nextOfKin.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Recipient not found');
    }
    const [row] = await t.db.select().from(users).where(eq(users.id, alice.nextOfKin.id));
    expect(row).toBeDefined();
  });

  it('refuses recipients’ own sessions on the owner’s endpoints', async () => {
    const alice = await createOnboardedUser(t);
    const phone = await TestDevice.create(t.app);
    await signInWithCode(phone, alice.nextOfKin);
    for (const res of [
      await phone.get('/api/recipients'),
      await phone.post('/api/recipients', person()),
      await phone.delete(`/api/recipients/${alice.nextOfKin.id}`),
    ]) {
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('GET /api/prompts', () => {
  it('serves at least ten prompts for the recipient’s category', async () => {
    const alice = await createOnboardedUser(t);
    const friend = (await alice.device.post('/api/recipients', person('friend'))).json();
    for (const [id, category] of [
      [alice.nextOfKin.id, 'next_of_kin'],
      [friend.id, 'friend'],
    ] as const) {
      const res = await alice.device.get(`/api/prompts?recipientId=${id}`);
      expect(res.statusCode).toBe(200);
      const prompts = res.json();
      expect(prompts.length).toBeGreaterThanOrEqual(10);
      for (const prompt of prompts) {
        expect(prompt).toMatchObject({
          category,
          id: expect.any(String),
          title: expect.any(String),
          description: expect.any(String),
        });
      }
    }
    expect((await alice.device.get('/api/prompts?recipientId=abc')).statusCode).toBe(400);
  });
});

describe('recipient sign-in (email_access_code)', () => {
  it('signs a recipient in with the code, case and hyphens aside, and shows their home', async () => {
    const alice = await createOnboardedUser(t, {
      user: { firstName: 'Margaret', lastName: 'Hill' },
    });
    const phone = await TestDevice.create(t.app);
    const res = await signInWithCode(phone, {
      email: alice.nextOfKin.email.toUpperCase(),
      emergencyAccessCode: alice.nextOfKin.emergencyAccessCode.toLowerCase().replace(/-/g, ' '),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: alice.nextOfKin.id,
      category: 'next_of_kin',
      isPrimary: false,
      deviceStatus: 'secondary',
    });
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, alice.nextOfKin.id));
    expect(session!.method).toBe('email_access_code');

    const home = await phone.get('/api/recipient-home');
    expect(home.statusCode).toBe(200);
    expect(home.json()).toEqual({
      owner: { firstName: 'Margaret', lastName: 'Hill' },
      category: 'next_of_kin',
      ownerHasCloudSync: false,
      sharedVideos: [],
      // Nothing of the legacy release yet: the owner has not asked for it.
      legacy: {
        status: 'none',
        requestedAt: null,
        releasesAt: null,
        releasedAt: null,
        waitingDays: 7,
        history: [],
      },
      waitingMessages: [],
    });
    // The owner's log shows that their next of kin signed in.
    const ownerLog = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, alice.user.id), eq(auditLogs.eventType, 'login')));
    expect(ownerLog.some((row) => row.details.method === 'email_access_code')).toBe(true);
    expect((await alice.device.get('/api/recipient-home')).statusCode).toBe(403);
  });

  it('refuses a wrong code with one message and audits it in the owner’s log', async () => {
    const alice = await createOnboardedUser(t);
    const phone = await TestDevice.create(t.app);
    const attempt = (username: string, password: string) =>
      phone.post('/api/login', {
        username,
        password,
        method: 'email_access_code',
        deviceId: phone.deviceId,
      });
    const wrong = await attempt(alice.nextOfKin.email, 'AAAA-BBBB-CCCC-DDDD');
    const unknown = await attempt('nobody@example.test', alice.nextOfKin.emergencyAccessCode);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(
        'The email address or access code is not right. Please check them and try again.',
      );
    }
    const failures = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, alice.user.id), eq(auditLogs.eventType, 'login_failed')));
    expect(failures).toHaveLength(1);
    expect(failures[0]!.successful).toBe(false);
    expect(failures[0]!.details).toMatchObject({
      reason: 'wrong access code',
      method: 'email_access_code',
    });
    expect(phone.hasSessionCookie).toBe(false);
  });

  it('answers missing fields clearly', async () => {
    const phone = await TestDevice.create(t.app);
    const res = await phone.post('/api/login', {
      password: '',
      method: 'email_access_code',
      deviceId: phone.deviceId,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      email: 'Email is required',
      password: 'Access code is required',
    });
  });

  it('never slows the rightful recipient for a stranger’s guesses from many devices', async () => {
    const alice = await createOnboardedUser(t);
    const guess = async (device: TestDevice, i: number) =>
      signInWithCode(device, {
        ...alice.nextOfKin,
        emergencyAccessCode: `AAAA-BBBB-CCCC-${String(2222 + i).replace(/[01]/g, '2')}`,
      });
    for (let i = 0; i < 11; i += 1) {
      expect((await guess(await TestDevice.create(t.app), i)).statusCode).toBe(401);
    }
    // An 80-bit code has no account-wide delay: the next try from anywhere new is checked at once.
    const phone = await TestDevice.create(t.app);
    const signIn = await signInWithCode(phone, alice.nextOfKin);
    expect(signIn.statusCode).toBe(200);
    // Every refused try is in the owner's log.
    const rows = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, alice.user.id));
    expect(rows.filter((row) => row.eventType === 'login_failed')).toHaveLength(11);
  });

  it('stops one device after 10 wrong codes, with the real wait, while others carry on', async () => {
    const alice = await createOnboardedUser(t);
    const guesser = await TestDevice.create(t.app);
    const guess = () =>
      signInWithCode(guesser, { ...alice.nextOfKin, emergencyAccessCode: 'AAAA-BBBB-CCCC-DDDD' });
    for (let i = 0; i < 10; i += 1) expect((await guess()).statusCode).toBe(401);
    const stopped = await guess();
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json().message).toMatch(
      /^Too many attempts from this device\. Please wait 1[45] minutes and try again\.$/,
    );
    clock.advance(1100);
    const phone = await TestDevice.create(t.app);
    const rightful = await signInWithCode(phone, alice.nextOfKin);
    expect(rightful.statusCode).toBe(200);
  });

  it('evaluates exactly the limit when 50 wrong codes arrive at once', async () => {
    const alice = await createOnboardedUser(t);
    const guesser = await TestDevice.create(t.app);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        signInWithCode(guesser, { ...alice.nextOfKin, emergencyAccessCode: 'AAAA-BBBB-CCCC-DDDD' }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(40);
  });

  it('lets the same email be a recipient of two primary users, each code opening its own', async () => {
    const shared = `shared.${randomUUID().slice(0, 6)}@example.test`;
    const alice = await createOnboardedUser(t, { nextOfKinEmail: shared });
    const bob = await createOnboardedUser(t, { nextOfKinEmail: shared });
    const phone = await TestDevice.create(t.app);
    const res = await signInWithCode(phone, {
      email: shared,
      emergencyAccessCode: bob.nextOfKin.emergencyAccessCode,
    });
    expect(res.json().id).toBe(bob.nextOfKin.id);
    expect(res.json().id).not.toBe(alice.nextOfKin.id);
  });
});

describe('onboarding still adds the mandatory next of kin on a free plan', () => {
  it('does not count the next of kin towards the limit', async () => {
    const { device } = await createPrimaryUser(t);
    expect(
      (
        await device.post('/api/recipients', {
          ...NEXT_OF_KIN,
          email: `kin.${randomUUID().slice(0, 6)}@example.test`,
        })
      ).statusCode,
    ).toBe(201);
    await device.post('/api/user/complete-onboarding', {});
    expect((await device.post('/api/recipients', person())).statusCode).toBe(201);
  });
});
