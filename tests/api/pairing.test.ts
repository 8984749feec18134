import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, mobilePairings, users } from '../../src/server/db/schema';
import { compositeChecksumInput } from '../../src/shared/domain/composite-checksum';
import { createOnboardedUser, TestDevice, useTestApp } from '../setup/app';

// A phone paired for 15 minutes may send videos into the owner's library, and nothing else: it
// cannot list, read or delete, and every use is in the owner's log.

const ENDED = {
  code: 'UNAUTHENTICATED',
  message: 'This pairing has ended. Ask for a new code on your main device.',
};
const PART_BYTES = 64 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const t = useTestApp({ uploadPartBytes: PART_BYTES, admin: true });

async function paidOwner() {
  const owner = await createOnboardedUser(t);
  await t.db.update(users).set({ subscriptionTier: 'premium' }).where(eq(users.id, owner.user.id));
  return owner;
}

/** The phone: a device of its own and the token from the QR code's link. */
async function pairPhone(owner: Awaited<ReturnType<typeof paidOwner>>) {
  const created = await owner.device.post('/api/pairings');
  expect(created.statusCode).toBe(200);
  const { url, pairingId } = created.json<{ url: string; pairingId: string }>();
  const token = new URL(url).hash.replace('#pair=', '');
  const phone = await TestDevice.create(t.app);
  const headers = { 'x-pairing-token': token };
  return { phone, headers, token, pairingId };
}

/**
 * A phone sending one video whole; `byParts` as phones now do: no whole checksum declared, each
 * part's SHA-256 listed at completion.
 */
async function sendVideo(
  paired: Awaited<ReturnType<typeof pairPhone>>,
  recipientId: number,
  bytes: Buffer,
  title = 'Grandad at the seaside',
  byParts = false,
) {
  const { phone, headers } = paired;
  const id = randomUUID();
  const started = await phone.post(
    '/api/pairing/videos',
    {
      id,
      recipientId,
      title,
      durationMs: 4000,
      mimeType: 'video/mp4',
      byteSize: bytes.length,
      ...(byParts ? {} : { sha256: sha256(bytes) }),
    },
    headers,
  );
  if (started.statusCode !== 200) return { id, started };
  const upload = started.json<{ uploadId: string; partCount: number; partSize: number }>();
  const signed = await phone.post(
    `/api/uploads/${upload.uploadId}/sign`,
    { partNumbers: Array.from({ length: upload.partCount }, (_, index) => index + 1) },
    headers,
  );
  const parts = [];
  for (const part of signed.json<{ parts: Array<{ partNumber: number; url: string }> }>().parts) {
    const put = await phone.request({
      method: 'PUT',
      url: part.url,
      payload: bytes.subarray(
        (part.partNumber - 1) * upload.partSize,
        part.partNumber * upload.partSize,
      ),
      headers: { ...headers, 'content-type': 'application/octet-stream' },
    });
    const partBytes = bytes.subarray(
      (part.partNumber - 1) * upload.partSize,
      part.partNumber * upload.partSize,
    );
    parts.push({
      partNumber: part.partNumber,
      etag: put.headers.etag as string,
      ...(byParts ? { sha256: sha256(partBytes) } : {}),
    });
  }
  const completed = await phone.post(
    `/api/uploads/${upload.uploadId}/complete`,
    { parts },
    headers,
  );
  return { id, started, completed, uploadId: upload.uploadId };
}

describe('import from mobile', () => {
  it('lets a paired phone send a gallery video into the owner’s library, audited', async () => {
    const owner = await paidOwner();
    const paired = await pairPhone(owner);
    expect(paired.token.length).toBeGreaterThanOrEqual(40);
    const session = await paired.phone.get('/api/pairing', paired.headers);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({
      ownerFirstName: owner.user.firstName,
      recipients: [expect.objectContaining({ id: owner.nextOfKin.id, firstName: 'Susan' })],
    });

    const bytes = randomBytes(PART_BYTES + 99);
    const sent = await sendVideo(paired, owner.nextOfKin.id, bytes);
    expect(sent.completed!.statusCode).toBe(200);
    const library = (await owner.device.get('/api/videos')).json<
      Array<{ id: string; title: string; syncStatus: string }>
    >();
    expect(library).toEqual([
      expect.objectContaining({
        id: sent.id,
        title: 'Grandad at the seaside',
        syncStatus: 'synced',
      }),
    ]);
    expect((await owner.device.get('/api/pairings/current')).json()).toMatchObject({
      pairing: { id: paired.pairingId, uploadsCount: 1 },
    });
    const events = (
      await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id))
    ).map((row) => row.eventType);
    expect(events).toEqual(expect.arrayContaining(['pairing_created', 'pairing_video_received']));
    // The token is stored only as a hash.
    const [row] = await t.db
      .select()
      .from(mobilePairings)
      .where(eq(mobilePairings.id, paired.pairingId));
    expect(row!.tokenHash).toBe(createHash('sha256').update(paired.token).digest('hex'));
  });

  it('takes a gallery video sent part by part, never read whole on the phone: each part checked', async () => {
    const owner = await paidOwner();
    const paired = await pairPhone(owner);
    const bytes = randomBytes(PART_BYTES * 2 + 5);
    const sent = await sendVideo(paired, owner.nextOfKin.id, bytes, 'A long one', true);
    expect(sent.completed!.statusCode).toBe(200);
    const sums = [0, 1, 2].map((n) => sha256(bytes.subarray(n * PART_BYTES, (n + 1) * PART_BYTES)));
    const composite = sha256(Buffer.from(compositeChecksumInput(sums)));
    expect((await owner.device.get('/api/videos')).json()).toEqual([
      expect.objectContaining({ id: sent.id, syncStatus: 'synced', sha256: composite }),
    ]);
  });

  it('grants upload only: no list, no watching, no deleting, no recipients', async () => {
    const owner = await paidOwner();
    const paired = await pairPhone(owner);
    const sent = await sendVideo(paired, owner.nextOfKin.id, randomBytes(500));
    const { phone, headers } = paired;
    expect((await phone.get('/api/videos', headers)).statusCode).toBe(401);
    expect((await phone.get(`/api/videos/${sent.id}/playback`, headers)).statusCode).toBe(401);
    expect(
      (
        await phone.request({
          method: 'DELETE',
          url: '/api/videos',
          payload: { ids: [sent.id] },
          headers,
        })
      ).statusCode,
    ).toBe(401);
    expect((await phone.get('/api/recipients', headers)).statusCode).toBe(401);
    expect((await phone.get('/api/cloud/status', headers)).statusCode).toBe(401);
    expect((await phone.post('/api/pairings', {}, headers)).statusCode).toBe(401);
  });

  it('ends when it expires or is cancelled, and never reaches another account', async () => {
    const owner = await paidOwner();
    const paired = await pairPhone(owner);
    const other = await paidOwner();
    const otherPaired = await pairPhone(other);
    // Another account's upload is out of reach of this pairing.
    const theirs = await otherPaired.phone.post(
      '/api/pairing/videos',
      {
        id: randomUUID(),
        recipientId: other.nextOfKin.id,
        title: 'Theirs',
        durationMs: 1000,
        mimeType: 'video/mp4',
        byteSize: 10,
        sha256: sha256(Buffer.from('x')),
      },
      otherPaired.headers,
    );
    const foreign = await paired.phone.post(
      `/api/uploads/${theirs.json().uploadId}/sign`,
      { partNumbers: [1] },
      paired.headers,
    );
    expect(foreign.statusCode).toBe(404);
    // Another account's recipient is refused too.
    const wrongRecipient = await sendVideo(paired, other.nextOfKin.id, randomBytes(10));
    expect(wrongRecipient.started.statusCode).toBe(404);

    expect((await owner.device.delete(`/api/pairings/${paired.pairingId}`)).statusCode).toBe(204);
    expect((await paired.phone.get('/api/pairing', paired.headers)).json()).toEqual(ENDED);

    const again = await pairPhone(owner);
    await t.db
      .update(mobilePairings)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(mobilePairings.id, again.pairingId));
    expect((await again.phone.get('/api/pairing', again.headers)).json()).toEqual(ENDED);
    expect(
      (await again.phone.get('/api/pairing', { 'x-pairing-token': 'made-up' })).json(),
    ).toEqual(ENDED);
    expect((await again.phone.get('/api/pairing')).json()).toEqual(ENDED);
    const cancelled = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(eq(auditLogs.userId, owner.user.id), eq(auditLogs.eventType, 'pairing_cancelled')),
      );
    expect(cancelled).toHaveLength(1);
  });

  it('is for paid plans on the primary device, and answers bad input plainly', async () => {
    const free = await createOnboardedUser(t);
    const refused = await free.device.post('/api/pairings');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('UPGRADE_REQUIRED');
    const anonymous = await TestDevice.create(t.app);
    expect((await anonymous.post('/api/pairings')).statusCode).toBe(401);

    const owner = await paidOwner();
    const paired = await pairPhone(owner);
    const bad = await paired.phone.post(
      '/api/pairing/videos',
      { id: 'x', recipientId: 'y', title: '', mimeType: 'text/html' },
      paired.headers,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION');
    expect((await owner.device.delete('/api/pairings/not-a-uuid')).json().message).toBe(
      'Pairing id must be a UUID',
    );
    expect((await owner.device.delete(`/api/pairings/${randomUUID()}`)).statusCode).toBe(404);
  });
});
