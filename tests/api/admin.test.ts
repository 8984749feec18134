import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditLogs,
  deviceResets,
  devices,
  emailVerifications,
  recoveryCodes,
  sessions,
  users,
  videos,
} from '../../src/server/db/schema';
import {
  buildRegistration,
  buildTestApp,
  createOnboardedUser,
  createPrimaryUser,
  createSessionFor,
  GOOD_PASSWORD,
  TestDevice,
  useTestApp,
  type SharedTestApp,
} from '../setup/app';
import { resetSecondFactorFromConsole } from '../../src/server/modules/admin/second-factor.service';
import { ADMIN_LIST_MESSAGES, ADMIN_PAGE_SIZE } from '../../src/shared/schemas/admin';
import { extractCode } from '../setup/smtp';
import { signInWithCode } from './support/recipients';
import { signInWithPassword } from './support/auth';

const t = useTestApp({ mail: true, admin: { email: 'admin@care.test', firstName: 'Ada' } });
/** The installation's first account, so its admin, enrolled and verified below. */
let admin: SharedTestApp['admin'];
let adminSecret: string;

const NEW_PASSWORD = 'Roses&Scones-2027';

/**
 * A code the server accepts (the current step or one either side) that this secret has not used
 * yet, so the single-use rule never bites by accident.
 */
const lastSteps = new Map<string, number>();
function nextTotpCode(secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  const nowStep = Math.floor(Date.now() / 30_000);
  const step = Math.max(nowStep - 1, (lastSteps.get(secret) ?? 0) + 1);
  if (step > nowStep + 1) throw new Error('no fresh TOTP step left; wait 30 s');
  lastSteps.set(secret, step);
  return totp.generate({ timestamp: step * 30_000 });
}

async function signIn(device: TestDevice, username: string, password = GOOD_PASSWORD) {
  const res = await signInWithPassword(device, username, password);
  expect(res.statusCode).toBe(200);
  return res;
}

async function auditRows(userId: number, eventType: string) {
  return t.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.userId, userId), eq(auditLogs.eventType, eventType as never)));
}

beforeAll(async () => {
  admin = t.admin;
  const enrolment = await admin.device.post('/api/admin/2fa/enrol');
  expect(enrolment.statusCode).toBe(200);
  adminSecret = enrolment.json<{ secret: string }>().secret;
  const confirmed = await admin.device.post('/api/admin/2fa/confirm', {
    code: nextTotpCode(adminSecret),
  });
  expect(confirmed.statusCode).toBe(200);
});

const ADMIN_CALLS: Array<[method: 'GET' | 'POST' | 'DELETE', url: string, body?: object]> = [
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/primary-users'],
  ['POST', '/api/admin/users/1/override', { tier: 'premium', isVIP: true, reason: 'x' }],
  ['POST', '/api/admin/users/1/return-to-billing'],
  ['POST', '/api/admin/users/1/reset-password', { newPassword: NEW_PASSWORD, reason: 'x' }],
  ['POST', '/api/admin/users/1/admin', { isAdmin: true }],
  ['DELETE', '/api/admin/users', { ids: [1] }],
  ['GET', '/api/admin/devices'],
  ['DELETE', `/api/admin/devices/${randomUUID()}`],
  ['GET', '/api/admin/email'],
  ['POST', '/api/verify-email', { email: 'someone@example.test' }],
  ['POST', '/api/test-email', { email: 'someone@example.test' }],
];

/**
 * Every page of an admin list, following `nextCursor` until it is null, with the size of each
 * page, so a test can see each row arrive exactly once.
 */
async function collectPages<TRow>(url: string, key: 'users' | 'devices') {
  const rows: TRow[] = [];
  const pageSizes: number[] = [];
  let cursor: string | null = null;
  do {
    const separator = url.includes('?') ? '&' : '?';
    const res = await admin.device.get(
      cursor === null ? url : `${url}${separator}after=${encodeURIComponent(cursor)}`,
    );
    expect(res.statusCode).toBe(200);
    const page = res.json() as Record<typeof key, TRow[]> & { nextCursor: string | null };
    rows.push(...page[key]);
    pageSizes.push(page[key].length);
    cursor = page.nextCursor;
    if (pageSizes.length > 1000) throw new Error(`${url} never reached its last page`);
  } while (cursor !== null);
  return { rows, pageSizes };
}

async function expectEveryAdminCallRefused(device: TestDevice, status: number, code: string) {
  for (const [method, url, body] of ADMIN_CALLS) {
    const res = await device.request({ method, url, ...(body ? { payload: body } : {}) });
    expect({ url, status: res.statusCode, code: res.json().code }).toEqual({ url, status, code });
  }
}

describe('who may call the admin API', () => {
  it('refuses the signed-out, recipients, ordinary users and admins without a checked second factor', async () => {
    const stranger = await TestDevice.create(t.app);
    await expectEveryAdminCallRefused(stranger, 401, 'UNAUTHENTICATED');

    const owner = await createOnboardedUser(t);
    await expectEveryAdminCallRefused(owner.device, 403, 'FORBIDDEN');
    expect((await owner.device.get('/api/admin/2fa')).statusCode).toBe(403);
    expect((await owner.device.get('/api/admin/users')).json().message).toBe(
      'Only administrators can access the admin dashboard.',
    );

    const phone = await TestDevice.create(t.app);
    const recipientLogin = await signInWithCode(phone, owner.nextOfKin);
    expect(recipientLogin.statusCode).toBe(200);
    await expectEveryAdminCallRefused(phone, 403, 'FORBIDDEN');

    // The admin in a new session (a fresh sign-in) has not checked the second factor yet.
    const newSession = admin.device.withoutCookies();
    await signIn(newSession, admin.user.username);
    await expectEveryAdminCallRefused(newSession, 403, 'SECOND_FACTOR_REQUIRED');
    expect((await newSession.get('/api/admin/2fa')).json()).toMatchObject({
      isEnrolled: true,
      isVerified: false,
    });
  });
});

describe('admin two-factor authentication', () => {
  it('enrolled with one code: ten recovery codes, audited, the secret stored encrypted', async () => {
    const [row] = await t.db.select().from(users).where(eq(users.id, admin.user.id));
    expect(row!.twoFactorEnrolledAt).not.toBeNull();
    expect(row!.twoFactorSecret).not.toContain(adminSecret);
    const codes = await t.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, admin.user.id));
    expect(codes).toHaveLength(10);
    expect(await auditRows(admin.user.id, 'admin_2fa_enabled')).toHaveLength(1);
    expect((await admin.device.get('/api/admin/2fa')).json()).toEqual({
      isEnrolled: true,
      isVerified: true,
      recoveryCodesLeft: 10,
    });
    expect((await admin.device.post('/api/admin/2fa/enrol')).statusCode).toBe(409);
  });

  it('each new session verifies once; a TOTP code and a recovery code each work only once', async () => {
    const first = admin.device.withoutCookies();
    await signIn(first, admin.user.username);
    const code = nextTotpCode(adminSecret);
    const ok = await first.post('/api/admin/2fa/verify', { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ isVerified: true });
    expect((await first.get('/api/admin/users')).statusCode).toBe(200);

    const second = admin.device.withoutCookies();
    await signIn(second, admin.user.username);
    const replay = await second.post('/api/admin/2fa/verify', { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({
      code: 'INVALID_CODE',
      message: 'That code is not right. Please check your authenticator app and try again.',
    });
    expect((await second.post('/api/admin/2fa/verify', { code: '000000' })).statusCode).toBe(400);

    // A recovery code from a fresh enrolment of a second admin works once.
    const helper = await createPrimaryUser(t);
    const granted = await admin.device.post(`/api/admin/users/${helper.user.id}/admin`, {
      isAdmin: true,
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ isAdmin: true, role: 'admin' });
    expect((await helper.device.get('/api/admin/users')).json().code).toBe(
      'SECOND_FACTOR_REQUIRED',
    );
    const secret = (await helper.device.post('/api/admin/2fa/enrol')).json().secret as string;
    const enrolled = await helper.device.post('/api/admin/2fa/confirm', {
      code: nextTotpCode(secret),
    });
    const [recovery] = enrolled.json().recoveryCodes as string[];
    expect(recovery).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

    const later = helper.device.withoutCookies();
    await signIn(later, helper.user.username);
    const byRecovery = await later.post('/api/admin/2fa/verify', {
      code: recovery!.toLowerCase(),
    });
    expect(byRecovery.json()).toMatchObject({ isVerified: true, recoveryCodesLeft: 9 });
    const again = helper.device.withoutCookies();
    await signIn(again, helper.user.username);
    expect((await again.post('/api/admin/2fa/verify', { code: recovery })).statusCode).toBe(400);

    const verified = await auditRows(helper.user.id, 'admin_2fa_verified');
    expect(verified.filter((row) => row.successful)).toHaveLength(1);
    expect(verified.filter((row) => !row.successful)).toHaveLength(1);
    expect(await auditRows(helper.user.id, 'admin_login')).toHaveLength(2);

    // Revoked again, so the rest of the file has one admin.
    const revoked = await admin.device.post(`/api/admin/users/${helper.user.id}/admin`, {
      isAdmin: false,
    });
    expect(revoked.json()).toMatchObject({ isAdmin: false, role: 'user' });
    expect(await auditRows(helper.user.id, 'admin_user_modified')).toHaveLength(2);
    expect((await again.get('/api/admin/2fa')).statusCode).toBe(403);
  });

  it('throttles wrong codes per account and device', async () => {
    const helper = await createPrimaryUser(t);
    await admin.device.post(`/api/admin/users/${helper.user.id}/admin`, { isAdmin: true });
    await helper.device.post('/api/admin/2fa/enrol');
    for (let i = 0; i < 10; i += 1) {
      expect(
        (await helper.device.post('/api/admin/2fa/confirm', { code: '123456' })).statusCode,
      ).toBe(400);
    }
    const blocked = await helper.device.post('/api/admin/2fa/confirm', { code: '123456' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(
      'Too many codes tried. Please wait 15 minutes and try again.',
    );
    await admin.device.post(`/api/admin/users/${helper.user.id}/admin`, { isAdmin: false });
  });

  it('the operator can reset a lost second factor from the server console', async () => {
    const helper = await createPrimaryUser(t);
    await admin.device.post(`/api/admin/users/${helper.user.id}/admin`, { isAdmin: true });
    const secret = (await helper.device.post('/api/admin/2fa/enrol')).json().secret as string;
    await helper.device.post('/api/admin/2fa/confirm', { code: nextTotpCode(secret) });

    expect(await resetSecondFactorFromConsole(t.db, 'no-such-admin')).toBeNull();
    expect(await resetSecondFactorFromConsole(t.db, helper.user.username)).not.toBeNull();
    expect((await helper.device.get('/api/user')).statusCode).toBe(401);
    await signIn(helper.device, helper.user.username);
    expect((await helper.device.get('/api/admin/2fa')).json()).toEqual({
      isEnrolled: false,
      isVerified: false,
      recoveryCodesLeft: 0,
    });
    const [audit] = await auditRows(helper.user.id, 'admin_user_modified').then((rows) =>
      rows.filter((row) => row.ipAddress === 'server console'),
    );
    expect(audit).toBeDefined();
    await admin.device.post(`/api/admin/users/${helper.user.id}/admin`, { isAdmin: false });
  });

  it('never lets the last admin go', async () => {
    const demote = await admin.device.post(`/api/admin/users/${admin.user.id}/admin`, {
      isAdmin: false,
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({
      code: 'LAST_ADMIN',
      message: 'There must always be at least one admin.',
    });
    const remove = await admin.device.delete('/api/admin/users', { ids: [admin.user.id] });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().code).toBe('LAST_ADMIN');
  });
});

describe('users', () => {
  it('lists every account with dependents, and the primary users for the recipient badge', async () => {
    const owner = await createOnboardedUser(t, { user: { firstName: 'Margaret' } });
    const list = await admin.device.get(`/api/admin/users?limit=${ADMIN_PAGE_SIZE.max}`);
    expect(list.statusCode).toBe(200);
    expect(list.json().nextCursor).toBeNull();
    const body = list.json().users as Array<Record<string, unknown>>;
    expect(body.find((u) => u.id === owner.user.id)).toMatchObject({
      username: owner.user.username,
      firstName: 'Margaret',
      isPrimary: true,
      isAdmin: false,
      subscriptionTier: 'free',
      dependentCount: 1,
    });
    expect(body.find((u) => u.id === owner.nextOfKin.id)).toMatchObject({
      category: 'next_of_kin',
      createdById: owner.user.id,
    });
    expect(JSON.stringify(body)).not.toMatch(/hash|secret|token/i);

    const primaries = (await admin.device.get('/api/admin/primary-users')).json() as Array<{
      id: number;
    }>;
    expect(primaries.map((p) => p.id)).toContain(owner.user.id);
    expect(primaries.map((p) => p.id)).not.toContain(owner.nextOfKin.id);
  });

  it('overrides tier and VIP with who, when and why from the session, audited', async () => {
    const owner = await createOnboardedUser(t);
    const url = `/api/admin/users/${owner.user.id}/override`;
    const missing = await admin.device.post(url, { tier: 'premium', isVIP: true, reason: '  ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please fill in all fields before saving');
    expect(
      (await admin.device.post(url, { tier: 'gold', isVIP: true, reason: 'x' })).json().message,
    ).toBe('Please fill in all fields before saving');

    const res = await admin.device.post(url, {
      tier: 'premium',
      isVIP: true,
      reason: 'Care home pilot',
      overriddenBy: owner.user.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      subscriptionTier: 'premium',
      isVIP: true,
      tierOverriddenBy: admin.user.id,
      vipOverriddenBy: admin.user.id,
      tierOverrideReason: 'Care home pilot',
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row!.tierOverriddenAt).toBeInstanceOf(Date);
    expect(row!.vipOverriddenAt).toBeInstanceOf(Date);
    const [tierRow] = await auditRows(owner.user.id, 'admin_tier_override');
    expect(tierRow!.details).toMatchObject({
      adminId: admin.user.id,
      from: 'free',
      to: 'premium',
      reason: 'Care home pilot',
    });
    expect(await auditRows(owner.user.id, 'admin_vip_override')).toHaveLength(1);

    // The user's own view follows: premium has no recipient limit.
    const recipients = await owner.device.get('/api/recipients');
    expect(recipients.json()).toMatchObject({ maxRecipients: null, showsHouseBanner: false });
    expect(
      (
        await admin.device.post('/api/admin/users/999999/override', {
          tier: 'free',
          isVIP: false,
          reason: 'x',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('resets a password: sessions end, the user is emailed and must choose a new one', async () => {
    const owner = await createOnboardedUser(t);
    const url = `/api/admin/users/${owner.user.id}/reset-password`;
    const missing = await admin.device.post(url, { newPassword: '', reason: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('New password and reason are required');
    const weak = await admin.device.post(url, { newPassword: 'short', reason: 'Forgot it' });
    expect(weak.json().message).toBe('Password must be at least 12 characters');

    const res = await admin.device.post(url, {
      newPassword: NEW_PASSWORD,
      reason: 'Forgot it, asked at the front desk',
      adminId: owner.user.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('User password has been reset successfully');
    expect((await owner.device.get('/api/user')).statusCode).toBe(401);
    const [row] = await t.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row).toMatchObject({ firstLogin: true, hasSetPassword: false });
    const [audit] = await auditRows(owner.user.id, 'password_reset');
    expect(audit!.details).toMatchObject({
      adminId: admin.user.id,
      reason: 'Forgot it, asked at the front desk',
    });
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(owner.user.email) && /administrator reset/.test(m.subject),
    );
    expect(mail.text).not.toContain(NEW_PASSWORD);

    const signedIn = await signIn(owner.device, owner.user.username, NEW_PASSWORD);
    expect(signedIn.json()).toMatchObject({ firstLogin: true });
    const chosen = await owner.device.post('/api/setup-password', {
      password: GOOD_PASSWORD + 'x',
    });
    expect(chosen.statusCode).toBe(200);
    expect((await owner.device.get('/api/user')).json()).toMatchObject({ firstLogin: false });

    const recipient = await admin.device.post(
      `/api/admin/users/${owner.nextOfKin.id}/reset-password`,
      { newPassword: NEW_PASSWORD, reason: 'x' },
    );
    expect(recipient.statusCode).toBe(400);
  });

  it('refuses to delete a user with recipients, naming them, then deletes everything on confirmation', async () => {
    const owner = await createOnboardedUser(t);
    const family = await owner.device.post('/api/recipients', {
      firstName: 'Tom',
      lastName: 'Lee',
      email: `tom.${randomUUID().slice(0, 6)}@example.test`,
      category: 'family',
    });
    expect(family.statusCode).toBe(201);
    const video = await owner.device.post('/api/videos', {
      id: randomUUID(),
      recipientId: owner.nextOfKin.id,
      storageType: 'local',
      syncStatus: 'local_only',
      metadata: { byteSize: 1000, durationMs: 1000, mimeType: 'video/webm' },
    });
    expect(video.statusCode).toBe(201);

    const refused = await admin.device.delete('/api/admin/users', { ids: [owner.user.id] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('HAS_DEPENDENTS');
    expect(refused.json().message).toContain('2 recipients (Susan Hill, Tom Lee)');
    expect(await t.db.select().from(users).where(eq(users.id, owner.user.id))).toHaveLength(1);

    const onlyKin = await admin.device.delete('/api/admin/users', { ids: [owner.nextOfKin.id] });
    expect(onlyKin.statusCode).toBe(409);
    expect(onlyKin.json().code).toBe('LAST_NEXT_OF_KIN');

    const res = await admin.device.delete('/api/admin/users', {
      ids: [owner.user.id],
      includeRecipients: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().deletedIds).toHaveLength(3);
    for (const id of res.json().deletedIds as number[]) {
      expect(await t.db.select().from(users).where(eq(users.id, id))).toHaveLength(0);
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
    }
    expect(await t.db.select().from(videos).where(eq(videos.creatorId, owner.user.id))).toEqual([]);
    const [device] = await t.db.select().from(devices).where(eq(devices.id, owner.device.deviceId));
    expect(device).toMatchObject({ userId: null, isPrimary: false });
    // The log keeps its rows, with the username.
    const [deleted] = await auditRows(owner.user.id, 'admin_user_deleted');
    expect(deleted).toMatchObject({ username: owner.user.username });
    expect((await auditRows(owner.user.id, 'register')).length).toBe(1);

    // The freed device can register a new account.
    const fresh = await owner.device.post(
      '/api/register',
      buildRegistration(owner.device, { firstName: 'New', lastName: 'Resident' }),
    );
    expect(fresh.statusCode).toBe(201);
  });

  it('deletes several users at once and refuses other admins and bad input', async () => {
    const a = await createPrimaryUser(t);
    const b = await createPrimaryUser(t);
    const res = await admin.device.delete('/api/admin/users', { ids: [a.user.id, b.user.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('2 users were deleted.');
    expect(await auditRows(a.user.id, 'admin_user_deleted')).toHaveLength(1);

    expect((await admin.device.delete('/api/admin/users', { ids: [] })).json().message).toBe(
      'Please choose at least one user',
    );
    expect((await admin.device.delete('/api/admin/users', { ids: 'all' })).statusCode).toBe(400);

    const other = await createPrimaryUser(t);
    await admin.device.post(`/api/admin/users/${other.user.id}/admin`, { isAdmin: true });
    const refused = await admin.device.delete('/api/admin/users', { ids: [other.user.id] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Remove admin rights from this user before deleting them.');
    await admin.device.post(`/api/admin/users/${other.user.id}/admin`, { isAdmin: false });
  });
});

describe('devices', () => {
  it('lists associations and removes one: the binding goes, sessions end, recorded and mailed', async () => {
    const owner = await createOnboardedUser(t);
    const list = (await collectPages<Record<string, unknown>>('/api/admin/devices', 'devices'))
      .rows;
    expect(list.find((d) => d.deviceId === owner.device.deviceId)).toMatchObject({
      userId: owner.user.id,
      username: owner.user.username,
      isPrimary: true,
      isPrimaryUser: true,
    });
    const phone = await TestDevice.create(t.app);
    await signInWithCode(phone, owner.nextOfKin);
    const withPhone = (await collectPages<Record<string, unknown>>('/api/admin/devices', 'devices'))
      .rows;
    expect(withPhone.find((d) => d.deviceId === phone.deviceId)).toMatchObject({
      userId: owner.nextOfKin.id,
      isPrimary: false,
    });

    const res = await admin.device.delete(
      `/api/admin/devices/${encodeURIComponent(owner.device.deviceId)}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Device association removed successfully');
    const [device] = await t.db.select().from(devices).where(eq(devices.id, owner.device.deviceId));
    expect(device).toMatchObject({ userId: null, isPrimary: false });
    expect((await owner.device.get('/api/user')).statusCode).toBe(401);
    const [reset] = await t.db
      .select()
      .from(deviceResets)
      .where(eq(deviceResets.deviceId, owner.device.deviceId));
    expect(reset).toMatchObject({ resetMethod: 'admin', resetBy: admin.user.username });
    const [audit] = await auditRows(owner.user.id, 'device_reset');
    expect(audit!.details).toMatchObject({ adminId: admin.user.id });
    await t.smtp.waitFor((m) => m.to.includes(owner.user.email) && /unlinked/.test(m.subject));

    const again = await admin.device.delete(`/api/admin/devices/${owner.device.deviceId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Device association not found');
    expect((await admin.device.delete('/api/admin/devices/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('paged admin lists', () => {
  type TListedUser = { id: number; username: string; dependentCount: number };
  type TListedDevice = {
    deviceId: string;
    userId: number;
    createdAt: string;
    isPrimary: boolean;
    isPrimaryUser: boolean;
  };

  it('pages through every account exactly once, by id, with the last page saying so', async () => {
    await createOnboardedUser(t);
    await createOnboardedUser(t);
    await createPrimaryUser(t);
    const everyone = await t.db.select({ id: users.id }).from(users).orderBy(asc(users.id));
    expect(everyone.length).toBeGreaterThan(5);

    const { rows, pageSizes } = await collectPages<TListedUser>(
      '/api/admin/users?limit=2',
      'users',
    );
    expect(rows.map((user) => user.id)).toEqual(everyone.map((user) => user.id));
    expect(pageSizes.slice(0, -1).every((size) => size === 2)).toBe(true);
    expect(pageSizes.at(-1)).toBeGreaterThan(0);

    // A limit that ends exactly on the last account still ends with a null cursor.
    const exact = await admin.device.get(`/api/admin/users?limit=${everyone.length}`);
    expect(exact.json().users).toHaveLength(everyone.length);
    expect(exact.json().nextCursor).toBeNull();
    const short = await admin.device.get(`/api/admin/users?limit=${everyone.length - 1}`);
    expect(short.json().nextCursor).toBe(String(everyone.at(-2)!.id));

    // The default page is 50 accounts.
    const first = (await admin.device.get('/api/admin/users')).json();
    expect(first.users).toHaveLength(Math.min(everyone.length, ADMIN_PAGE_SIZE.default));
  });

  it('finds any account by username, email, first or last name, whatever the case', async () => {
    const tag = randomUUID().slice(0, 8);
    const owner = await createOnboardedUser(t, {
      user: { firstName: `Rosalind${tag}`, lastName: `Quill${tag}` },
    });
    const other = await createPrimaryUser(t, { firstName: `Rosalind${tag}`, lastName: 'Brook' });
    const search = async (q: string, limit = 50) =>
      (
        await collectPages<TListedUser>(
          `/api/admin/users?limit=${limit}&q=${encodeURIComponent(q)}`,
          'users',
        )
      ).rows.map((user) => user.id);

    expect(await search(`ROSALIND${tag}`)).toEqual([owner.user.id, other.user.id]);
    expect(await search(`quill${tag}`)).toEqual([owner.user.id]);
    expect(await search(`  Rosalind${tag}   brook `)).toEqual([other.user.id]);
    expect(await search(other.user.email.toUpperCase())).toEqual([other.user.id]);
    // The next of kin's email holds the owner's username, so both are found, a page at a time.
    expect(await search(owner.user.username, 1)).toEqual([owner.user.id, owner.nextOfKin.id]);
    // % and _ are letters here, not wildcards.
    expect(await search(`%${tag}`)).toEqual([]);
    expect(await search(`rosalind_${tag.slice(1)}`)).toEqual([]);
    expect(await search(`no-one-${tag}`)).toEqual([]);
  });

  it('answers a bad page size, position or search with 400 and a plain message', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'limit=']) {
      const res = await admin.device.get(`/api/admin/users?${query}`);
      expect({ query, status: res.statusCode, body: res.json() }).toMatchObject({
        query,
        status: 400,
        body: { code: 'VALIDATION', message: ADMIN_LIST_MESSAGES.badLimit },
      });
      const devicesRes = await admin.device.get(`/api/admin/devices?${query}`);
      expect(devicesRes.statusCode).toBe(400);
      expect(devicesRes.json().message).toBe(ADMIN_LIST_MESSAGES.badLimit);
    }
    for (const after of ['abc', '-1', '0', '1.5', '99999999999', '2147483648', '']) {
      const res = await admin.device.get(`/api/admin/users?after=${after}`);
      expect({ after, status: res.statusCode, message: res.json().message }).toEqual({
        after,
        status: 400,
        message: ADMIN_LIST_MESSAGES.badCursor,
      });
    }
    const deviceId = randomUUID();
    for (const after of [
      'abc',
      '12',
      `2026-02-30T10:00:00.000000Z~${deviceId}~1`,
      `0000-01-01T00:00:00.000000Z~${deviceId}~1`,
      `2026-01-01T10:00:00.000Z~${deviceId}~1`,
      `2026-01-01T10:00:00.000000Z~not-a-uuid~1`,
      `2026-01-01T10:00:00.000000Z~${deviceId}~0`,
      `2026-01-01T10:00:00.000000Z~${deviceId}~2147483648`,
      `2026-01-01T10:00:00.000000Z~${deviceId}~1~1`,
    ]) {
      const res = await admin.device.get(`/api/admin/devices?after=${encodeURIComponent(after)}`);
      expect({ after, status: res.statusCode, message: res.json().message }).toEqual({
        after,
        status: 400,
        message: ADMIN_LIST_MESSAGES.badCursor,
      });
    }
    const long = await admin.device.get(`/api/admin/users?q=${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(ADMIN_LIST_MESSAGES.searchTooLong);
    // A well-formed position past the end is simply an empty last page.
    const beyond = await admin.device.get('/api/admin/users?after=2147483647');
    expect(beyond.json()).toEqual({ users: [], nextCursor: null });
  });

  it('still refuses someone who is not an admin, whatever the query says', async () => {
    const owner = await createOnboardedUser(t);
    for (const url of [
      '/api/admin/users?limit=2',
      '/api/admin/users?limit=abc&after=x',
      '/api/admin/devices?limit=2',
      '/api/admin/devices?after=nonsense',
    ]) {
      const res = await owner.device.get(url);
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  });

  it('pages through every device association once, newest device first, ties included', async () => {
    const owner = await createOnboardedUser(t);
    const other = await createOnboardedUser(t);
    const phone = await TestDevice.create(t.app);
    const login = await signInWithCode(phone, owner.nextOfKin);
    expect(login.statusCode).toBe(200);
    // Two people on the phone, one of them twice, and the owner twice on their own device:
    // each person is listed once per device, and a page may end between two people of one device.
    for (const [userId, device] of [
      [other.nextOfKin.id, phone],
      [owner.nextOfKin.id, phone],
      [owner.user.id, owner.device],
    ] as const) {
      await createSessionFor(t, {
        userId,
        device: device.withoutCookies(),
        method: 'email_access_code',
      });
    }
    // Three devices made in the same millisecond, two of them in the same microsecond: only
    // the full key (time to the microsecond, device, user) keeps them apart.
    const tied = [owner.device.deviceId, other.device.deviceId, phone.deviceId];
    await t.db
      .update(devices)
      .set({ createdAt: sql`'2031-05-04 03:02:01.123456+00'` })
      .where(inArray(devices.id, tied.slice(0, 2)));
    await t.db
      .update(devices)
      .set({ createdAt: sql`'2031-05-04 03:02:01.123789+00'` })
      .where(eq(devices.id, phone.deviceId));

    const everything = await admin.device.get(`/api/admin/devices?limit=${ADMIN_PAGE_SIZE.max}`);
    expect(everything.json().nextCursor).toBeNull();
    const all = everything.json().devices as TListedDevice[];
    expect(all.slice(0, 4).map((d) => [d.deviceId, d.userId])).toEqual([
      [phone.deviceId, Math.min(owner.nextOfKin.id, other.nextOfKin.id)],
      [phone.deviceId, Math.max(owner.nextOfKin.id, other.nextOfKin.id)],
      ...tied
        .slice(0, 2)
        .sort()
        .map((deviceId) => [
          deviceId,
          deviceId === owner.device.deviceId ? owner.user.id : other.user.id,
        ]),
    ]);
    expect(all[0]).toMatchObject({ isPrimary: false, isPrimaryUser: false });
    expect(all.find((d) => d.deviceId === owner.device.deviceId)).toMatchObject({
      isPrimary: true,
      isPrimaryUser: true,
    });
    const times = all.map((d) => Date.parse(d.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    for (const limit of [1, 2, 3]) {
      const { rows, pageSizes } = await collectPages<TListedDevice>(
        `/api/admin/devices?limit=${limit}`,
        'devices',
      );
      expect(rows).toEqual(all);
      expect(pageSizes.slice(0, -1).every((size) => size === limit)).toBe(true);
    }
  });
});

describe('email tools', () => {
  it('sends a real test mail and shows its code', async () => {
    const empty = await admin.device.post('/api/test-email', { email: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please enter an email address');
    expect((await admin.device.post('/api/test-email', { email: 'nope' })).json().message).toBe(
      'Please enter a valid email address',
    );

    const res = await admin.device.post('/api/test-email', { email: 'Office@Care.test' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true });
    const mail = await t.smtp.waitFor((m) => m.to.includes('office@care.test'));
    expect(extractCode(mail, 8)).toBe(body.code);
  });

  it('sends a verification link; opening it marks the address verified', async () => {
    const res = await admin.device.post('/api/verify-email', { email: 'desk@care.test' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    const mail = await t.smtp.waitFor((m) => m.to.includes('desk@care.test'));
    const token = /verify-email#token=([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();

    const pending = (await admin.device.get('/api/admin/email')).json();
    expect(pending).toMatchObject({ mode: 'smtp', destination: '127.0.0.1' });
    expect(pending.verifications[0]).toMatchObject({ email: 'desk@care.test', verifiedAt: null });

    const reader = await TestDevice.create(t.app);
    const confirmed = await reader.post('/api/verify-email/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ email: 'desk@care.test' });
    const [row] = await t.db
      .select()
      .from(emailVerifications)
      .where(eq(emailVerifications.email, 'desk@care.test'));
    expect(row!.verifiedAt).toBeInstanceOf(Date);
    expect(row!.tokenHash).not.toBe(token);
    const after = (await admin.device.get('/api/admin/email')).json();
    expect(after.verifications[0].verifiedAt).not.toBeNull();

    const wrong = await reader.post('/api/verify-email/confirm', { token: 'not-a-token' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/not right or has expired/);
  });

  it('says where mail goes in sandbox mode', async () => {
    const sandbox = await buildTestApp();
    try {
      const first = await createPrimaryUser(sandbox);
      const secret = (await first.device.post('/api/admin/2fa/enrol')).json().secret as string;
      await first.device.post('/api/admin/2fa/confirm', { code: nextTotpCode(secret) });
      const settings = (await first.device.get('/api/admin/email')).json();
      expect(settings.mode).toBe('sandbox');
      expect(settings.destination).toMatch(/outbox$/);
      const sent = await first.device.post('/api/test-email', { email: 'a@care.test' });
      expect(sent.json().message).toContain('outbox');
    } finally {
      await sandbox.close();
    }
  });
});
