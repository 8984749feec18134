import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/server/config';
import { accountKeys, auditLogs, mobilePairings, videos } from '../../src/server/db/schema';
import { ENCRYPTION_MESSAGES } from '../../src/shared/schemas/encryption';
import {
  createOnboardedUser,
  createSessionFor,
  setTier,
  TestDevice,
  useTestApp,
  type TestApp,
} from '../setup/app';
import { sha256 } from '../setup/cloud';
import { turnOn, turnOnBody } from '../setup/encryption';

// Enhanced encryption's first phase on the server: the owner turns it on once, with their
// password, and the server keeps two key wraps it cannot open; from then on the account's cloud
// copies are sealed (tests/api/encryption-copies.test.ts) and a phone cannot import.

const t = useTestApp({ env: { ENHANCED_ENCRYPTION: 'true' }, admin: true });

async function paidOwner(app: TestApp = t) {
  const owner = await createOnboardedUser(app);
  await setTier(app, owner.user.id, 'premium');
  return owner;
}

async function auditRows(userId: number, eventType: string) {
  const rows = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId));
  return rows.filter((row) => row.eventType === eventType);
}

/** The owner's next of kin, signed in with their code on a phone of their own. */
async function nextOfKinSignedIn(owner: Awaited<ReturnType<typeof paidOwner>>) {
  const phone = await TestDevice.create(t.app);
  const signIn = await phone.post('/api/login', {
    email: owner.nextOfKin.email,
    password: owner.nextOfKin.emergencyAccessCode,
    method: 'email_access_code',
    deviceId: phone.deviceId,
  });
  expect(signIn.statusCode).toBe(200);
  return phone;
}

describe('GET /api/encryption', () => {
  it('is off, and offered on a plan with cloud sync only', async () => {
    const free = await createOnboardedUser(t);
    expect((await free.device.get('/api/encryption')).json()).toEqual({
      state: 'off',
      isOffered: false,
    });
    const paid = await paidOwner();
    const res = await paid.device.get('/api/encryption');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ state: 'off', isOffered: true });
  });

  it('is for the account owner only: a recipient, a stranger without a session are refused', async () => {
    const owner = await paidOwner();
    const kin = await nextOfKinSignedIn(owner);
    for (const res of [
      await kin.get('/api/encryption'),
      await kin.post('/api/encryption', (await turnOnBody(owner.nextOfKin.id)).body),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'FORBIDDEN', message: ENCRYPTION_MESSAGES.ownerOnly });
    }
    const nobody = await TestDevice.create(t.app);
    expect((await nobody.get('/api/encryption')).statusCode).toBe(401);
  });
});

describe('POST /api/encryption', () => {
  it('keeps the two wraps, answers them, and says so in the log', async () => {
    const owner = await paidOwner();
    const { body } = await turnOnBody(owner.user.id);
    const res = await owner.device.post('/api/encryption', body);
    expect(res.statusCode).toBe(200);
    const on = {
      state: 'on',
      turnedOnAt: expect.any(String),
      passwordWrap: body.passwordWrap,
      passwordKdf: body.passwordKdf,
      isPasswordWrapCurrent: true,
      recoveryWrap: body.recoveryWrap,
      recoveryKdf: body.recoveryKdf,
    };
    expect(res.json()).toEqual(on);
    expect((await owner.device.get('/api/encryption')).json()).toEqual(res.json());

    const [row] = await t.db
      .select()
      .from(accountKeys)
      .where(eq(accountKeys.userId, owner.user.id));
    expect(row).toMatchObject({
      passwordWrap: body.passwordWrap,
      passwordKdf: body.passwordKdf,
      recoveryWrap: body.recoveryWrap,
      recoveryKdf: body.recoveryKdf,
    });
    // Nothing the owner typed is kept: the password only proved who asked.
    expect(JSON.stringify(row)).not.toContain(body.password);
    const [turnedOn] = await auditRows(owner.user.id, 'enhanced_encryption_turned_on');
    expect(turnedOn).toMatchObject({ successful: true, deviceId: owner.device.deviceId });

    // Once on, it stays as it is: a second try changes nothing.
    const again = await owner.device.post(
      '/api/encryption',
      (await turnOnBody(owner.user.id)).body,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'CONFLICT', message: ENCRYPTION_MESSAGES.alreadyOn });
    expect((await owner.device.get('/api/encryption')).json()).toEqual(on);
  });

  it('is refused on the free plan, and on a device that is not the primary one', async () => {
    const free = await createOnboardedUser(t);
    const refused = await free.device.post(
      '/api/encryption',
      (await turnOnBody(free.user.id)).body,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'FORBIDDEN', message: ENCRYPTION_MESSAGES.notOnPlan });

    const owner = await paidOwner();
    const laptop = await TestDevice.create(t.app);
    await createSessionFor(t, {
      userId: owner.user.id,
      device: laptop,
      method: 'username_password',
    });
    expect((await laptop.get('/api/encryption')).json()).toEqual({
      state: 'off',
      isOffered: true,
    });
    const elsewhere = await laptop.post('/api/encryption', (await turnOnBody(owner.user.id)).body);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().message).toBe(ENCRYPTION_MESSAGES.primaryDeviceOnly);
    for (const userId of [free.user.id, owner.user.id]) {
      expect(await t.db.select().from(accountKeys).where(eq(accountKeys.userId, userId))).toEqual(
        [],
      );
    }
  });

  it('asks for the password, and counts wrong ones with the sign-ins of this device', async () => {
    const owner = await paidOwner();
    const { body } = await turnOnBody(owner.user.id);
    const wrong = await owner.device.post('/api/encryption', { ...body, password: 'Not-it-2026' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      code: 'VALIDATION',
      message: ENCRYPTION_MESSAGES.wrongPassword,
      fields: { password: ENCRYPTION_MESSAGES.wrongPassword },
    });
    const [failed] = await auditRows(owner.user.id, 'login_failed');
    expect(failed).toMatchObject({ successful: false });
    expect(failed!.details).toMatchObject({
      reason: 'wrong password when turning on enhanced encryption',
    });

    for (let attempt = 2; attempt <= 10; attempt += 1) {
      const res = await owner.device.post('/api/encryption', {
        ...body,
        password: `No-${attempt}`,
      });
      expect(res.statusCode).toBe(400);
    }
    // Ten wrong in a quarter of an hour: even the right one waits now.
    const waiting = await owner.device.post('/api/encryption', body);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().message).toMatch(/^Too many attempts from this device\. Please wait/);
    expect((await owner.device.get('/api/encryption')).json().state).toBe('off');
  });

  it('refuses wraps and settings that are not what a browser makes, naming the field', async () => {
    const owner = await paidOwner();
    const { body } = await turnOnBody(owner.user.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ passwordWrap: 'v1.abc.def' }, 'passwordWrap', ENCRYPTION_MESSAGES.badWrap],
      [{ recoveryWrap: 42 }, 'recoveryWrap', ENCRYPTION_MESSAGES.badWrap],
      [{ recoveryWrap: `${body.recoveryWrap}.x` }, 'recoveryWrap', ENCRYPTION_MESSAGES.badWrap],
      [{ password: '' }, 'password', 'Password is required'],
      [
        { passwordKdf: { ...body.passwordKdf, salt: 'a+b/c' } },
        'passwordKdf.salt',
        'The salt must be base64url',
      ],
    ];
    for (const [change, field, message] of cases) {
      const res = await owner.device.post('/api/encryption', { ...body, ...change });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION',
        message,
        fields: { [field]: message },
      });
    }
    const weak = await owner.device.post('/api/encryption', {
      ...body,
      recoveryKdf: { ...body.recoveryKdf, iterations: 1000 },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields).toHaveProperty(['recoveryKdf.iterations']);
    const other = await owner.device.post('/api/encryption', {
      ...body,
      passwordKdf: { ...body.passwordKdf, algorithm: 'Argon2id' },
    });
    expect(other.statusCode).toBe(400);
    expect(
      await t.db.select().from(accountKeys).where(eq(accountKeys.userId, owner.user.id)),
    ).toEqual([]);
  });
});

describe('import from a phone while it is on', () => {
  // Sealed import itself (a pairing key, the phone's sealed copy, the owner's device sealing it
  // again) is in tests/api/phone-import-sealed.test.ts.
  it('refuses a pairing without a pairing key, and any video from a phone paired before, leaving nothing behind', async () => {
    const owner = await paidOwner();
    const paired = await owner.device.post('/api/pairings');
    expect(paired.statusCode).toBe(200);
    const token = new URL(paired.json<{ url: string }>().url).hash.replace('#pair=', '');
    await turnOn(owner.device, owner.user.id);

    const again = await owner.device.post('/api/pairings');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'CONFLICT',
      message: ENCRYPTION_MESSAGES.pairingKeyRequired,
    });
    const pairings = await t.db
      .select()
      .from(mobilePairings)
      .where(eq(mobilePairings.userId, owner.user.id));
    expect(pairings).toHaveLength(1);

    // Paired before it was on, the phone holds no key to seal with: plain or not, it must pair again.
    const phone = await TestDevice.create(t.app);
    const bytes = randomBytes(500);
    const id = randomUUID();
    const video = {
      id,
      recipientId: owner.nextOfKin.id,
      title: 'Grandad at the seaside',
      durationMs: 4000,
      mimeType: 'video/mp4',
      byteSize: bytes.length,
      sha256: sha256(bytes),
    };
    const sent = await phone.post('/api/pairing/videos', video, { 'x-pairing-token': token });
    expect(sent.statusCode).toBe(409);
    expect(sent.json().message).toBe(ENCRYPTION_MESSAGES.phoneNeedsNewPairing);
    expect(await t.db.select().from(videos).where(eq(videos.id, id))).toEqual([]);

    const { sha256: _plainChecksum, ...sealedVideo } = video;
    const sealed = await phone.post(
      '/api/pairing/videos',
      {
        ...sealedVideo,
        sealed: { pairingKeyWrap: (await turnOnBody(owner.user.id)).body.passwordWrap },
      },
      { 'x-pairing-token': token },
    );
    expect(sealed.statusCode).toBe(409);
    expect(sealed.json().message).toBe(ENCRYPTION_MESSAGES.phoneNeedsNewPairing);
    expect(await t.db.select().from(videos).where(eq(videos.id, id))).toEqual([]);
  });
});

describe('deleting the account', () => {
  let totpSecret: string;
  beforeAll(async () => {
    totpSecret = (await t.admin.device.post('/api/admin/2fa/enrol')).json<{ secret: string }>()
      .secret;
    const code = new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30 });
    const confirmed = await t.admin.device.post('/api/admin/2fa/confirm', {
      code: code.generate(),
    });
    expect(confirmed.statusCode).toBe(200);
  });

  it('removes its key wraps with it', async () => {
    const owner = await paidOwner();
    await turnOn(owner.device, owner.user.id);
    const removed = await t.admin.device.delete('/api/admin/users', {
      ids: [owner.user.id],
      includeRecipients: true,
    });
    expect(removed.statusCode).toBe(200);
    expect(
      await t.db.select().from(accountKeys).where(eq(accountKeys.userId, owner.user.id)),
    ).toEqual([]);
    // The log keeps that it was turned on, as it keeps every event of a deleted account.
    const kept = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.userId, owner.user.id),
          eq(auditLogs.eventType, 'enhanced_encryption_turned_on'),
        ),
      );
    expect(kept).toHaveLength(1);
  });
});

describe('with ENHANCED_ENCRYPTION=false', () => {
  const plain = useTestApp({ env: { ENHANCED_ENCRYPTION: 'false' }, admin: true });

  it('is offered unless set to false; another value stops the start, naming it', () => {
    expect(parseConfig({}).ENHANCED_ENCRYPTION).toBe(true);
    expect(parseConfig({ ENHANCED_ENCRYPTION: 'false' }).ENHANCED_ENCRYPTION).toBe(false);
    // The name it had as a preview is still read when the new one is unset.
    expect(parseConfig({ ENHANCED_ENCRYPTION_PREVIEW: 'false' }).ENHANCED_ENCRYPTION).toBe(false);
    expect(
      parseConfig({ ENHANCED_ENCRYPTION_PREVIEW: 'false', ENHANCED_ENCRYPTION: 'true' })
        .ENHANCED_ENCRYPTION,
    ).toBe(true);
    expect(() => parseConfig({ ENHANCED_ENCRYPTION: 'yes' })).toThrow(ConfigError);
    expect(() => parseConfig({ ENHANCED_ENCRYPTION: 'yes' })).toThrow(/ENHANCED_ENCRYPTION/);
  });

  it('is not offered, even on a paid plan, and cannot be turned on', async () => {
    const owner = await paidOwner(plain);
    expect((await owner.device.get('/api/encryption')).json()).toEqual({
      state: 'off',
      isOffered: false,
    });
    const refused = await owner.device.post(
      '/api/encryption',
      (await turnOnBody(owner.user.id)).body,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'FORBIDDEN', message: ENCRYPTION_MESSAGES.notOnPlan });
  });
});
