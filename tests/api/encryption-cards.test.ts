import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, recipientKeys, users, videos } from '../../src/server/db/schema';
import { unwrapKey, wrapLabel } from '../../src/shared/sealing';
import {
  ENCRYPTION_MESSAGES,
  WRAP_LABEL_PARTS,
  type TSealedMessageForCard,
} from '../../src/shared/schemas/encryption';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import type { TRecipientList } from '../../src/shared/schemas/recipients';
import { createOnboardedUser, TestDevice, useTestApp } from '../setup/app';
import { createPaidOwner, indexVideo, PART_BYTES, sha256 } from '../setup/cloud';
import {
  makeSealedCard,
  openCodeWrap,
  recipientWrap,
  sealedKeys,
  turnOn,
} from '../setup/encryption';
import { extractCode } from '../setup/smtp';
import {
  addWithCard,
  createSealedOwner,
  insertSealedMessage,
  person,
  recipientSignedIn,
  signInWithProof,
} from './support/cards';

// Sealed recipient cards: with enhanced encryption on, the owner's browser makes each
// recipient's code and key; the server keeps only a hash of the code's proof and wraps it cannot
// open, mails no code, and hands a message's key to its recipient only once they may watch it.

const t = useTestApp({
  mail: true,
  admin: true,
  env: { ENHANCED_ENCRYPTION: 'true' },
  uploadPartBytes: PART_BYTES,
});

const mailTo = (email: string, subject: string | RegExp) =>
  t.smtp.waitFor(
    (m) =>
      m.to.includes(email) &&
      (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)),
  );

describe('adding someone with a card', () => {
  it('keeps the proof’s hash and the card, answers no code and mails an invitation without one', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    expect(anna.emergencyAccessCode).toBeNull();

    const [row] = await t.db.select().from(users).where(eq(users.id, anna.id));
    expect(row).toMatchObject({ accessCodeForm: 'proof' });
    expect(row!.emergencyAccessCodeHash).toMatch(/^\$argon2id\$/);
    const [keys] = await t.db
      .select()
      .from(recipientKeys)
      .where(eq(recipientKeys.recipientId, anna.id));
    expect(keys).toMatchObject({
      keyId: anna.card.keyId,
      ownerWrap: anna.card.body.ownerWrap,
      codeWrap: anna.card.body.codeWrap,
    });

    const mail = await mailTo(
      anna.email,
      'Margaret Hill is recording video messages for you on Memento',
    );
    expect(mail.text).toContain('Margaret will give you your Memento card');
    expect(() => extractCode(mail, 16)).toThrow();
    for (const body of [mail.text, mail.html]) {
      expect(body).not.toContain(anna.card.code);
      expect(body).not.toContain(anna.card.code.replaceAll('-', ''));
    }

    // The recipients page shows the card to the owner's devices, and no card for the next of kin.
    const list = (await owner.device.get('/api/recipients')).json<TRecipientList>();
    const byId = new Map(list.recipients.map((r) => [r.id, r]));
    expect(byId.get(anna.id)!.sealedKey).toEqual({
      keyId: anna.card.keyId,
      ownerWrap: anna.card.body.ownerWrap,
      hasEscrow: false,
    });
    expect(byId.get(owner.nextOfKin.id)!.sealedKey).toBeNull();
  });

  it('asks for a card once it is on, and refuses one before', async () => {
    const owner = await createSealedOwner(t);
    const without = await owner.device.post('/api/recipients', person());
    expect(without.statusCode).toBe(409);
    expect(without.json()).toEqual({ code: 'CONFLICT', message: ENCRYPTION_MESSAGES.cardRequired });

    const plain = await createPaidOwner(t);
    const who = person();
    const card = await makeSealedCard(owner.accountKey, who.email);
    const early = await plain.device.post('/api/recipients', { ...who, sealedCard: card.body });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({
      message: ENCRYPTION_MESSAGES.cardNotOn,
      fields: { sealedCard: ENCRYPTION_MESSAGES.cardNotOn },
    });
    const broken = await owner.device.post('/api/recipients', {
      ...who,
      sealedCard: { ...card.body, codeProof: 'not a proof', ownerWrap: 'v1.x.y' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().fields).toMatchObject({
      'sealedCard.codeProof': ENCRYPTION_MESSAGES.badProof,
      'sealedCard.ownerWrap': ENCRYPTION_MESSAGES.badWrap,
    });
    expect(await t.db.select().from(users).where(eq(users.email, who.email))).toEqual([]);
  });

  it('gives the next of kin a card the same way, mailed as an emergency card', async () => {
    const owner = await createPaidOwner(t);
    const accountKey = await turnOn(owner.device, owner.user.id);
    const nextOfKin = await addWithCard({ ...owner, accountKey }, person('next_of_kin'));
    expect(nextOfKin.emergencyAccessCode).toBeNull();
    const mail = await mailTo(nextOfKin.email, /has chosen you as their next of kin on Memento$/);
    expect(mail.text).toContain('will give you your Memento emergency card');
    expect(mail.text).not.toContain(nextOfKin.card.code);
  });
});

describe('a new card', () => {
  it('ends the old code, its sessions and its wraps; the new one signs in; audited and mailed', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    const { device: phone } = await recipientSignedIn(t, anna.email, anna.card);
    const message = await insertSealedMessage(t, owner, anna.id);
    const put = await owner.device.request({
      method: 'PUT',
      url: `/api/recipients/${anna.id}/sealed-messages`,
      payload: {
        keyId: anna.card.keyId,
        wraps: [
          {
            videoId: message.id,
            recipientKeyWrap: await recipientWrap(message.contentKey, anna.card, message.id),
          },
        ],
      },
    });
    expect(put.statusCode).toBe(200);

    const fresh = await makeSealedCard(owner.accountKey, anna.email);
    const res = await owner.device.post(`/api/recipients/${anna.id}/sealed-card`, fresh.body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: anna.id, keyId: fresh.keyId });

    expect((await phone.get('/api/recipient-home')).statusCode).toBe(401);
    const other = await TestDevice.create(t.app);
    const old = await signInWithProof(other, anna.email, anna.card.proof);
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('INVALID_CREDENTIALS');
    const now = await signInWithProof(other, anna.email, fresh.proof);
    expect(now.statusCode).toBe(200);
    expect(now.json().recipientKeys).toEqual([
      { keyId: fresh.keyId, codeWrap: fresh.body.codeWrap },
    ]);

    const [row] = await t.db.select().from(videos).where(eq(videos.id, message.id));
    expect(row).toMatchObject({ recipientKeyWrap: null, recipientKeyId: null });
    const list = (await owner.device.get('/api/recipients')).json<TRecipientList>();
    expect(list.recipients.find((r) => r.id === anna.id)!.sealedKey?.keyId).toBe(fresh.keyId);
    const audit = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.userId, owner.user.id),
          eq(auditLogs.eventType, 'recipient_card_replaced'),
        ),
      );
    expect(audit).toHaveLength(1);
    const mail = await mailTo(anna.email, /^Your new card for Margaret Hill's messages/);
    expect(mail.text).not.toContain(fresh.code);
  });

  it('is the only way to a new code once it is on; needs it on; and only for one’s own', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    const reshare = await owner.device.post(`/api/recipients/${anna.id}/reshare-code`);
    expect(reshare.statusCode).toBe(409);
    expect(reshare.json().message).toBe(ENCRYPTION_MESSAGES.cardRequired);
    const kinReshare = await owner.device.post(
      `/api/recipients/${owner.nextOfKin.id}/reshare-code`,
    );
    expect(kinReshare.statusCode).toBe(409);

    const card = await makeSealedCard(owner.accountKey, anna.email);
    const plain = await createOnboardedUser(t);
    const off = await plain.device.post(
      `/api/recipients/${plain.nextOfKin.id}/sealed-card`,
      card.body,
    );
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe(ENCRYPTION_MESSAGES.cardNotOn);
    const notTheirs = await plain.device.post(`/api/recipients/${anna.id}/sealed-card`, card.body);
    expect(notTheirs.statusCode).toBe(404);
    const fromPhone = await recipientSignedIn(t, anna.email, anna.card);
    const byRecipient = await fromPhone.device.post(
      `/api/recipients/${anna.id}/sealed-card`,
      card.body,
    );
    expect(byRecipient.statusCode).toBe(403);
    const bad = await owner.device.post(`/api/recipients/${anna.id}/sealed-card`, { keyId: 'x' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the owner wraps their sealed messages for a card', () => {
  it('lists the sealed messages for the recipient and stores wraps for the current card only', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    const first = await insertSealedMessage(t, owner, anna.id);
    const second = await insertSealedMessage(t, owner, anna.id);
    const forKin = await insertSealedMessage(t, owner, owner.nextOfKin.id);
    const url = `/api/recipients/${anna.id}/sealed-messages`;
    const list = async () =>
      (await owner.device.get(url)).json<{ messages: TSealedMessageForCard[] }>();

    const before = await list();
    expect(before.messages.map((m) => m.videoId).sort()).toEqual([first.id, second.id].sort());
    expect(before.messages.every((m) => !m.isWrappedForCard)).toBe(true);
    const [firstRow] = await t.db.select().from(videos).where(eq(videos.id, first.id));
    expect(before.messages.find((m) => m.videoId === first.id)!.keyWrap).toBe(
      firstRow!.sealedKeyWrap,
    );

    const wrapOf = async (m: { id: string; contentKey: CryptoKey }) => ({
      videoId: m.id,
      recipientKeyWrap: await recipientWrap(m.contentKey, anna.card, m.id),
    });
    const put = (body: object) => owner.device.request({ method: 'PUT', url, payload: body });
    const stale = await put({ keyId: randomUUID(), wraps: [await wrapOf(first)] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(ENCRYPTION_MESSAGES.cardChanged);
    // One message not hers (or not sealed, or not there): nothing is stored, and nothing is named.
    for (const stranger of [forKin, { id: randomUUID(), contentKey: first.contentKey }]) {
      const res = await put({
        keyId: anna.card.keyId,
        wraps: [await wrapOf(first), await wrapOf(stranger)],
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(ENCRYPTION_MESSAGES.sealedMessageNotFound);
    }
    expect((await list()).messages.every((m) => !m.isWrappedForCard)).toBe(true);
    const twice = await put({
      keyId: anna.card.keyId,
      wraps: [await wrapOf(first), await wrapOf(first)],
    });
    expect(twice.statusCode).toBe(400);
    expect((await put({ keyId: anna.card.keyId, wraps: [] })).statusCode).toBe(400);

    const ok = await put({
      keyId: anna.card.keyId,
      wraps: [await wrapOf(first), await wrapOf(second)],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ stored: 2 });
    expect((await list()).messages.every((m) => m.isWrappedForCard)).toBe(true);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, second.id));
    expect(row!.recipientKeyId).toBe(anna.card.keyId);

    const other = await createSealedOwner(t);
    expect((await other.device.get(url)).statusCode).toBe(404);
    const noCard = await owner.device.request({
      method: 'PUT',
      url: `/api/recipients/${owner.nextOfKin.id}/sealed-messages`,
      payload: { keyId: anna.card.keyId, wraps: [await wrapOf(forKin)] },
    });
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json().message).toBe(ENCRYPTION_MESSAGES.noCard);
  });
});

describe('a sealed upload with a wrap for the recipient', () => {
  /** Starts a sealed upload, its wraps made for the new message's id. */
  async function upload(
    owner: { device: TestDevice },
    recipientId: number,
    sealed: (videoId: string) => Promise<object>,
  ) {
    const bytes = randomBytes(PART_BYTES - 100);
    const videoId = await indexVideo(owner.device, recipientId, bytes.length);
    const created = await owner.device.post('/api/uploads', {
      videoId,
      title: 'For Anna',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
      sealed: await sealed(videoId),
    });
    return { videoId, bytes, created };
  }

  it('keeps it with the card’s id and hands it to the recipient with playback', async () => {
    const owner = await createSealedOwner(t);
    const anna = await addWithCard(owner);
    let keys: Awaited<ReturnType<typeof sealedKeys>> | undefined;
    const { videoId, bytes, created } = await upload(owner, anna.id, async (id: string) => {
      keys = await sealedKeys(owner.accountKey, anna.card, id);
      return { keyWrap: keys.keyWrap, recipientKeyWrap: keys.recipientKeyWrap };
    });
    expect(created.statusCode).toBe(200);
    const { uploadId, parts } = created.json<{ uploadId: string; parts: { url: string }[] }>();
    const sent = await owner.device.request({
      method: 'PUT',
      url: parts[0]!.url,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(sent.statusCode).toBe(200);
    const done = await owner.device.post(`/api/uploads/${uploadId}/complete`, {
      parts: [{ partNumber: 1, etag: sent.headers.etag as string }],
    });
    expect(done.statusCode).toBe(200);
    const [row] = await t.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({
      recipientKeyWrap: keys!.recipientKeyWrap,
      recipientKeyId: anna.card.keyId,
    });

    const forOwner = (await owner.device.get(`/api/videos/${videoId}/playback`)).json<TPlayback>();
    expect(forOwner.sealed).toEqual({ keyWrap: keys!.keyWrap, holder: 'owner', keyId: null });
    const { device, user } = await recipientSignedIn(t, anna.email, anna.card);
    const forAnna = (await device.get(`/api/videos/${videoId}/playback`)).json<TPlayback>();
    expect(forAnna.sealed).toEqual({
      keyWrap: keys!.recipientKeyWrap,
      holder: 'recipient',
      keyId: anna.card.keyId,
    });
    // Anna's browser opens it with nothing but her code: code → card → recipient key → content key.
    const recipientKey = await openCodeWrap(anna.email, anna.card.code, user.recipientKeys![0]!);
    const contentKey = await unwrapKey(
      forAnna.sealed!.keyWrap!,
      recipientKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(videoId, anna.card.keyId)),
      'content',
      { extractable: true },
    );
    const raw = async (key: CryptoKey) => Buffer.from(await crypto.subtle.exportKey('raw', key));
    expect((await raw(contentKey)).equals(await raw(keys!.contentKey))).toBe(true);
  });

  it('refuses a wrap for a recipient who has no card yet', async () => {
    const owner = await createSealedOwner(t);
    const { created } = await upload(owner, owner.nextOfKin.id, async (id: string) => {
      const stray = await makeSealedCard(owner.accountKey, owner.nextOfKin.email);
      const keys = await sealedKeys(owner.accountKey, stray, id);
      return { keyWrap: keys.keyWrap, recipientKeyWrap: keys.recipientKeyWrap };
    });
    expect(created.statusCode).toBe(409);
    expect(created.json().message).toBe(ENCRYPTION_MESSAGES.noCard);
  });
});
