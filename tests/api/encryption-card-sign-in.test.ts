import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ENCRYPTION_MESSAGES,
  type TSealedMessageForCard,
} from '../../src/shared/schemas/encryption';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import { MESSAGES } from '../../src/shared/domain/errors';
import { TestClock, TestDevice, useTestApp } from '../setup/app';
import {
  codeProof,
  makeSealedCard,
  newPasswordSplit,
  openCodeWrap,
  recipientWrap,
} from '../setup/encryption';
import {
  addWithCard,
  createSealedOwner,
  insertSealedMessage,
  person,
  recipientSignedIn,
  signInWithProof,
  type SealedOwner,
} from './support/cards';
import { signInWithCode } from './support/recipients';

// Signing in with a sealed card: the browser sends the code's proof first, never the code; a code
// the server made before cards is asked for as typed (401 CODE_NEEDED), and a guess against a
// card always counts. The next of kin's emergency code is checked the same way, and a message's
// wrap reaches its recipient only once its release rule opens it.

const DAY_MS = 24 * 3600_000;
const clock = new TestClock();
const t = useTestApp({
  mail: true,
  admin: true,
  clock,
  env: { ENHANCED_ENCRYPTION: 'true' },
});

/** A proof of a code nobody was given. */
const strangersProof = () => randomBytes(32).toString('base64url');

describe('signing in with a proof', () => {
  it('signs in with the proof, whose card opens with the code; the code itself never works', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    const { user } = await recipientSignedIn(t, anna.email, anna.card);
    expect(user).toMatchObject({ id: anna.id, category: 'family' });
    expect(user.recipientKeys).toEqual([
      { keyId: anna.card.keyId, codeWrap: anna.card.body.codeWrap },
    ]);
    const opened = await openCodeWrap(anna.email, anna.card.code, user.recipientKeys![0]!, {
      extractable: true,
    });
    const raw = async (key: CryptoKey) => Buffer.from(await crypto.subtle.exportKey('raw', key));
    expect((await raw(opened)).equals(await raw(anna.card.recipientKey))).toBe(true);

    // The raw code of a sealed card, as an old page would send it.
    const phone = await TestDevice.create(t.app);
    const typed = await signInWithCode(phone, {
      email: anna.email,
      emergencyAccessCode: anna.card.code,
    });
    expect(typed.statusCode).toBe(401);
    expect(typed.json()).toEqual({
      code: 'INVALID_CREDENTIALS',
      message: MESSAGES.accessCodeInvalid,
    });
    const both = await phone.post('/api/login', {
      email: anna.email,
      password: anna.card.code,
      codeProof: anna.card.proof,
      method: 'email_access_code',
      deviceId: phone.deviceId,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().fields).toEqual({ codeProof: ENCRYPTION_MESSAGES.proofOrCode });
    const notAProof = await signInWithProof(phone, anna.email, 'short');
    expect(notAProof.statusCode).toBe(400);
  });

  it('asks for the typed code where the server made it, at no cost; then the code signs in', async () => {
    const owner = await createSealedOwner(t);
    const kin = owner.nextOfKin;
    const phone = await TestDevice.create(t.app);
    // More than the 10 failures a source may have: these are not failures.
    for (let i = 0; i < 12; i += 1) {
      const res = await signInWithProof(
        phone,
        kin.email,
        await codeProof(kin.email, kin.emergencyAccessCode),
      );
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'CODE_NEEDED', message: ENCRYPTION_MESSAGES.codeNeeded });
    }
    const typed = await signInWithCode(phone, kin);
    expect(typed.statusCode).toBe(200);
    expect(typed.json().recipientKeys).toBeUndefined();
  });

  it('counts every proof checked against a card, CODE_NEEDED or not: no free guesses', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    const phone = await TestDevice.create(t.app);
    for (let i = 0; i < 10; i += 1) {
      expect((await signInWithProof(phone, anna.email, strangersProof())).statusCode).toBe(401);
    }
    expect((await signInWithProof(phone, anna.email, strangersProof())).statusCode).toBe(429);
    expect((await signInWithProof(phone, anna.email, anna.card.proof)).statusCode).toBe(429);

    // One email, two owners: a card with one, a code the server made with the other. A proof
    // checked against the card is a guess even when the answer is CODE_NEEDED.
    const other = await createSealedOwner(t);
    const kinEmail = owner.nextOfKin.email;
    await addWithCard(other, { ...person(), email: kinEmail });
    const tablet = await TestDevice.create(t.app);
    for (let i = 0; i < 10; i += 1) {
      const res = await signInWithProof(tablet, kinEmail, strangersProof());
      expect(res.json().code).toBe('CODE_NEEDED');
    }
    expect((await signInWithProof(tablet, kinEmail, strangersProof())).statusCode).toBe(429);
  });
});

describe('the next of kin’s emergency code', () => {
  /** Gives the owner's next of kin a sealed card in place of the code the server made. */
  async function sealNextOfKin(owner: SealedOwner) {
    const card = await makeSealedCard(owner.accountKey, owner.nextOfKin.email);
    const res = await owner.device.post(
      `/api/recipients/${owner.nextOfKin.id}/sealed-card`,
      card.body,
    );
    expect(res.statusCode).toBe(200);
    return card;
  }
  const NEW_PASSWORD = 'Daffodils&Jam-2027';
  const breakGlass = (body: object) =>
    TestDevice.create(t.app).then((device) =>
      device.post('/api/break-glass-reset', { newPassword: NEW_PASSWORD, ...body }),
    );

  it('resets the password with the proof; the card stays, and its code never works', async () => {
    const owner = await createSealedOwner(t);
    const card = await sealNextOfKin(owner);
    const nextOfKinEmail = owner.nextOfKin.email;
    const typed = await breakGlass({ nextOfKinEmail, emergencyCode: card.code });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().message).toBe(MESSAGES.breakGlassInvalid);
    const plain = await breakGlass({ nextOfKinEmail, codeProof: card.proof });
    // A typed password for a sealed owner would reach the server: refused, nothing changed.
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toBe(MESSAGES.passwordMustBeSplit);
    expect((await owner.device.get('/api/user')).statusCode).toBe(200);
    const split = await newPasswordSplit(NEW_PASSWORD);
    const res = await breakGlass({
      nextOfKinEmail,
      codeProof: card.proof,
      newPassword: undefined,
      ...split.body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'The password has been reset. Margaret has been signed out everywhere and emailed. Your emergency card still works until Margaret makes you a new one.',
    );
    expect((await owner.device.get('/api/user')).statusCode).toBe(401);
    const signIn = await owner.device.post('/api/login', {
      username: owner.user.username,
      passwordProof: split.signInProof,
      deviceId: owner.device.deviceId,
    });
    expect(signIn.statusCode).toBe(200);
    await recipientSignedIn(t, nextOfKinEmail, card);
  });

  it('asks for the typed code where the server made it', async () => {
    const owner = await createSealedOwner(t);
    const { email, emergencyAccessCode } = owner.nextOfKin;
    const proof = await breakGlass({
      nextOfKinEmail: email,
      codeProof: await codeProof(email, emergencyAccessCode),
    });
    expect(proof.statusCode).toBe(401);
    expect(proof.json().code).toBe('CODE_NEEDED');
    const typed = await breakGlass({
      nextOfKinEmail: email,
      emergencyCode: emergencyAccessCode,
      newPassword: undefined,
      ...(await newPasswordSplit(NEW_PASSWORD)).body,
    });
    expect(typed.statusCode).toBe(200);
    expect(typed.json().message).toMatch(/a new emergency code is on its way to you\.$/);
  });

  it('hands each message’s wrap over only when it opens: on its date, and after the legacy', async () => {
    const owner = await createSealedOwner(t);
    const kinCard = await sealNextOfKin(owner);
    const anna = await addWithCard(owner);
    const dated = await insertSealedMessage(t, owner, anna.id);
    const afterLegacy = await insertSealedMessage(t, owner, anna.id);
    const wraps: { videoId: string; recipientKeyWrap: string }[] = [];
    for (const message of [dated, afterLegacy]) {
      wraps.push({
        videoId: message.id,
        recipientKeyWrap: await recipientWrap(message.contentKey, anna.card, message.id),
      });
    }
    const put = await owner.device.request({
      method: 'PUT',
      url: `/api/recipients/${anna.id}/sealed-messages`,
      payload: { keyId: anna.card.keyId, wraps },
    });
    expect(put.statusCode).toBe(200);
    const release = (id: string, body: object) =>
      owner.device.request({ method: 'PUT', url: `/api/videos/${id}/release`, payload: body });
    const opensAt = new Date(clock.now().getTime() + 10 * DAY_MS);
    expect((await release(dated.id, { rule: 'date', at: opensAt.toISOString() })).statusCode).toBe(
      200,
    );
    expect((await release(afterLegacy.id, { rule: 'legacy' })).statusCode).toBe(200);

    const { device: annaPhone } = await recipientSignedIn(t, anna.email, anna.card);
    const playback = (id: string) => annaPhone.get(`/api/videos/${id}/playback`);
    const wrapOf = (id: string) => wraps.find((wrap) => wrap.videoId === id)!.recipientKeyWrap;
    expect((await playback(dated.id)).statusCode).toBe(404);
    expect((await playback(afterLegacy.id)).statusCode).toBe(404);

    clock.advance(11 * DAY_MS);
    const opened = await playback(dated.id);
    expect(opened.statusCode).toBe(200);
    expect(opened.json<TPlayback>().sealed).toEqual({
      keyWrap: wrapOf(dated.id),
      holder: 'recipient',
      keyId: anna.card.keyId,
    });
    expect((await playback(afterLegacy.id)).statusCode).toBe(404);

    // The next of kin asks with the card's proof; unanswered, the legacy is released.
    const { device: kinPhone } = await recipientSignedIn(t, owner.nextOfKin.email, kinCard);
    const typed = await kinPhone.post('/api/legacy/requests', { emergencyCode: kinCard.code });
    expect(typed.statusCode).toBe(400);
    const asked = await kinPhone.post('/api/legacy/requests', { codeProof: kinCard.proof });
    expect(asked.statusCode).toBe(201);
    expect((await playback(afterLegacy.id)).statusCode).toBe(404);
    await t.app.jobs.runLegacyWork(new Date(clock.now().getTime() + 8 * DAY_MS));
    clock.advance(8 * DAY_MS);
    const { device: annaAgain } = await recipientSignedIn(t, anna.email, anna.card);
    const released = await annaAgain.get(`/api/videos/${afterLegacy.id}/playback`);
    expect(released.statusCode).toBe(200);
    expect(released.json<TPlayback>().sealed?.keyWrap).toBe(wrapOf(afterLegacy.id));
    const list = await owner.device.get(`/api/recipients/${anna.id}/sealed-messages`);
    expect(list.json<{ messages: TSealedMessageForCard[] }>().messages).toHaveLength(2);
  });

  it('asks the next of kin for the typed code where the server made it, when asking for the legacy', async () => {
    const owner = await createSealedOwner(t);
    const { email, emergencyAccessCode } = owner.nextOfKin;
    const phone = await TestDevice.create(t.app);
    expect((await signInWithCode(phone, owner.nextOfKin)).statusCode).toBe(200);
    const proof = await phone.post('/api/legacy/requests', {
      codeProof: await codeProof(email, emergencyAccessCode),
    });
    expect(proof.statusCode).toBe(401);
    expect(proof.json().code).toBe('CODE_NEEDED');
    const typed = await phone.post('/api/legacy/requests', { emergencyCode: emergencyAccessCode });
    expect(typed.statusCode).toBe(201);
  });
});
