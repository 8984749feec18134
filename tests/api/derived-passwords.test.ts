import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountKeys, auditLogs, users } from '../../src/server/db/schema';
import { hashSecret } from '../../src/server/lib/crypto';
import { MESSAGES } from '../../src/shared/domain/errors';
import type { TPreloginResponse } from '../../src/shared/schemas/derived-password';
import { ENCRYPTION_MESSAGES, WRAP_LABEL_PARTS } from '../../src/shared/schemas/encryption';
import { newKdfParams, splitSecret, unwrapKey, wrapKey, wrapLabel } from '../../src/shared/sealing';
import { createOnboardedUser, GOOD_PASSWORD, setTier, TestDevice, useTestApp } from '../setup/app';
import { turnOnBody } from '../setup/encryption';
import { extractCode } from '../setup/smtp';
import { prelogin, proofFor } from './support/auth';

// Once enhanced encryption is on, the owner's password never reaches the server: the browser
// asks for the settings (prelogin), splits the password and sends the sign-in half. These
// requests are the browser's, made with the shared sealing code in Node's WebCrypto.

const t = useTestApp({
  mail: true,
  env: { ENHANCED_ENCRYPTION: 'true', APP_URL: 'http://localhost:5000' },
});

const NEW_PASSWORD = 'Bluebells-in-May-2027';

/** A paid owner with enhanced encryption on, turned on as the browser does it. */
async function encryptedOwner() {
  const owner = await createOnboardedUser(t);
  await setTier(t, owner.user.id, 'premium');
  const { body, accountKey } = await turnOnBody(owner.user.id);
  const res = await owner.device.post('/api/encryption', body);
  expect(res.statusCode).toBe(200);
  return { ...owner, kdf: body.passwordKdf, accountKey };
}

function signIn(device: TestDevice, username: string, secret: Record<string, string>) {
  return device.post('/api/login', { username, ...secret, deviceId: device.deviceId });
}

async function storedUser(userId: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, userId));
  return row!;
}

describe('POST /api/auth/prelogin', () => {
  it('answers settings of the same shape for an encrypted account, a plain one and no account, alike on every ask', async () => {
    const encrypted = await encryptedOwner();
    const plain = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    const answers = [
      await prelogin(device, encrypted.user.username),
      await prelogin(device, plain.user.username),
      await prelogin(device, 'nobody-by-this-name'),
    ];
    for (const kdf of answers) {
      expect(Object.keys(kdf).sort()).toEqual(['algorithm', 'iterations', 'salt']);
      expect(kdf.algorithm).toBe('PBKDF2-SHA-256');
      expect(kdf.iterations).toBe(600_000);
      expect(kdf.salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    }
    expect(answers[0]).toEqual(encrypted.kdf);
    // The made-up settings do not change between asks, nor with the name's case.
    expect(await prelogin(device, 'NOBODY-by-this-name')).toEqual(answers[2]);
    expect(await prelogin(await TestDevice.create(t.app), plain.user.username)).toEqual(answers[1]);
    expect(new Set(answers.map((kdf) => kdf.salt)).size).toBe(3);
  });

  it('says which account keeps its password plain, and answers no account as an encrypted one', async () => {
    const encrypted = await encryptedOwner();
    const plain = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    const isPlain = async (body: object, on = device) =>
      (await on.post('/api/auth/prelogin', body)).json<TPreloginResponse>().passwordIsPlain;
    expect(await isPlain({ username: plain.user.username })).toBe(true);
    expect(await isPlain({ username: encrypted.user.username })).toBe(false);
    expect(await isPlain({ username: 'nobody-by-this-name' })).toBe(false);
    // Asked by the device an account is bound to (freeing a device), and by one with none.
    expect(await isPlain({ boundToThisDevice: true }, plain.device)).toBe(true);
    expect(await isPlain({ boundToThisDevice: true }, encrypted.device)).toBe(false);
    expect(await isPlain({ boundToThisDevice: true })).toBe(false);
  });

  it('asks for a username and a device', async () => {
    const device = await TestDevice.create(t.app);
    expect((await device.post('/api/auth/prelogin', {})).statusCode).toBe(400);
  });
});

describe('signing in once enhanced encryption is on', () => {
  it('takes the proof, refuses the password itself, and keeps nothing derivable without PBKDF2', async () => {
    const owner = await encryptedOwner();
    const { username } = owner.user;
    const device = await TestDevice.create(t.app);

    const plain = await signIn(device, username, { password: GOOD_PASSWORD });
    expect(plain.statusCode).toBe(401);
    expect(plain.json().code).toBe('INVALID_CREDENTIALS');

    const wrong = await signIn(device, username, {
      passwordProof: await proofFor(device, username, 'Not-the-password-1'),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');

    // The owner's own device: the account is bound there.
    const right = await signIn(owner.device, username, {
      passwordProof: await proofFor(owner.device, username, GOOD_PASSWORD),
    });
    expect(right.statusCode).toBe(200);

    // The database holds a hash of the sign-in half and the settings: neither the password nor
    // anything a fast hash of it would give.
    const row = await storedUser(owner.user.id);
    expect(row.passwordKdf).toEqual(owner.kdf);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    const dump =
      JSON.stringify(await t.db.select().from(users)) +
      JSON.stringify(await t.db.select().from(auditLogs));
    expect(dump).not.toContain(GOOD_PASSWORD);
    expect(dump).not.toContain(Buffer.from(GOOD_PASSWORD).toString('base64url'));
  });

  it('answers a proof for an account without encryption, or for no account, without counting a try', async () => {
    const plain = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    const proof = await proofFor(device, plain.user.username, plain.password);
    const asked = await signIn(device, plain.user.username, { passwordProof: proof });
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toEqual({ code: 'PASSWORD_NEEDED', message: MESSAGES.passwordNeeded });
    // Then the password as typed, as always.
    const res = await signIn(plain.device, plain.user.username, { password: plain.password });
    expect(res.statusCode).toBe(200);

    // No account answers as an encrypted account with a wrong password does.
    const none = await signIn(device, 'nobody-by-this-name', { passwordProof: proof });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses the password and its proof together', async () => {
    const device = await TestDevice.create(t.app);
    const res = await signIn(device, 'someone', {
      password: GOOD_PASSWORD,
      passwordProof: 'a'.repeat(43),
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('turning enhanced encryption on', () => {
  it('refuses a proof that is not of the password it was sent with, and keeps the password plain', async () => {
    const owner = await createOnboardedUser(t);
    await setTier(t, owner.user.id, 'premium');
    const { body } = await turnOnBody(owner.user.id);
    const res = await owner.device.post('/api/encryption', {
      ...body,
      passwordProof: (await splitSecret('password', 'Another-password-9', body.passwordKdf))
        .signInHalf,
    });
    expect(res.statusCode).toBe(400);
    expect((await storedUser(owner.user.id)).passwordKdf).toBeNull();
    const keys = await t.db.select().from(accountKeys).where(eq(accountKeys.userId, owner.user.id));
    expect(keys).toEqual([]);
  });
});

describe('new passwords for an account with enhanced encryption on', () => {
  it('changes the password with proofs only, and moves the account key to the new password', async () => {
    const owner = await encryptedOwner();
    const { username } = owner.user;
    const newKdf = newKdfParams('password');
    const next = await splitSecret('password', NEW_PASSWORD, newKdf);

    const plainTry = await owner.device.post('/api/reset-password', {
      currentPasswordProof: await proofFor(owner.device, username, GOOD_PASSWORD),
      newPassword: NEW_PASSWORD,
    });
    expect(plainTry.statusCode).toBe(400);
    expect(plainTry.json().message).toBe(MESSAGES.passwordMustBeSplit);

    const wrap = (await turnOnBody(owner.user.id)).body.passwordWrap;
    const res = await owner.device.post('/api/reset-password', {
      currentPasswordProof: await proofFor(owner.device, username, GOOD_PASSWORD),
      newPasswordProof: next.signInHalf,
      newPasswordKdf: newKdf,
      newPasswordWrap: wrap,
    });
    expect(res.statusCode).toBe(200);
    const [keys] = await t.db
      .select()
      .from(accountKeys)
      .where(eq(accountKeys.userId, owner.user.id));
    expect(keys).toMatchObject({ passwordWrap: wrap, passwordKdf: newKdf });
    expect(await prelogin(owner.device, username)).toEqual(newKdf);

    const signedIn = await signIn(owner.device, username, { passwordProof: next.signInHalf });
    expect(signedIn.statusCode).toBe(200);
    const mail = await t.smtp.waitFor((m) => m.to.includes(owner.user.email));
    expect(mail.text).not.toContain(NEW_PASSWORD);
  });

  it('resets a forgotten password with an emailed code and the new password’s proof', async () => {
    const owner = await encryptedOwner();
    const device = await TestDevice.create(t.app);
    await device.post('/api/temporary-password-reset', { email: owner.user.email });
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes(owner.user.email) && m.subject.includes('reset code'),
    );
    const code = extractCode(mail, 8);
    const newKdf = newKdfParams('password');
    const next = await splitSecret('password', NEW_PASSWORD, newKdf);

    const plainTry = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPassword: NEW_PASSWORD,
    });
    expect(plainTry.statusCode).toBe(400);
    const res = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPasswordProof: next.signInHalf,
      newPasswordKdf: newKdf,
    });
    expect(res.statusCode).toBe(200);
    const row = await storedUser(owner.user.id);
    expect(row.passwordKdf).toEqual(newKdf);
    expect(
      (await signIn(owner.device, owner.user.username, { passwordProof: next.signInHalf }))
        .statusCode,
    ).toBe(200);

    // The account key is still wrapped under the old password until the owner's browser, holding
    // the key, wraps it under the new one, proving the new password.
    const state = (await owner.device.get('/api/encryption')).json<{
      isPasswordWrapCurrent: boolean;
    }>();
    expect(state.isPasswordWrapCurrent).toBe(false);
    const label = wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(owner.user.id));
    const passwordWrap = await wrapKey(owner.accountKey, next.keyHalf, label);
    const old = await splitSecret('password', GOOD_PASSWORD, owner.kdf);
    const wrong = await owner.device.request({
      method: 'PUT',
      url: '/api/encryption/password-wrap',
      payload: {
        passwordProof: old.signInHalf,
        passwordWrap,
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(ENCRYPTION_MESSAGES.wrongPassword);
    const renewed = await owner.device.request({
      method: 'PUT',
      url: '/api/encryption/password-wrap',
      payload: {
        passwordProof: next.signInHalf,
        passwordWrap,
      },
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json()).toMatchObject({ passwordWrap, isPasswordWrapCurrent: true });
    const [keys] = await t.db
      .select()
      .from(accountKeys)
      .where(eq(accountKeys.userId, owner.user.id));
    expect(keys!.passwordKdf).toEqual(newKdf);
    // What was stored opens with the new password's key half, as a device unlocking would.
    const opened = await unwrapKey(keys!.passwordWrap, next.keyHalf, label, 'wrapping', {
      extractable: true,
    });
    expect(opened.type).toBe('secret');
    const again = await owner.device.request({
      method: 'PUT',
      url: '/api/encryption/password-wrap',
      payload: {
        passwordProof: next.signInHalf,
        passwordWrap,
      },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ENCRYPTION_MESSAGES.passwordWrapCurrent);
    const log = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(log.map((row) => row.eventType)).toContain('encryption_password_renewed');
  });

  it('keeps the code usable when an account without encryption is sent a proof', async () => {
    const owner = await createOnboardedUser(t);
    const device = await TestDevice.create(t.app);
    await device.post('/api/temporary-password-reset', { email: owner.user.email });
    const code = extractCode(
      await t.smtp.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('reset')),
      8,
    );
    const newKdf = newKdfParams('password');
    const asked = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPasswordProof: (await splitSecret('password', NEW_PASSWORD, newKdf)).signInHalf,
      newPasswordKdf: newKdf,
    });
    expect(asked.statusCode).toBe(401);
    expect(asked.json().code).toBe('PASSWORD_NEEDED');
    const res = await device.post('/api/complete-temporary-reset', {
      email: owner.user.email,
      resetToken: code,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect((await storedUser(owner.user.id)).passwordKdf).toBeNull();
  });
});

describe('other places the owner types their password, with enhanced encryption on', () => {
  it('moves the account to a new device with the proof; the password itself opens nothing', async () => {
    const owner = await encryptedOwner();
    const { username } = owner.user;
    const tablet = await TestDevice.create(t.app);
    const plain = await tablet.post('/api/device/move/request', {
      username,
      password: GOOD_PASSWORD,
      deviceId: tablet.deviceId,
    });
    expect(plain.statusCode).toBe(401);
    const proof = { username, passwordProof: await proofFor(tablet, username, GOOD_PASSWORD) };
    expect(
      (await signIn(tablet, username, { passwordProof: proof.passwordProof })).json().code,
    ).toBe('NOT_PRIMARY_DEVICE');
    const request = await tablet.post('/api/device/move/request', {
      ...proof,
      deviceId: tablet.deviceId,
    });
    expect(request.statusCode).toBe(200);
    const code = extractCode(
      await t.smtp.waitFor(
        (m) => m.to.includes(owner.user.email) && m.subject.includes('new device'),
      ),
      8,
    );
    const done = await tablet.post('/api/device/move/complete', {
      ...proof,
      deviceId: tablet.deviceId,
      code,
    });
    expect(done.statusCode).toBe(200);
  });

  it('frees a device with the proof of the password of the account tied to it', async () => {
    const owner = await encryptedOwner();
    const device = owner.device.withoutCookies();
    // The settings of the account tied to this device, as for its name.
    const kdf = await device.post('/api/auth/prelogin', { boundToThisDevice: true });
    expect(kdf.json().kdf).toEqual(owner.kdf);
    const plain = await device.post('/api/reset-device', {
      mode: 'owner',
      password: GOOD_PASSWORD,
    });
    expect(plain.statusCode).toBe(403);
    const res = await device.post('/api/reset-device', {
      mode: 'owner',
      passwordProof: (await splitSecret('password', GOOD_PASSWORD, owner.kdf)).signInHalf,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ reset: true, username: owner.user.username });
  });

  it('a first password after an admin reset is chosen as a proof', async () => {
    const owner = await encryptedOwner();
    // As an admin reset leaves it: a temporary password (split by the admin's browser) to replace.
    const temporaryKdf = newKdfParams('password');
    const temporary = await splitSecret('password', 'Temporary-Pass-2027', temporaryKdf);
    await t.db
      .update(users)
      .set({
        passwordHash: await hashSecret(temporary.signInHalf),
        passwordKdf: temporaryKdf,
        firstLogin: true,
      })
      .where(eq(users.id, owner.user.id));
    const device = owner.device;
    expect(
      (await signIn(device, owner.user.username, { passwordProof: temporary.signInHalf }))
        .statusCode,
    ).toBe(200);
    const plainTry = await device.post('/api/setup-password', { password: NEW_PASSWORD });
    expect(plainTry.statusCode).toBe(400);
    const newKdf = newKdfParams('password');
    const next = await splitSecret('password', NEW_PASSWORD, newKdf);
    const res = await device.post('/api/setup-password', {
      newPasswordProof: next.signInHalf,
      newPasswordKdf: newKdf,
    });
    expect(res.statusCode).toBe(200);
    expect(await storedUser(owner.user.id)).toMatchObject({
      passwordKdf: newKdf,
      firstLogin: false,
    });
  });
});

describe('a next of kin’s emergency reset of an owner with enhanced encryption on', () => {
  it('sets the new password from its proof; for an owner without, the proof is answered PASSWORD_NEEDED', async () => {
    const owner = await encryptedOwner();
    const device = await TestDevice.create(t.app);
    const newKdf = newKdfParams('password');
    const next = await splitSecret('password', NEW_PASSWORD, newKdf);
    const res = await device.post('/api/break-glass-reset', {
      nextOfKinEmail: owner.nextOfKin.email,
      emergencyCode: owner.nextOfKin.emergencyAccessCode,
      newPasswordProof: next.signInHalf,
      newPasswordKdf: newKdf,
    });
    expect(res.statusCode).toBe(200);
    expect((await storedUser(owner.user.id)).passwordKdf).toEqual(newKdf);
    expect(
      (await signIn(owner.device, owner.user.username, { passwordProof: next.signInHalf }))
        .statusCode,
    ).toBe(200);

    const plain = await createOnboardedUser(t);
    const asked = await device.post('/api/break-glass-reset', {
      nextOfKinEmail: plain.nextOfKin.email,
      emergencyCode: plain.nextOfKin.emergencyAccessCode,
      newPasswordProof: next.signInHalf,
      newPasswordKdf: newKdf,
    });
    expect(asked.statusCode).toBe(401);
    expect(asked.json().code).toBe('PASSWORD_NEEDED');
    expect((await storedUser(plain.user.id)).passwordKdf).toBeNull();
  });
});
