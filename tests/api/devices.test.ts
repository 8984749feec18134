import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, deviceResets, devices, sessions } from '../../src/server/db/schema';
import { sha256 } from '../../src/server/lib/crypto';
import type { TDeviceStatus } from '../../src/shared/schemas/devices';
import {
  buildRegistration,
  buildTestApp,
  createPrimaryUser,
  TestDevice,
  useTestApp,
} from '../setup/app';
import { signInWithPassword } from './support/auth';

const t = useTestApp();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function findDevice(id: string) {
  const [row] = await t.db.select().from(devices).where(eq(devices.id, id));
  return row;
}

describe('POST /api/device/register', () => {
  it('issues a server UUID and stores a hashed fingerprint, a readable name and lastSeen', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/device/register',
      payload: { fingerprint: 'Mozilla/5.0|390x844|24|en-GB|0|iPhone' },
      headers: {
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      },
    });
    expect(res.statusCode).toBe(201);
    const { deviceId } = res.json<{ deviceId: string }>();
    expect(deviceId).toMatch(UUID);

    const row = await findDevice(deviceId);
    expect(row).toMatchObject({
      fingerprintHash: sha256('Mozilla/5.0|390x844|24|en-GB|0|iPhone'),
      platform: 'web',
      deviceName: 'Safari on iPhone',
      userId: null,
      isPrimary: false,
    });
    expect(row?.lastSeen).toBeInstanceOf(Date);
  });

  it('needs a fingerprint', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/device/register', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', message: 'Fingerprint is required' });
  });

  it('is throttled per IP, generously', async () => {
    const limited = await buildTestApp({
      limits: { deviceRegistration: { max: 3, timeWindow: 60_000 } },
    });
    try {
      for (let i = 0; i < 3; i += 1) await TestDevice.create(limited.app, { ip: '192.0.2.99' });
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/device/register',
        payload: { fingerprint: 'x' },
        remoteAddress: '192.0.2.99',
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({
        code: 'RATE_LIMITED',
        message: 'Too many new devices from this network. Please try again later.',
      });
    } finally {
      await limited.close();
    }
  });
});

describe('the X-Device-ID header', () => {
  it('is required on every other /api call', async () => {
    for (const [method, url] of [
      ['GET', '/api/user'],
      ['GET', '/api/device/status'],
      ['GET', '/api/session-check'],
      ['POST', '/api/login'],
      ['POST', '/api/logout'],
      ['POST', '/api/reset-device'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({
        code: 'DEVICE_REQUIRED',
        message: 'Device ID is required',
      });
    }
  });

  it('must be a UUID', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { 'x-device-id': 'not-a-uuid' },
    });
    expect(res.json().code).toBe('DEVICE_REQUIRED');
  });

  it('must name a known device', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { 'x-device-id': '0b6f4f3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'DEVICE_NOT_FOUND', message: 'Device ID not found' });
  });
});

describe('GET /api/device/status', () => {
  it('tells the signed-in owner this is their primary device', async () => {
    const { device } = await createPrimaryUser(t);
    const res = await device.get('/api/device/status');
    expect(res.json<TDeviceStatus>()).toEqual({
      deviceId: device.deviceId,
      isPrimary: true,
      hasPrimaryDevice: true,
      primaryDeviceId: device.deviceId,
      lastSyncAt: null,
    });
  });

  it('tells a signed-out browser only whether the device holds an account, never whose', async () => {
    const { device } = await createPrimaryUser(t, { username: 'secretowner' });
    await device.post('/api/logout');
    const res = await device.get('/api/device/status');
    expect(res.json<TDeviceStatus>()).toMatchObject({
      isPrimary: true,
      hasPrimaryDevice: true,
      primaryDeviceId: null,
    });
    expect(res.body).not.toContain('secretowner');

    const blank = await TestDevice.create(t.app);
    expect((await blank.get('/api/device/status')).json<TDeviceStatus>()).toMatchObject({
      isPrimary: false,
      hasPrimaryDevice: false,
    });
  });
});

describe('POST /api/reset-device', () => {
  it('answers Device Already Clear for a device without an account', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/reset-device', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Device Already Clear', reset: false, username: null });
  });

  it("frees the device with the bound account's password, ends its sessions, records and audits it", async () => {
    const owner = await createPrimaryUser(t, { username: 'tabletowner' });
    await owner.device.post('/api/logout');
    await signInWithPassword(owner.device, 'tabletowner', owner.password);
    const visitor = owner.device.withoutCookies();

    const res = await visitor.post('/api/reset-device', { password: owner.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Device Reset Successful',
      reset: true,
      username: 'tabletowner',
    });

    expect(await findDevice(owner.device.deviceId)).toMatchObject({
      userId: null,
      isPrimary: false,
    });
    expect(
      await t.db.select().from(sessions).where(eq(sessions.userId, owner.user.id)),
    ).toHaveLength(0);
    expect((await owner.device.get('/api/user')).statusCode).toBe(401);

    const [record] = await t.db
      .select()
      .from(deviceResets)
      .where(eq(deviceResets.deviceId, owner.device.deviceId));
    expect(record).toMatchObject({
      resetMethod: 'password',
      previousAssociations: [{ userId: owner.user.id, username: 'tabletowner', isPrimary: true }],
    });
    const audit = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(audit.filter((row) => row.eventType === 'device_reset')).toEqual([
      expect.objectContaining({ successful: true, deviceId: owner.device.deviceId }),
    ]);

    const second = await visitor.post('/api/register', buildRegistration(visitor));
    expect(second.statusCode).toBe(201);
  });

  it('lets the signed-in owner reset without a password (the session on this device is the proof)', async () => {
    const owner = await createPrimaryUser(t);
    const res = await owner.device.post('/api/reset-device', {});
    expect(res.json()).toMatchObject({ reset: true, username: owner.user.username });
    expect(owner.device.hasSessionCookie).toBe(false);
  });

  it('refuses anyone else with RESET_NEEDS_OWNER, never naming the account, and audits the attempt', async () => {
    const owner = await createPrimaryUser(t, { username: 'privateperson' });
    const visitor = owner.device.withoutCookies();

    for (const body of [{}, { password: 'Wrong-Password-1' }]) {
      const res = await visitor.post('/api/reset-device', body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('RESET_NEEDS_OWNER');
      expect(res.body).not.toContain('privateperson');
    }
    expect(await findDevice(owner.device.deviceId)).toMatchObject({
      userId: owner.user.id,
      isPrimary: true,
    });
    const failures = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(
      failures.filter((row) => row.eventType === 'device_reset' && !row.successful),
    ).toHaveLength(2);
  });

  it('another signed-in account cannot reset a device it is not bound to', async () => {
    const owner = await createPrimaryUser(t);
    const other = await createPrimaryUser(t);
    const res = await other.device
      .withDeviceId(owner.device.deviceId)
      .post('/api/reset-device', {});
    expect(res.statusCode).toBe(403);
  });

  it('stops guessing the password after 10 wrong tries', async () => {
    const owner = await createPrimaryUser(t);
    const visitor = owner.device.withoutCookies();
    for (let i = 0; i < 10; i += 1) {
      expect(
        (await visitor.post('/api/reset-device', { password: `Guess-${i}-Aa!` })).statusCode,
      ).toBe(403);
    }
    const res = await visitor.post('/api/reset-device', { password: owner.password });
    expect(res.statusCode).toBe(429);
    expect(await findDevice(owner.device.deviceId)).toMatchObject({ userId: owner.user.id });
  });

  it('emergency mode gives the browser a new identity, leaves the old binding alone, and audits it', async () => {
    const owner = await createPrimaryUser(t);
    const visitor = owner.device.withoutCookies();

    const res = await visitor.post('/api/reset-device', { mode: 'emergency' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ deviceId: string }>();
    expect(body).toMatchObject({ message: 'Device Reset Successful', reset: true, username: null });
    expect(body.deviceId).toMatch(UUID);
    expect(body.deviceId).not.toBe(owner.device.deviceId);

    expect(await findDevice(owner.device.deviceId)).toMatchObject({
      userId: owner.user.id,
      isPrimary: true,
    });
    expect(await findDevice(body.deviceId)).toMatchObject({ userId: null, isPrimary: false });
    const [record] = await t.db
      .select()
      .from(deviceResets)
      .where(eq(deviceResets.deviceId, owner.device.deviceId));
    expect(record).toMatchObject({ resetMethod: 'emergency', resetBy: 'system' });
    const audit = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(audit.find((row) => row.eventType === 'device_reset')).toMatchObject({
      successful: true,
    });

    const fresh = visitor.withDeviceId(body.deviceId);
    expect((await fresh.post('/api/register', buildRegistration(fresh))).statusCode).toBe(201);
  });

  it('after an owner reset, the account binds to the next free device it signs in on', async () => {
    const owner = await createPrimaryUser(t);
    await owner.device.post('/api/reset-device', {});
    const laptop = await TestDevice.create(t.app);
    const res = await signInWithPassword(laptop, owner.user.username, owner.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      deviceStatus: 'primary',
      deviceSync: { isPrimary: true, deviceId: laptop.deviceId },
    });
    expect(
      (await signInWithPassword(owner.device, owner.user.username, owner.password)).json().code,
    ).toBe('NOT_PRIMARY_DEVICE');
  });

  it('an account without a device cannot take over a device that holds another account', async () => {
    const first = await createPrimaryUser(t);
    await first.device.post('/api/reset-device', {});
    const second = await createPrimaryUser(t);
    await second.device.post('/api/logout');
    const res = await signInWithPassword(second.device, first.user.username, first.password);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('DEVICE_HAS_PRIMARY_ACCOUNT');
  });
});
