import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, users } from '../../src/server/db/schema';
import {
  createOnboardedUser,
  createPrimaryUser,
  NEXT_OF_KIN,
  TestClock,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { extractCode } from '../setup/smtp';
import { ACCESS_CODE_FORMAT, createDeviceSignedInByCode } from './support/recipients';
import { signInWithPassword } from './support/auth';

// Waits are moved past on the app's clock rather than slept through.
const clock = new TestClock();
const t = useTestApp({ mail: true, clock });

async function findRow(id: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('POST /api/recipients (the onboarding next-of-kin form)', () => {
  it('adds the next of kin for the signed-in user, stores only a hash of the code and emails it', async () => {
    const { device, user } = await createPrimaryUser(t, {
      firstName: 'Margaret',
      lastName: 'Hill',
    });
    const res = await device.post('/api/recipients', {
      ...NEXT_OF_KIN,
      email: ' Susan.Hill@Example.TEST ',
      createdById: 99999,
    });

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      category: 'next_of_kin',
      firstName: 'Susan',
      lastName: 'Hill',
      email: 'susan.hill@example.test',
    });
    expect(body.emergencyAccessCode).toMatch(ACCESS_CODE_FORMAT);

    const row = await findRow(body.id);
    expect(row).toMatchObject({
      createdById: user.id,
      category: 'next_of_kin',
      isPrimary: false,
      passwordHash: null,
      phoneNumber: '+44 7700 900123',
      relationship: 'Daughter',
    });
    expect(row.emergencyAccessCodeHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(row)).not.toContain(body.emergencyAccessCode);
    expect(JSON.stringify(row)).not.toContain(body.emergencyAccessCode.replaceAll('-', ''));

    const mail = await t.smtp.waitFor((m) => m.to.includes('susan.hill@example.test'));
    expect(mail.subject).toBe('Margaret Hill has chosen you as their next of kin on Memento');
    expect(extractCode(mail, 16)).toBe(body.emergencyAccessCode);
    expect(mail.text).toContain('Emergency access');
    expect(mail.text).toContain('Every use of the code is recorded');

    const audit = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, user.id));
    expect(audit.map((row) => row.eventType)).toContain('recipient_added');
  });

  it.each([
    ['phoneNumber', undefined, 'Phone number is required'],
    ['relationship', '', 'Relationship is required'],
    ['email', 'susan@', 'Please enter a valid email address'],
    ['email', '', 'Email is required'],
    ['firstName', '', 'First name is required'],
    ['category', 'cousin', 'Please select a category'],
  ])('refuses %s = %j with "%s"', async (field, value, message) => {
    const { device, user } = await createPrimaryUser(t);
    const res = await device.post('/api/recipients', {
      ...NEXT_OF_KIN,
      email: 'x@example.test',
      [field]: value,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
    expect(await t.db.select().from(users).where(eq(users.createdById, user.id))).toHaveLength(0);
  });

  it('never makes a second next of kin when onboarding is retried, and the first code stops working', async () => {
    const { device, user } = await createPrimaryUser(t);
    const first = await device.post('/api/recipients', {
      ...NEXT_OF_KIN,
      email: 'retry@example.test',
    });
    const second = await device.post('/api/recipients', {
      ...NEXT_OF_KIN,
      firstName: 'Sue',
      email: 'retry2@example.test',
    });

    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);
    const rows = await t.db.select().from(users).where(eq(users.createdById, user.id));
    expect(rows).toEqual([
      expect.objectContaining({ firstName: 'Sue', email: 'retry2@example.test' }),
    ]);

    await device.post('/api/user/complete-onboarding', {});
    const stale = await TestDevice.create(t.app);
    const attempt = await stale.post('/api/break-glass-reset', {
      nextOfKinEmail: 'retry2@example.test',
      emergencyCode: first.json().emergencyAccessCode,
      newPassword: 'Brand-New-Pass-42',
    });
    expect(attempt.statusCode).toBe(400);
  });

  it('is only for a primary user on their primary device', async () => {
    const anonymous = await TestDevice.create(t.app);
    expect(
      (await anonymous.post('/api/recipients', { ...NEXT_OF_KIN, email: 'a@example.test' }))
        .statusCode,
    ).toBe(401);
  });
});

describe('POST /api/user/complete-onboarding', () => {
  it('needs a next of kin first', async () => {
    const { device } = await createPrimaryUser(t);
    const res = await device.post('/api/user/complete-onboarding', {
      onboardingCompletedAt: new Date().toISOString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please add your next of kin before completing setup.');
  });

  it('records the time once and answers ok again on a retry', async () => {
    const { device, user } = await createPrimaryUser(t);
    await device.post('/api/recipients', { ...NEXT_OF_KIN, email: 'done@example.test' });
    const res = await device.post('/api/user/complete-onboarding', {
      onboardingCompletedAt: new Date().toISOString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      user: { onboardingCompletedAt: expect.any(String) },
    });
    const stored = (await findRow(user.id)).onboardingCompletedAt;
    expect(stored).toBeInstanceOf(Date);

    const again = await device.post('/api/user/complete-onboarding', {});
    expect(again.json().ok).toBe(true);
    expect((await findRow(user.id)).onboardingCompletedAt?.getTime()).toBe(stored!.getTime());
    expect((await device.get('/api/user')).json().onboardingCompletedAt).toBe(
      stored!.toISOString(),
    );
  });
});

describe('POST /api/break-glass-reset (with the emergency code)', () => {
  it('resets the password, ends every session, rotates and emails the code, tells the owner, audits both', async () => {
    const owner = await createOnboardedUser(t, { user: { firstName: 'Arthur' } });
    const nextOfKinDevice = await TestDevice.create(t.app);

    const res = await nextOfKinDevice.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email.toUpperCase(),
      emergencyCode: owner.nextOfKin.emergencyAccessCode.toLowerCase().replaceAll('-', ' '),
      newPassword: 'Snowdrops-in-March-7',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toContain('Arthur has been signed out everywhere');

    expect((await owner.device.get('/api/user')).statusCode).toBe(401);
    const signIn = await signInWithPassword(
      owner.device,
      owner.user.username,
      'Snowdrops-in-March-7',
    );
    expect(signIn.statusCode).toBe(200);

    const ownerMail = await t.smtp.waitFor((m) => m.to.includes(owner.user.email));
    expect(ownerMail.subject).toBe('Your Memento password was reset by your next of kin');
    const fresh = await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.nextOfKin.email) && m.subject.startsWith('Your new emergency code'),
    );
    const newCode = extractCode(fresh, 16);
    expect(newCode).not.toBe(owner.nextOfKin.emergencyAccessCode);

    const reuse = await nextOfKinDevice.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      emergencyCode: owner.nextOfKin.emergencyAccessCode,
      newPassword: 'Another-Password-8',
    });
    expect(reuse.statusCode).toBe(400);

    const ownerLog = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    const nextOfKinLog = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.userId, owner.nextOfKin.id));
    expect(
      ownerLog.filter((row) => row.eventType === 'break_glass').map((row) => row.successful),
    ).toEqual([true, false]);
    expect(
      nextOfKinLog.filter((row) => row.eventType === 'break_glass').map((row) => row.successful),
    ).toEqual([true, false]);

    const withNewCode = await nextOfKinDevice.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      emergencyCode: newCode,
      newPassword: 'Third-Password-99',
    });
    expect(withNewCode.statusCode).toBe(200);
  });

  it('answers a wrong code and an unknown email identically', async () => {
    const owner = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    const wrong = await device.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      emergencyCode: 'AAAA-BBBB-CCCC-DDDD',
      newPassword: 'Whatever-Pass-12',
    });
    const unknown = await device.post('/api/break-glass-reset', {
      nextOfKinEmail: 'nobody@example.test',
      emergencyCode: 'AAAA-BBBB-CCCC-DDDD',
      newPassword: 'Whatever-Pass-12',
    });
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({
      code: 'INVALID_CODE',
      message: 'The email address or emergency code is not right. Please check them and try again.',
    });
  });

  it('stops a guessing device after 5 wrong codes, audits every try, and never keeps the real next of kin out', async () => {
    const owner = await createOnboardedUser(t);
    const stranger = await TestDevice.create(t.app);
    const attempt = (device: TestDevice, code: string) =>
      device.post('/api/break-glass-reset', {
        nextOfKinEmail: owner.nextOfKin.email,
        emergencyCode: code,
        newPassword: 'Whatever-Pass-12',
      });
    for (let i = 0; i < 5; i += 1)
      expect((await attempt(stranger, 'AAAA-BBBB-CCCC-DDDD')).statusCode).toBe(400);
    const sixth = await attempt(stranger, 'AAAA-BBBB-CCCC-DDDD');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(
      /^Too many attempts from this device\. Please wait 1[45] minutes and try again\.$/,
    );

    // The real next of kin, on their own phone: at most a short wait, stated exactly, then in.
    const nextOfKinPhone = await TestDevice.create(t.app);
    let answer = await attempt(nextOfKinPhone, owner.nextOfKin.emergencyAccessCode);
    if (answer.statusCode === 429) {
      expect(answer.json().message).toMatch(/please wait \d+ seconds? and try again\.$/);
      clock.advance(1100);
      answer = await attempt(nextOfKinPhone, owner.nextOfKin.emergencyAccessCode);
    }
    expect(answer.statusCode).toBe(200);

    const rows = (
      await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id))
    ).filter((row) => row.eventType === 'break_glass');
    expect(rows.filter((row) => !row.successful).length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((row) => row.successful)).toHaveLength(1);
  });

  it('evaluates exactly 5 when 50 wrong codes arrive at once from one device', async () => {
    const owner = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        device.post('/api/break-glass-reset', {
          nextOfKinEmail: owner.nextOfKin.email,
          emergencyCode: 'AAAA-BBBB-CCCC-DDDD',
          newPassword: 'Whatever-Pass-12',
        }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 400)).toHaveLength(5);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(45);
  });

  it('checks the code format and the password policy', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/break-glass-reset', {
      nextOfKinEmail: 'a@example.test',
      emergencyCode: '1234',
      newPassword: 'short',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      emergencyCode: 'The emergency code has 16 letters and numbers, like ABCD-EFGH-JKLM-NP23',
      newPassword: 'Password must be at least 12 characters',
    });
  });
});

describe('POST /api/break-glass-reset (dashboard variant, no code)', () => {
  it('needs a signed-in session', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/break-glass-reset', {
      nextOfKinEmail: 'a@example.test',
      newPassword: 'Whatever-Pass-12',
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a primary user: a session alone is never a takeover key', async () => {
    const owner = await createOnboardedUser(t);
    const res = await owner.device.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      newPassword: 'Whatever-Pass-12',
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /api/break-glass-reset (dashboard variant, next-of-kin session)', () => {
  it('lets a next of kin who signed in with their code in the last 15 minutes reset their own primary user', async () => {
    const owner = await createOnboardedUser(t);
    const phone = await createDeviceSignedInByCode(t, owner.nextOfKin.id);

    const res = await phone.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      newPassword: 'Primroses-Again-2028',
    });
    expect(res.statusCode).toBe(200);
    expect((await owner.device.get('/api/user')).statusCode).toBe(401);
    await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.nextOfKin.email) && m.subject.startsWith('Your new emergency code'),
    );
    const login = await signInWithPassword(
      owner.device,
      owner.user.username,
      'Primroses-Again-2028',
    );
    expect(login.statusCode).toBe(200);
  });

  it('refuses a session that signed in more than 15 minutes ago, and audits the attempt', async () => {
    const owner = await createOnboardedUser(t);
    const phone = await createDeviceSignedInByCode(t, owner.nextOfKin.id, {
      createdAt: new Date(Date.now() - 16 * 60_000),
    });
    const res = await phone.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      newPassword: 'Primroses-Again-2028',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'For your safety, please sign in again with your access code, then try within 15 minutes.',
    );
    const events = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(events.filter((row) => row.eventType === 'break_glass')).toEqual([
      expect.objectContaining({ successful: false }),
    ]);
  });

  it("refuses another person's email", async () => {
    const owner = await createOnboardedUser(t);
    const phone = await createDeviceSignedInByCode(t, owner.nextOfKin.id);
    const res = await phone.post('/api/break-glass-reset', {
      nextOfKinEmail: 'someone-else@example.test',
      newPassword: 'Primroses-Again-2028',
    });
    expect(res.statusCode).toBe(403);
  });
});
