import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, devices, oneTimeCodes } from '../../src/server/db/schema';
import { createOnboardedUser, setTier, TestDevice, useTestApp } from '../setup/app';
import { extractCode } from '../setup/smtp';
import { signInWithPassword } from './support/auth';

// Paid accounts use more devices, up to the plan's limit, each confirmed once by an emailed code;
// an added device watches but does not record until made primary.

const t = useTestApp({ mail: true, admin: true });

/** Adds a new device to the owner's account through both steps, answering the signed-in device. */
async function addDevice(owner: { user: { username: string; email: string }; password: string }) {
  const device = await TestDevice.create(t.app);
  const credentials = {
    username: owner.user.username,
    password: owner.password,
    deviceId: device.deviceId,
  };
  const mark = t.smtp.messages.length;
  const requested = await device.post('/api/device/add/request', credentials);
  if (requested.statusCode !== 200) return { device, requested, completed: undefined };
  const mail = await t.smtp.waitFor(
    (m) =>
      m.to.includes(owner.user.email) &&
      t.smtp.messages.indexOf(m) >= mark &&
      m.subject.includes('add a device'),
  );
  const completed = await device.post('/api/device/add/complete', {
    ...credentials,
    code: extractCode(mail, 8),
  });
  return { device, requested, completed };
}

describe('more devices for paid plans', () => {
  it('adds devices with an emailed code up to the plan’s limit, then says how to free one', async () => {
    const owner = await createOnboardedUser(t);
    await setTier(t, owner.user.id, 'standard');

    const second = await addDevice(owner);
    expect(second.requested.json()).toMatchObject({
      message: expect.stringMatching(/^We sent a code to /),
    });
    expect(second.completed!.statusCode).toBe(200);
    expect(second.completed!.json()).toMatchObject({
      id: owner.user.id,
      deviceStatus: 'secondary',
    });
    const third = await addDevice(owner);
    expect(third.completed!.statusCode).toBe(200);

    const fourth = await addDevice(owner);
    expect(fourth.requested.statusCode).toBe(403);
    expect(fourth.requested.json()).toEqual({
      code: 'UPGRADE_REQUIRED',
      message:
        'Your plan allows 3 devices, and all of them are in use. An administrator can remove one you no longer use, or a larger plan allows more.',
    });
    const bound = await t.db.select().from(devices).where(eq(devices.userId, owner.user.id));
    expect(bound).toHaveLength(3);
    expect(bound.filter((row) => row.isPrimary)).toHaveLength(1);

    // Later sign-ins on an added device need only the password.
    const later = second.device.withoutCookies();
    const signIn = await signInWithPassword(later, owner.user.username, owner.password);
    expect(signIn.statusCode).toBe(200);

    const added = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'device_added')));
    expect(added.filter((row) => row.successful)).toHaveLength(2);
    await t.smtp.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('was added'));
  });

  it('keeps the Community Edition on one device', async () => {
    const owner = await createOnboardedUser(t);
    const attempt = await addDevice(owner);
    expect(attempt.requested.statusCode).toBe(403);
    expect(attempt.requested.json().message).toMatch(/^Using more than one device is part of the/);
  });

  it('refuses a wrong code, a code for another device, and audits the try', async () => {
    const owner = await createOnboardedUser(t);
    await setTier(t, owner.user.id, 'premium');
    const device = await TestDevice.create(t.app);
    const other = await TestDevice.create(t.app);
    const credentials = { username: owner.user.username, password: owner.password };
    const mark = t.smtp.messages.length;
    await device.post('/api/device/add/request', { ...credentials, deviceId: device.deviceId });
    const code = extractCode(
      await t.smtp.waitFor(
        (m) => m.to.includes(owner.user.email) && t.smtp.messages.indexOf(m) >= mark,
      ),
      8,
    );
    const elsewhere = await other.post('/api/device/add/complete', {
      ...credentials,
      deviceId: other.deviceId,
      code,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().code).toBe('INVALID_CODE');
    const wrong = await device.post('/api/device/add/complete', {
      ...credentials,
      deviceId: device.deviceId,
      code: 'ABCD-EFGH',
    });
    expect(wrong.statusCode).toBe(400);
    const bad = await device.post('/api/device/add/complete', {
      ...credentials,
      deviceId: device.deviceId,
      code: '12',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION');
    const failures = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'device_added')));
    expect(failures.filter((row) => !row.successful).length).toBeGreaterThanOrEqual(2);
    expect(
      (
        await device.post('/api/device/add/complete', {
          ...credentials,
          deviceId: device.deviceId,
          code,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('counts wrong codes: after 5 even the right one fails until a new one is asked for', async () => {
    const owner = await createOnboardedUser(t);
    await setTier(t, owner.user.id, 'premium');
    const device = await TestDevice.create(t.app);
    const credentials = {
      username: owner.user.username,
      password: owner.password,
      deviceId: device.deviceId,
    };
    const askForCode = async () => {
      const mark = t.smtp.messages.length;
      expect((await device.post('/api/device/add/request', credentials)).statusCode).toBe(200);
      const mail = await t.smtp.waitFor(
        (m) =>
          m.to.includes(owner.user.email) &&
          t.smtp.messages.indexOf(m) >= mark &&
          m.subject.includes('add a device'),
      );
      return extractCode(mail, 8);
    };
    const complete = (code: string) =>
      device.post('/api/device/add/complete', { ...credentials, code });
    const code = await askForCode();

    // Twenty wrong codes at once: only five are ever checked, and none gets in.
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        complete(`ABCD-${String(2222 + i).replace(/[01]/g, '3')}`),
      ),
    );
    for (const res of guesses) {
      expect([400, 429]).toContain(res.statusCode);
      if (res.statusCode === 400) {
        expect(res.json()).toEqual({
          code: 'INVALID_CODE',
          message: 'This code is not right or has expired. Please check it, or ask for a new one.',
        });
      }
    }
    const [stored] = await t.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, owner.user.id), eq(oneTimeCodes.purpose, 'device_add')));
    expect(stored!.attempts).toBe(5);

    const refused = await complete(code);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'This code is not right or has expired. Please check it, or ask for a new one.',
    );
    const failures = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'device_added')));
    expect(failures.filter((row) => !row.successful).map((row) => row.details)).toContainEqual(
      expect.objectContaining({ reason: 'wrong or expired code to add a device' }),
    );
    expect(failures.filter((row) => row.successful)).toHaveLength(0);

    // A new code works.
    const added = await complete(await askForCode());
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ id: owner.user.id, deviceStatus: 'secondary' });
  });

  it('lets an added device watch but not record, until Make Primary moves the role', async () => {
    const owner = await createOnboardedUser(t);
    await setTier(t, owner.user.id, 'premium');
    const { device: added } = await addDevice(owner);

    expect((await added.get('/api/videos')).statusCode).toBe(200);
    const [seen] = await t.db.select().from(devices).where(eq(devices.id, added.deviceId));
    expect(seen!.lastSyncAt).not.toBeNull();
    const record = await added.post('/api/videos', {
      id: '00000000-0000-4000-8000-000000000001',
      recipientId: owner.nextOfKin.id,
      metadata: { byteSize: 10, durationMs: 1000, mimeType: 'video/webm' },
    });
    expect(record.statusCode).toBe(403);
    expect((await added.get('/api/recipients')).statusCode).toBe(403);

    const made = await added.post('/api/device/set-primary', { deviceId: added.deviceId });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toEqual({
      message: 'Device set as primary. Your content will begin syncing.',
    });
    expect((await added.get('/api/recipients')).statusCode).toBe(200);
    // The old primary stays one of the account's devices, and can no longer record.
    expect((await owner.device.get('/api/recipients')).statusCode).toBe(403);
    const rows = await t.db.select().from(devices).where(eq(devices.userId, owner.user.id));
    expect(rows.find((row) => row.isPrimary)?.id).toBe(added.deviceId);
    expect(rows).toHaveLength(2);
    const audit = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'device_set_primary')),
      );
    expect(audit).toHaveLength(1);
  });

  it('refuses Make Primary to a free plan, another account’s device, and the anonymous', async () => {
    const owner = await createOnboardedUser(t);
    await setTier(t, owner.user.id, 'premium');
    const { device: added } = await addDevice(owner);
    await setTier(t, owner.user.id, 'free');
    const free = await added.post('/api/device/set-primary', { deviceId: added.deviceId });
    expect(free.statusCode).toBe(403);
    expect(free.json().code).toBe('UPGRADE_REQUIRED');

    await setTier(t, owner.user.id, 'premium');
    const stranger = await createOnboardedUser(t);
    const foreign = await stranger.device.post('/api/device/set-primary', {
      deviceId: added.deviceId,
    });
    expect(foreign.statusCode).toBe(403);
    const anonymous = await TestDevice.create(t.app);
    expect(
      (await anonymous.post('/api/device/set-primary', { deviceId: anonymous.deviceId }))
        .statusCode,
    ).toBe(401);
    expect((await added.post('/api/device/set-primary', { deviceId: 'nope' })).statusCode).toBe(
      400,
    );
    const already = await owner.device.post('/api/device/set-primary', {
      deviceId: owner.device.deviceId,
    });
    expect(already.json()).toEqual({
      code: 'CONFLICT',
      message: 'This device is already your primary device.',
    });
  });
});

describe('codes to move or add a device, asked for in parallel', () => {
  it('sends exactly 5 move codes when 30 requests arrive at once', async () => {
    const owner = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        device.post('/api/device/move/request', {
          username: owner.user.username,
          password: owner.password,
          deviceId: device.deviceId,
        }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(5);
    const refused = answers.filter((res) => res.statusCode === 429);
    expect(refused).toHaveLength(25);
    // Some are stopped by the sign-in guard first; the rest are told about the codes already sent.
    expect(refused.map((res) => res.json().message)).toContainEqual(
      expect.stringMatching(
        /^We have sent several codes just now\. Please use the newest, or ask again in 1[45] minutes\.$/,
      ),
    );
  });
});
