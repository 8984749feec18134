import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, oneTimeCodes, sessions, users } from '../../src/server/db/schema';
import { createPrimaryUser, GOOD_PASSWORD, TestDevice, useTestApp } from '../setup/app';
import { extractCode } from '../setup/smtp';
import { signInWithPassword } from './support/auth';

const t = useTestApp({ mail: true, env: { APP_URL: 'http://localhost:5000' } });

const NEW_PASSWORD = 'Bluebells-in-May-2027';

async function requestCode(email: string) {
  const device = await TestDevice.create(t.app);
  const res = await device.post('/api/temporary-password-reset', { email });
  return { device, res };
}

describe('POST /api/temporary-password-reset', () => {
  it('answers a known and an unknown email identically and mails only the known one', async () => {
    const { user } = await createPrimaryUser(t);
    const known = await requestCode(user.email.toUpperCase());
    const unknown = await requestCode('nobody-here@example.test');

    expect(known.res.statusCode).toBe(200);
    expect(unknown.res.statusCode).toBe(200);
    expect(known.res.json()).toEqual(unknown.res.json());
    expect(known.res.json().message).toContain('If an account uses that email address');

    const mail = await t.smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Your Memento password reset code');
    const code = extractCode(mail, 8);
    expect(mail.text).toContain(`http://localhost:5000/auth?view=reset_password#`);
    expect(mail.text).toContain(`code=${code}`);
    expect(t.smtp.messages.some((m) => m.to.includes('nobody-here@example.test'))).toBe(false);

    const [stored] = await t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(stored?.codeHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
    const minutes = (stored!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it('asks for a valid email', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/temporary-password-reset', { email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter a valid email address');
  });
});

describe('POST /api/complete-temporary-reset', () => {
  it('sets the new password once, ends sessions, emails the owner and audits it', async () => {
    const owner = await createPrimaryUser(t);
    await requestCode(owner.user.email);
    const code = extractCode(await t.smtp.waitFor((m) => m.to.includes(owner.user.email)), 8);

    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code.toLowerCase(),
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password Reset Successful' });

    expect(
      await t.db.select().from(sessions).where(eq(sessions.userId, owner.user.id)),
    ).toHaveLength(0);
    const login = await signInWithPassword(owner.device, owner.user.username, NEW_PASSWORD);
    expect(login.statusCode).toBe(200);
    await t.smtp.waitFor(
      (m) => m.to.includes(owner.user.email) && m.subject === 'Your Memento password was changed',
    );

    const again = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPassword: 'Yet-Another-Pass-1',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_CODE');

    const events = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(events.map((row) => [row.eventType, row.successful])).toEqual(
      expect.arrayContaining([
        ['password_reset_request', true],
        ['password_reset', true],
        ['password_reset', false],
      ]),
    );
  });

  it('stops a guessing device after 5 wrong codes but keeps the owner’s code working', async () => {
    const owner = await createPrimaryUser(t);
    await requestCode(owner.user.email);
    const code = extractCode(await t.smtp.waitFor((m) => m.to.includes(owner.user.email)), 8);
    const attempt = (device: TestDevice, resetToken: string) =>
      device.post('/api/complete-temporary-reset', {
        email: owner.user.email,
        resetToken,
        newPassword: NEW_PASSWORD,
      });

    const stranger = await TestDevice.create(t.app);
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt(stranger, 'AAAA-BBBB')).statusCode).toBe(400);
    }
    const sixth = await attempt(stranger, code);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(
      /^Too many attempts from this device\. Please wait 1[45] minutes and try again\.$/,
    );

    // The owner, on their own device, uses the code that was mailed to them.
    const done = await attempt(owner.device, code);
    expect(done.statusCode).toBe(200);
    const oldLogin = await signInWithPassword(owner.device, owner.user.username, GOOD_PASSWORD);
    expect(oldLogin.statusCode).toBe(401);
  });

  it('refuses an expired code', async () => {
    const owner = await createPrimaryUser(t);
    await requestCode(owner.user.email);
    const code = extractCode(await t.smtp.waitFor((m) => m.to.includes(owner.user.email)), 8);
    await t.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.userId, owner.user.id));
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'This reset code is not right or has expired. Please check it, or ask for a new one.',
    );
  });

  it('applies the password policy', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/complete-temporary-reset', {
      email: 'a@example.test',
      resetToken: 'AAAA-BBBB',
      newPassword: 'password',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.newPassword).toBe('Password must be at least 12 characters');
  });
});

describe('POST /api/reset-password (dashboard)', () => {
  it('needs the right current password', async () => {
    const owner = await createPrimaryUser(t);
    const res = await owner.device.post('/api/reset-password', {
      currentPassword: 'Wrong-Password-1',
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { currentPassword: 'Your current password is not right.' },
    });
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const owner = await createPrimaryUser(t);
    const otherTab = owner.device.withoutCookies();
    await otherTab.post('/api/login', {
      username: owner.user.username,
      password: GOOD_PASSWORD,
      deviceId: owner.device.deviceId,
    });
    expect(
      await t.db.select().from(sessions).where(eq(sessions.userId, owner.user.id)),
    ).toHaveLength(2);

    const res = await owner.device.post('/api/reset-password', {
      currentPassword: GOOD_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Password has been reset successfully.');
    expect((await owner.device.get('/api/user')).statusCode).toBe(200);
    expect((await otherTab.get('/api/user')).statusCode).toBe(401);
  });

  it('needs a signed-in user', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/reset-password', {
      currentPassword: 'x',
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/setup-password', () => {
  it('refuses a user who already chose a password', async () => {
    const owner = await createPrimaryUser(t);
    const res = await owner.device.post('/api/setup-password', { password: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Your password is already set.');
  });

  it('lets a firstLogin user choose a password once', async () => {
    const owner = await createPrimaryUser(t);
    await t.db
      .update(users)
      .set({ firstLogin: true, hasSetPassword: false })
      .where(eq(users.id, owner.user.id));
    expect((await owner.device.get('/api/user')).json().firstLogin).toBe(true);

    const res = await owner.device.post('/api/setup-password', { password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await owner.device.get('/api/user')).json()).toMatchObject({
      firstLogin: false,
      hasSetPassword: true,
    });
    await owner.device.post('/api/logout');
    const login = await signInWithPassword(owner.device, owner.user.username, NEW_PASSWORD);
    expect(login.statusCode).toBe(200);
  });
});

describe('moving an account to a new device', () => {
  it('right password → code by email → the binding moves, the old device is signed out, owner emailed, audited', async () => {
    const owner = await createPrimaryUser(t);
    const tablet = await TestDevice.create(t.app);
    const credentials = {
      username: owner.user.username,
      password: GOOD_PASSWORD,
      deviceId: tablet.deviceId,
    };

    expect((await tablet.post('/api/login', credentials)).json().code).toBe('NOT_PRIMARY_DEVICE');
    const request = await tablet.post('/api/device/move/request', credentials);
    expect(request.statusCode).toBe(200);
    expect(request.json().maskedEmail).toMatch(/^m•+@example\.test$/);

    const mail = await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.user.email) && m.subject === 'Your Memento code to use a new device',
    );
    const code = extractCode(mail, 8);

    const wrong = await tablet.post('/api/device/move/complete', {
      ...credentials,
      code: 'AAAA-BBBB',
    });
    expect(wrong.statusCode).toBe(400);
    const done = await tablet.post('/api/device/move/complete', { ...credentials, code });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      deviceStatus: 'primary',
      deviceSync: { deviceId: tablet.deviceId },
    });
    expect((await tablet.get('/api/user')).statusCode).toBe(200);

    expect((await owner.device.get('/api/user')).statusCode).toBe(401);
    const oldDevice = await signInWithPassword(owner.device, owner.user.username, GOOD_PASSWORD);
    expect(oldDevice.json().code).toBe('NOT_PRIMARY_DEVICE');
    await t.smtp.waitFor(
      (m) =>
        m.to.includes(owner.user.email) &&
        m.subject === 'Your Memento account moved to a new device',
    );

    const events = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(
      events.filter((row) => row.eventType === 'device_reset').map((row) => row.successful),
    ).toEqual([false, true]);
  });

  it('a wrong password never sends a code', async () => {
    const owner = await createPrimaryUser(t);
    const tablet = await TestDevice.create(t.app);
    const before = t.smtp.messages.length;
    const res = await tablet.post('/api/device/move/request', {
      username: owner.user.username,
      password: 'Wrong-Password-1',
      deviceId: tablet.deviceId,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_CREDENTIALS');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.smtp.messages.length).toBe(before);
  });
});
