import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mobilePairings, uploads, videos } from '../../src/server/db/schema';
import {
  ENCRYPTION_MESSAGES,
  WRAP_LABEL_PARTS,
  type TWaitingPhoneCopy,
} from '../../src/shared/schemas/encryption';
import type { TPlayback } from '../../src/shared/schemas/cloud';
import type { TVideoIndexEntry } from '../../src/shared/schemas/videos';
import {
  generateContentKey,
  generateWrappingKey,
  openStream,
  sealedSize,
  sealPart,
  startSealing,
  unwrapKey,
  wrapKey,
} from '../../src/shared/sealing';
import { toBase64Url } from '../../src/shared/sealing/bytes';
import { createOnboardedUser, setTier, TestDevice, useTestApp } from '../setup/app';
import { makeSealedCard, turnOn } from '../setup/encryption';
import {
  holdsRecordingBytes,
  label,
  recordRequests,
  rewrap,
  someWrap,
} from './support/phone-sealing';

// Import from a phone in an account with enhanced encryption on: the phone seals each video under
// its own content key, wrapped under the pairing key it got in the link's fragment; the owner's
// unlocked device wraps that key again for the owner and the recipient's card. The server keeps
// only sealed bytes and wraps, and never sees the pairing key.

// One sealed segment a part, as the browser's parts hold whole segments.
const PART_BYTES = 256 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const t = useTestApp({
  env: { ENHANCED_ENCRYPTION: 'true' },
  uploadPartBytes: PART_BYTES,
  admin: true,
});

/** A paid owner with it on, and a card for their next of kin made on their device. */
async function sealedOwner() {
  const owner = await createOnboardedUser(t);
  await setTier(t, owner.user.id, 'premium');
  const sent = recordRequests(owner.device);
  const accountKey = await turnOn(owner.device, owner.user.id);
  const card = await makeSealedCard(accountKey, owner.nextOfKin.email);
  const carded = await owner.device.post(
    `/api/recipients/${owner.nextOfKin.id}/sealed-card`,
    card.body,
  );
  expect(carded.statusCode).toBe(200);
  return { ...owner, accountKey, card, sent };
}
type TOwner = Awaited<ReturnType<typeof sealedOwner>>;

/** The owner's device pairs a phone: the pairing key goes to the server only wrapped. */
async function pairPhone(owner: TOwner) {
  const pairingKey = await generateWrappingKey({ extractable: true });
  const keyId = randomUUID();
  const ownerWrap = await wrapKey(
    pairingKey,
    owner.accountKey,
    label(WRAP_LABEL_PARTS.pairingByOwner(keyId)),
  );
  const created = await owner.device.post('/api/pairings', { pairingKey: { keyId, ownerWrap } });
  expect(created.statusCode).toBe(200);
  const { url, pairingId } = created.json<{ url: string; pairingId: string }>();
  const token = new URL(url).hash.replace('#pair=', '');
  const phone = await TestDevice.create(t.app);
  const sent = recordRequests(phone);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pairingKey));
  return {
    phone,
    sent,
    headers: { 'x-pairing-token': token },
    pairingId,
    keyId,
    pairingKey,
    fragmentKey: toBase64Url(raw),
  };
}
type TPaired = Awaited<ReturnType<typeof pairPhone>>;

function videoFields(id: string, recipientId: number, byteSize: number) {
  return {
    id,
    recipientId,
    title: 'Grandad at the seaside',
    durationMs: 4000,
    mimeType: 'video/mp4',
    byteSize,
  };
}

/** The phone seals the recording as the browser does, part by part, and sends it. */
async function sendSealed(paired: TPaired, recipientId: number, recording: Buffer) {
  const { phone, headers } = paired;
  const id = randomUUID();
  const contentKey = await generateContentKey();
  const sealing = startSealing({
    key: contentKey,
    messageId: id,
    plaintextLength: recording.length,
  });
  const pairingKeyWrap = await wrapKey(
    contentKey,
    paired.pairingKey,
    label(WRAP_LABEL_PARTS.contentForPairing(id, paired.keyId)),
  );
  const started = await phone.post(
    '/api/pairing/videos',
    {
      ...videoFields(id, recipientId, sealedSize(recording.length)),
      sealed: { pairingKeyWrap },
    },
    headers,
  );
  expect(started.statusCode).toBe(200);
  const upload = started.json<{ uploadId: string; partCount: number; partSize: number }>();
  const numbers = Array.from({ length: upload.partCount }, (_, index) => index + 1);
  const signed = await phone.post(
    `/api/uploads/${upload.uploadId}/sign`,
    { partNumbers: numbers },
    headers,
  );
  const parts = [];
  const sealedParts: Uint8Array[] = [];
  const blob = new Blob([new Uint8Array(recording)]);
  for (const part of signed.json<{ parts: Array<{ partNumber: number; url: string }> }>().parts) {
    const bytes = await sealPart(sealing, blob, part.partNumber, upload.partSize);
    sealedParts.push(bytes);
    const put = await phone.request({
      method: 'PUT',
      url: part.url,
      payload: Buffer.from(bytes),
      headers: { ...headers, 'content-type': 'application/octet-stream' },
    });
    expect(put.statusCode).toBe(200);
    parts.push({
      partNumber: part.partNumber,
      etag: put.headers.etag as string,
      sha256: sha256(bytes),
    });
  }
  const completed = await phone.post(
    `/api/uploads/${upload.uploadId}/complete`,
    { parts },
    headers,
  );
  expect(completed.statusCode).toBe(200);
  return { id, pairingKeyWrap, sealed: Buffer.concat(sealedParts) };
}

async function fetchObject(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

describe('pairing a phone with enhanced encryption on', () => {
  it('takes the pairing key only wrapped, refuses a pairing without it, and tells the phone to seal', async () => {
    const owner = await sealedOwner();
    const bare = await owner.device.post('/api/pairings');
    expect(bare.statusCode).toBe(409);
    expect(bare.json()).toEqual({
      code: 'CONFLICT',
      message: ENCRYPTION_MESSAGES.pairingKeyRequired,
    });
    const badWrap = await owner.device.post('/api/pairings', {
      pairingKey: { keyId: randomUUID(), ownerWrap: 'v1.x.y' },
    });
    expect(badWrap.statusCode).toBe(400);
    expect(badWrap.json().fields).toEqual({ 'pairingKey.ownerWrap': ENCRYPTION_MESSAGES.badWrap });

    const paired = await pairPhone(owner);
    const [row] = await t.db
      .select()
      .from(mobilePairings)
      .where(eq(mobilePairings.id, paired.pairingId));
    expect(row).toMatchObject({ keyId: paired.keyId, keyWrap: expect.stringMatching(/^v1\./) });
    const session = await paired.phone.get('/api/pairing', paired.headers);
    expect(session.json()).toMatchObject({ pairingKeyId: paired.keyId });
  });

  it('refuses a pairing key from an account that does not seal', async () => {
    const plain = await createOnboardedUser(t);
    await setTier(t, plain.user.id, 'premium');
    const res = await plain.device.post('/api/pairings', {
      pairingKey: { keyId: randomUUID(), ownerWrap: await someWrap() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ pairingKey: ENCRYPTION_MESSAGES.pairingKeyNotOn });
    expect(
      await t.db.select().from(mobilePairings).where(eq(mobilePairings.userId, plain.user.id)),
    ).toEqual([]);
  });
});

describe('a video from a phone in a sealed account', () => {
  it('refuses a plain one with a clear message, keeping nothing', async () => {
    const owner = await sealedOwner();
    const paired = await pairPhone(owner);
    const bytes = randomBytes(5000);
    const id = randomUUID();
    const sent = await paired.phone.post(
      '/api/pairing/videos',
      { ...videoFields(id, owner.nextOfKin.id, bytes.length), sha256: sha256(bytes) },
      paired.headers,
    );
    expect(sent.statusCode).toBe(409);
    expect(sent.json()).toEqual({ code: 'CONFLICT', message: ENCRYPTION_MESSAGES.phoneMustSeal });
    expect(await t.db.select().from(videos).where(eq(videos.id, id))).toEqual([]);
    expect(await t.db.select().from(uploads).where(eq(uploads.videoId, id))).toEqual([]);
  });

  it('keeps a sealed one waiting for the owner’s device, which seals it for the owner and the card', async () => {
    const owner = await sealedOwner();
    const paired = await pairPhone(owner);
    const recording = randomBytes(600 * 1024);
    const { id, pairingKeyWrap, sealed } = await sendSealed(paired, owner.nextOfKin.id, recording);

    const [waiting] = await t.db.select().from(videos).where(eq(videos.id, id));
    expect(waiting).toMatchObject({
      syncStatus: 'synced',
      sealedKeyWrap: null,
      pairingKeyWrap,
      pairingId: paired.pairingId,
      byteSize: sealed.length,
    });
    const list = await owner.device.get('/api/videos');
    const entry = list.json<TVideoIndexEntry[]>().find((video) => video.id === id);
    expect(entry).toMatchObject({ syncStatus: 'synced', isWaitingToBeSealed: true });
    const early = await owner.device.get(`/api/videos/${id}/playback`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(ENCRYPTION_MESSAGES.waitingToBeSealed);

    const listed = await owner.device.get('/api/phone-copies');
    expect(listed.statusCode).toBe(200);
    const [copy, ...others] = listed.json<{ copies: TWaitingPhoneCopy[] }>().copies;
    expect(others).toEqual([]);
    expect(copy).toMatchObject({
      videoId: id,
      pairingKeyWrap,
      pairingKey: { keyId: paired.keyId },
      recipientKey: { keyId: owner.card.keyId },
    });
    const wraps = await rewrap(owner, copy!);
    const done = await owner.device.post(`/api/phone-copies/${id}/seal`, wraps);
    expect(done.statusCode).toBe(200);
    const [converted] = await t.db.select().from(videos).where(eq(videos.id, id));
    expect(converted).toMatchObject({
      sealedKeyWrap: wraps.keyWrap,
      pairingKeyWrap: null,
      recipientKeyWrap: wraps.recipientKey!.keyWrap,
      recipientKeyId: owner.card.keyId,
    });
    expect((await owner.device.get('/api/phone-copies')).json()).toEqual({ copies: [] });
    const again = await owner.device.post(`/api/phone-copies/${id}/seal`, wraps);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(ENCRYPTION_MESSAGES.notWaitingToBeSealed);

    // The stored object is the phone's sealed bytes, and opens to the recording for the owner.
    const playback = (await owner.device.get(`/api/videos/${id}/playback`)).json<TPlayback>();
    expect(playback.sealed).toMatchObject({ keyWrap: wraps.keyWrap, holder: 'owner' });
    const stored = await fetchObject(playback.url);
    expect(stored.equals(sealed)).toBe(true);
    expect(holdsRecordingBytes(stored, recording)).toBe(false);
    const contentKey = await unwrapKey(
      wraps.keyWrap,
      owner.accountKey,
      label(WRAP_LABEL_PARTS.contentForOwner(id)),
      'content',
    );
    const opened = await new Response(
      openStream(contentKey, new Blob([new Uint8Array(stored)]).stream(), id),
    ).arrayBuffer();
    expect(Buffer.from(opened).equals(recording)).toBe(true);

    // Neither the owner's device nor the phone ever sent the pairing key.
    for (const request of [...owner.sent, ...paired.sent]) {
      expect(request.text).not.toContain(paired.fragmentKey);
      expect(request.url).not.toContain(paired.fragmentKey);
    }
    const kept = await t.db.execute(
      sql`select row_to_json(p)::text as "text" from mobile_pairings p where id = ${paired.pairingId}`,
    );
    expect(JSON.stringify(kept)).not.toContain(paired.fragmentKey);
  });

  it('lets no other account, nor the phone, list, seal or watch it', async () => {
    const owner = await sealedOwner();
    const paired = await pairPhone(owner);
    const { id } = await sendSealed(paired, owner.nextOfKin.id, randomBytes(300 * 1024));
    const [copy] = (await owner.device.get('/api/phone-copies')).json<{
      copies: TWaitingPhoneCopy[];
    }>().copies;
    const wraps = await rewrap(owner, copy!);

    const stranger = await sealedOwner();
    expect((await stranger.device.get('/api/phone-copies')).json()).toEqual({ copies: [] });
    const theirs = await stranger.device.post(`/api/phone-copies/${id}/seal`, {
      keyWrap: wraps.keyWrap,
    });
    expect(theirs.statusCode).toBe(404);
    expect((await stranger.device.get(`/api/videos/${id}/playback`)).statusCode).toBe(404);

    const byPhone = await paired.phone.get('/api/phone-copies', paired.headers);
    expect(byPhone.statusCode).toBe(401);
    const sealByPhone = await paired.phone.post(
      `/api/phone-copies/${id}/seal`,
      { keyWrap: wraps.keyWrap },
      paired.headers,
    );
    expect(sealByPhone.statusCode).toBe(401);
    expect((await paired.phone.get(`/api/videos/${id}/playback`, paired.headers)).statusCode).toBe(
      401,
    );

    // A wrap for a card that is no longer the recipient's is refused; the copy still waits.
    const stale = await owner.device.post(`/api/phone-copies/${id}/seal`, {
      ...wraps,
      recipientKey: { ...wraps.recipientKey!, keyId: randomUUID() },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(ENCRYPTION_MESSAGES.cardChanged);
    const [still] = await t.db.select().from(videos).where(eq(videos.id, id));
    expect(still).toMatchObject({ sealedKeyWrap: null, pairingKeyWrap: copy!.pairingKeyWrap });
  });

  it('refuses a sealed one for an account that does not seal', async () => {
    const plain = await createOnboardedUser(t);
    await setTier(t, plain.user.id, 'premium');
    const created = await plain.device.post('/api/pairings');
    expect(created.statusCode).toBe(200);
    const token = new URL(created.json<{ url: string }>().url).hash.replace('#pair=', '');
    const phone = await TestDevice.create(t.app);
    const id = randomUUID();
    const sent = await phone.post(
      '/api/pairing/videos',
      {
        ...videoFields(id, plain.nextOfKin.id, sealedSize(1000)),
        sealed: { pairingKeyWrap: await someWrap() },
      },
      { 'x-pairing-token': token },
    );
    expect(sent.statusCode).toBe(409);
    expect(sent.json().message).toBe(ENCRYPTION_MESSAGES.phoneSealNotOn);
    expect(await t.db.select().from(videos).where(eq(videos.id, id))).toEqual([]);
  });
});
