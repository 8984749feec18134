import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, devices, sessions, users } from '../../src/server/db/schema';
import type { TUser } from '../../src/shared/schemas/auth';
import {
  buildRegistration,
  buildTestApp,
  createPrimaryUser,
  GOOD_PASSWORD,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { proofFor, signInWithPassword } from './support/auth';

const t = useTestApp();

async function findUser(username: string) {
  const [row] = await t.db.select().from(users).where(eq(users.username, username));
  return row;
}

async function auditRowsOf(userId: number) {
  return t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId));
}

/** A registration sent from a device of its own, the fields as given over the defaults. */
async function registerOnNewDevice(overrides: Record<string, unknown>) {
  const device = await TestDevice.create(t.app);
  return device.post('/api/register', buildRegistration(device, overrides));
}

describe('POST /api/register', () => {
  it('creates a primary account bound to this device, normalised, with a hashed password and a session', async () => {
    const device = await TestDevice.create(t.app);
    const body = buildRegistration(device, {
      email: '  Ann.Lee@Example.TEST ',
      username: ' AnnLee ',
    });
    const res = await device.post('/api/register', body);

    expect(res.statusCode).toBe(201);
    const user = res.json<TUser>();
    expect(user).toMatchObject({
      username: 'annlee',
      email: 'ann.lee@example.test',
      firstName: 'Margaret',
      isPrimary: true,
      category: 'primary',
      deviceStatus: 'primary',
      deviceSync: { isPrimary: true, deviceId: device.deviceId, lastSyncAt: null },
    });
    expect(JSON.stringify(user)).not.toMatch(/passwordHash|argon2|secret/i);

    const stored = await findUser('annlee');
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored).toMatchObject({
      tosAccepted: true,
      firstLogin: false,
      hasSetPassword: true,
      subscriptionStatus: 'none',
      subscriptionTier: 'free',
      isVIP: false,
      onboardingCompletedAt: null,
    });

    const [bound] = await t.db.select().from(devices).where(eq(devices.id, device.deviceId));
    expect(bound).toMatchObject({ userId: stored!.id, isPrimary: true });

    const cookie = res.cookies.find((c) => c.name === 'memento_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const [session] = await t.db.select().from(sessions).where(eq(sessions.userId, stored!.id));
    expect(session?.idHash).not.toContain(cookie!.value.split('.')[0]);

    const me = await device.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json<TUser>().username).toBe('annlee');

    const audit = await auditRowsOf(stored!.id);
    expect(audit).toEqual([
      expect.objectContaining({
        eventType: 'register',
        successful: true,
        username: 'annlee',
        deviceId: device.deviceId,
      }),
    ]);
    expect(audit[0]?.details).toMatchObject({ userAgent: expect.stringContaining('Chrome') });
    expect(audit[0]?.ipAddress).toBe(device.ip);
  });

  it('makes only the first account on the installation the admin', async () => {
    const fresh = await buildTestApp();
    try {
      const first = await createPrimaryUser(fresh);
      const second = await createPrimaryUser(fresh);
      expect(first.user).toMatchObject({
        isAdmin: true,
        role: 'super_admin',
        twoFactorEnabled: true,
      });
      expect(second.user).toMatchObject({ isAdmin: false, role: 'user', twoFactorEnabled: false });
    } finally {
      await fresh.close();
    }
  });

  it('with ADMIN_EMAIL makes only that address the admin, even when it registers later', async () => {
    const fresh = await buildTestApp({ env: { ADMIN_EMAIL: 'Boss@Care.test' } });
    try {
      const first = await createPrimaryUser(fresh);
      const boss = await createPrimaryUser(fresh, { email: 'boss@care.test' });
      expect(first.user.isAdmin).toBe(false);
      expect(boss.user).toMatchObject({ isAdmin: true, role: 'super_admin' });
    } finally {
      await fresh.close();
    }
  });

  it.each([
    ['firstName', '', 'First name is required'],
    ['lastName', '   ', 'Last name is required'],
    ['email', '', 'Email is required'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['username', '', 'Username is required'],
    ['password', 'Short1!', 'Password must be at least 12 characters'],
    ['password', 'alllowercase1!', 'Password must contain at least one uppercase letter'],
    ['password', 'ALLUPPERCASE1!', 'Password must contain at least one lowercase letter'],
    ['password', 'NoNumbersHere!', 'Password must contain at least one number'],
    ['password', 'NoSpecials1234', 'Password must contain at least one special character'],
    ['password', 'Password123!', 'This password is too common. Please choose another.'],
    ['tosAccepted', false, 'Terms of Service must be accepted'],
  ])('refuses %s = %j with "%s" and creates nothing', async (field, value, message) => {
    const device = await TestDevice.create(t.app);
    const body = buildRegistration(device, { [field]: value });
    const res = await device.post('/api/register', body);

    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', fields: { [field]: message } });
    expect(await findUser(body.username as string)).toBeUndefined();
  });

  it('accepts any non-letter, non-digit character as the special character', async () => {
    for (const password of ['Garden Party 2026', 'Tea-and-Scones1', 'Pounds£Shillings9']) {
      const res = await registerOnNewDevice({ password });
      expect(res.statusCode, password).toBe(201);
    }
  });

  it('treats usernames as unique without regard to case', async () => {
    await createPrimaryUser(t, { username: 'grandpa.joe' });
    const res = await registerOnNewDevice({ username: 'Grandpa.Joe' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'USERNAME_TAKEN',
      message: 'That username is already taken. Please choose another.',
    });
  });

  it('refuses a second primary account with the same email', async () => {
    await createPrimaryUser(t, { email: 'same@example.test' });
    const res = await registerOnNewDevice({ email: 'SAME@example.test' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('EMAIL_TAKEN');
  });

  it('refuses a second primary account on the same device without naming the first', async () => {
    const first = await createPrimaryUser(t, { username: 'firstowner' });
    const res = await first.device.post('/api/register', buildRegistration(first.device));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DEVICE_HAS_PRIMARY_ACCOUNT' });
    expect(res.json().message).toContain('primary user');
    expect(res.body).not.toContain('firstowner');
  });

  it('refuses a body device id that is not the device in the header', async () => {
    const device = await TestDevice.create(t.app);
    const other = await TestDevice.create(t.app);
    const res = await device.post(
      '/api/register',
      buildRegistration(device, { deviceId: other.deviceId }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'Device initialization required. Please refresh the page and try again.',
    );
  });

  it('throttles registrations per IP with a clear message', async () => {
    const limited = await buildTestApp({
      limits: { registration: { max: 2, timeWindow: 3600_000 } },
    });
    try {
      await createPrimaryUser(limited, {}, { ip: '198.51.100.7' });
      await createPrimaryUser(limited, {}, { ip: '198.51.100.7' });
      const device = await TestDevice.create(limited.app, { ip: '198.51.100.7' });
      const res = await device.post('/api/register', buildRegistration(device));
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({
        code: 'RATE_LIMITED',
        message: 'Too many registrations from this network. Please try again in an hour.',
      });
      const elsewhere = await createPrimaryUser(limited, {}, { ip: '198.51.100.8' });
      expect(elsewhere.user.id).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /api/login', () => {
  it('signs the owner in on the primary device with a new session id, and audits it', async () => {
    const { device, user, password } = await createPrimaryUser(t);
    const registeredCookie = (
      await t.db.select().from(sessions).where(eq(sessions.userId, user.id))
    )[0]?.idHash;

    const res = await device.post('/api/login', {
      username: `  ${user.username.toUpperCase()} `,
      password,
      method: 'username_password',
      deviceId: device.deviceId,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<TUser>()).toMatchObject({
      id: user.id,
      deviceSync: { isPrimary: true, deviceId: device.deviceId },
    });

    const live = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(live).toHaveLength(1);
    expect(live[0]?.idHash).not.toBe(registeredCookie);
    expect((await auditRowsOf(user.id)).map((row) => row.eventType)).toContain('login');
  });

  it('answers a wrong password and an unknown user with the same message, and audits both', async () => {
    const { device, user } = await createPrimaryUser(t);
    const wrong = await signInWithPassword(device, user.username, 'Not-The-Password-1');
    const unknown = await signInWithPassword(device, 'nobody-at-all', 'Not-The-Password-1');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid username or password',
      });
    }
    const [failure] = (await auditRowsOf(user.id)).filter(
      (row) => row.eventType === 'login_failed',
    );
    expect(failure).toMatchObject({ successful: false, deviceId: device.deviceId });
    const [unknownRow] = await t.db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.username, 'nobody-at-all'));
    expect(unknownRow).toMatchObject({
      eventType: 'login_failed',
      userId: null,
      successful: false,
    });
  });

  it('requires both fields', async () => {
    const device = await TestDevice.create(t.app);
    const res = await signInWithPassword(device, '', '');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      fields: { username: 'Username is required', password: 'Password is required' },
    });
  });

  it('refuses the right password on another device with NOT_PRIMARY_DEVICE, audited, naming nobody', async () => {
    const { user, password } = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app);
    const res = await stranger.post('/api/login', {
      username: user.username,
      password,
      deviceId: stranger.deviceId,
    });

    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_PRIMARY_DEVICE');
    expect(res.json().message).toContain('primary device');
    expect(stranger.hasSessionCookie).toBe(false);
    const failures = (await auditRowsOf(user.id)).filter((row) => row.eventType === 'login_failed');
    expect(failures).toEqual([
      expect.objectContaining({
        deviceId: stranger.deviceId,
        details: expect.objectContaining({ reason: 'not the primary device' }),
      }),
    ]);
  });

  it('checks the password before the device, so a wrong password never reveals the binding', async () => {
    const { user } = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app);
    const res = await signInWithPassword(stranger, user.username, 'Wrong-Password-99');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_CREDENTIALS');
  });

  it("locks out a stranger's device after 10 failures but still lets the owner in on the primary device", async () => {
    const { device, user, password } = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app, { ip: '192.0.2.50' });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const res = await signInWithPassword(stranger, user.username, `Guess-${attempt}-Aa!`);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await stranger.post('/api/login', {
      username: user.username,
      password,
      deviceId: stranger.deviceId,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('RATE_LIMITED');
    expect(blocked.json().message).toMatch(
      /^Too many attempts from this device\. Please wait 1[45] minutes and try again\.$/,
    );

    const owner = await device.post('/api/login', {
      username: user.username,
      password,
      deviceId: device.deviceId,
    });
    expect(owner.statusCode).toBe(200);
  });

  it('never locks the owner out of their own device, however many strangers fail', async () => {
    const { device, user, password } = await createPrimaryUser(t);
    // 110 wrong passwords from 11 new devices on 11 addresses.
    for (let source = 0; source < 11; source += 1) {
      const stranger = await TestDevice.create(t.app, { ip: `198.51.100.${source + 1}` });
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const res = await signInWithPassword(
          stranger,
          user.username,
          `Guess-${source}-${attempt}-Aa!`,
        );
        expect([401, 429]).toContain(res.statusCode);
        if (res.statusCode === 429) {
          // Never a lock: a wait of seconds, said exactly, and the way past it.
          expect(res.json().code).toBe('ACCOUNT_DELAYED');
          expect(res.json().message).toMatch(
            /please wait \d+ seconds? and try again\. If you keep being asked to wait, you can reset your password by email on this device: that does not wait\.$/,
          );
        }
      }
    }
    const owner = await device.post('/api/login', {
      username: user.username,
      password,
      deviceId: device.deviceId,
    });
    expect(owner.statusCode).toBe(200);
    // Every refused attempt, the throttled ones too, is in the owner's log.
    const failures = (
      await t.db.select().from(auditLogs).where(eq(auditLogs.userId, user.id))
    ).filter((row) => row.eventType === 'login_failed');
    expect(failures).toHaveLength(110);
  });

  it('evaluates exactly 10 of 50 parallel wrong sign-ins from one device', async () => {
    const { user } = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, attempt) =>
        signInWithPassword(stranger, user.username, `Guess-${attempt}-Aa!`),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((res) => res.statusCode === 429)).toHaveLength(40);
  });

  it('throttles sign-in per IP', async () => {
    const limited = await buildTestApp({ limits: { login: { max: 3, timeWindow: 60_000 } } });
    try {
      const device = await TestDevice.create(limited.app, { ip: '198.51.100.20' });
      const attempt = () => signInWithPassword(device, 'someone', 'Whatever-123!');
      for (let i = 0; i < 3; i += 1) expect((await attempt()).statusCode).toBe(401);
      const res = await attempt();
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });

  it('counts a sign-in that sends the proof and then the password once per IP', async () => {
    const limited = await buildTestApp({ limits: { login: { max: 3, timeWindow: 60_000 } } });
    try {
      const owner = await createPrimaryUser(limited);
      const { username } = owner.user;
      // The browser's way: the password's proof first, the password when the account asks.
      // (The browser asks for the settings at each sign-in, counted on a route of their own.)
      const proof = await proofFor(owner.device, username, GOOD_PASSWORD);
      const signIn = async () => {
        const asked = await owner.device.post('/api/login', {
          username,
          passwordProof: proof,
          deviceId: owner.device.deviceId,
        });
        if (asked.statusCode !== 401) return asked;
        expect(asked.json().code).toBe('PASSWORD_NEEDED');
        return signInWithPassword(owner.device, username, GOOD_PASSWORD);
      };
      for (let i = 0; i < 3; i += 1) expect((await signIn()).statusCode).toBe(200);
      // Each kind still stops at the limit: a fourth proof, and a fourth password.
      const proofs = await signIn();
      expect(proofs.statusCode).toBe(429);
      expect(proofs.json().code).toBe('RATE_LIMITED');
      const passwords = await signInWithPassword(owner.device, username, GOOD_PASSWORD);
      expect(passwords.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('sessions', () => {
  it('GET /api/user answers 401 when signed out', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.get('/api/user');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'UNAUTHENTICATED', message: 'Please sign in to continue.' });
  });

  it('GET /api/session-check reports the session', async () => {
    const { device, user } = await createPrimaryUser(t);
    const signedIn = await device.get('/api/session-check');
    expect(signedIn.json()).toMatchObject({
      authenticated: true,
      userId: user.id,
      expiresAt: expect.any(String),
    });
    const expiresInDays = (Date.parse(signedIn.json().expiresAt) - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(29);

    const anonymous = await TestDevice.create(t.app);
    expect((await anonymous.get('/api/session-check')).json()).toEqual({
      authenticated: false,
      userId: null,
      expiresAt: null,
    });
  });

  it('gives admins 12-hour sessions', async () => {
    const fresh = await buildTestApp();
    try {
      const admin = await createPrimaryUser(fresh);
      const res = await admin.device.get('/api/session-check');
      const hours = (Date.parse(res.json().expiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(11.9);
      expect(hours).toBeLessThanOrEqual(12);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a session cookie replayed with another device id', async () => {
    const { device } = await createPrimaryUser(t);
    const other = await TestDevice.create(t.app);
    const replayed = device.withDeviceId(other.deviceId);
    expect((await replayed.get('/api/user')).statusCode).toBe(401);
    expect((await device.get('/api/user')).statusCode).toBe(200);
  });

  it('refuses a forged session cookie', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.get('/api/user', {
      cookie: 'memento_session=forged-token.invalidsignature',
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a real session’s token under any signature but its own, after the real cookie was used', async () => {
    const { device } = await createPrimaryUser(t);
    // The server has now checked this cookie's signature, and remembers that it held.
    expect((await device.get('/api/user')).statusCode).toBe(200);
    const signed = device.sessionCookie!;
    const token = signed.slice(0, signed.lastIndexOf('.'));
    for (const forged of [`${token}.${'A'.repeat(43)}`, token, `${signed}A`, `x${signed}`]) {
      const res = await device.get('/api/user', { cookie: `memento_session=${forged}` });
      expect(res.statusCode, forged).toBe(401);
    }
    // The real cookie still works; the forged ones cleared it from the jar.
    device.setSessionCookie(signed);
    expect((await device.get('/api/user')).statusCode).toBe(200);
  });

  it('POST /api/logout ends the session for good and audits it', async () => {
    const { device, user } = await createPrimaryUser(t);
    const before = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(before).toHaveLength(1);

    const res = await device.post('/api/logout');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await device.get('/api/user')).statusCode).toBe(401);
    expect((await auditRowsOf(user.id)).map((row) => row.eventType)).toContain('logout');
  });

  it('signs back in after sign-out on the same device', async () => {
    const { device, user } = await createPrimaryUser(t);
    await device.post('/api/logout');
    const res = await signInWithPassword(device, user.username, GOOD_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect((await device.get('/api/user')).json<TUser>().firstName).toBe('Margaret');
  });
});
