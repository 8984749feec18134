import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/shared/domain/errors';
import { ESCROW_MESSAGES, type TEscrowOpened } from '../../src/shared/schemas/escrow';
import { codeKdfParams, splitSecret, unwrapKey } from '../../src/shared/sealing';
import { toBase64Url } from '../../src/shared/sealing/bytes';
import { GOOD_PASSWORD, TestClock, TestDevice, createSessionFor, useTestApp } from '../setup/app';
import { codeProof, makeSealedCard } from '../setup/encryption';
import {
  addWithCard,
  createSealedOwner,
  giveNextOfKinCard,
  labelOf,
  takenOver,
  type KinCard,
  person,
  recipientSignedIn,
} from './support/cards';
import { deliverMailTo } from './support/mail';
import { signInWithCode } from './support/recipients';

// The next of kin's escrow: the owner's browser wraps the account key under the key half of the
// next of kin's emergency code. The server hands it over only once the owner's legacy is released
// (a request's waiting period ran out without a cancel), to the next of kin or to the owner's own
// account (taken over at break-glass), never to an admin, a phone or anyone else; the database
// holds nothing that opens without the code.

const DAY_MS = 24 * 3600_000;
const NEW_PASSWORD = 'Daffodils&Jam-2027';
const clock = new TestClock();
const t = useTestApp({
  mail: true,
  admin: true,
  clock,
  env: { ENHANCED_ENCRYPTION: 'true' },
});

const openEscrow = (device: TestDevice, kin: KinCard, codeProof = kin.proof) =>
  device.post('/api/escrow/open', { nextOfKinEmail: kin.email, codeProof });

/** The next of kin asks, nobody cancels, the waiting period (7 days) runs out. */
async function releaseLegacy(kinDevice: TestDevice, kin: KinCard) {
  expect((await kinDevice.post('/api/legacy/requests', { codeProof: kin.proof })).statusCode).toBe(
    201,
  );
  await t.app.jobs.runLegacyWork(new Date(clock.now().getTime() + 8 * DAY_MS));
  clock.advance(8 * DAY_MS);
}

const rawOf = async (key: CryptoKey) =>
  toBase64Url(new Uint8Array(await crypto.subtle.exportKey('raw', key)));

describe('the next of kin’s escrow', () => {
  it('is refused before the waiting period and after a cancel; handed over after; opens with the code only', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    let { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    const refused = await openEscrow(kinPhone, kin);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ESCROW_MESSAGES.notReleased);

    // Asked for, and still waiting; the owner is told the card would then open everything.
    expect((await kinPhone.post('/api/legacy/requests', { codeProof: kin.proof })).statusCode).toBe(
      201,
    );
    const mail = await deliverMailTo(
      t,
      owner.user.email,
      /has asked to release your Memento legacy$/,
    );
    expect(mail.text).toContain('emergency card will also open all your sealed messages');
    clock.advance(3 * DAY_MS);
    expect((await openEscrow(kinPhone, kin)).statusCode).toBe(403);

    // The owner cancels: the time it would have run out passes, and still nothing.
    expect((await owner.device.post('/api/legacy/cancel')).statusCode).toBe(200);
    await t.app.jobs.runLegacyWork(new Date(clock.now().getTime() + 8 * DAY_MS));
    clock.advance(8 * DAY_MS);
    expect((await openEscrow(kinPhone, kin)).statusCode).toBe(403);

    // A month on they ask again (signed in afresh), and nobody cancels.
    clock.advance(31 * DAY_MS);
    ({ device: kinPhone } = await recipientSignedIn(t, kin.email, kin));
    await releaseLegacy(kinPhone, kin);
    const wrong = await openEscrow(
      kinPhone,
      kin,
      (await makeSealedCard(owner.accountKey, kin.email)).proof,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(MESSAGES.breakGlassInvalid);
    const opened = await openEscrow(kinPhone, kin);
    expect(opened.statusCode).toBe(200);
    const body = opened.json<TEscrowOpened>();
    expect(body).toEqual({ ownerId: owner.user.id, keyId: kin.keyId, escrowWrap: kin.escrowWrap });

    // The code's key half opens it, to the very account key; nothing else does.
    const { keyHalf } = await splitSecret('code', kin.code, await codeKdfParams(kin.email));
    const label = labelOf(body.ownerId, body.keyId);
    const accountKey = await unwrapKey(body.escrowWrap, keyHalf, label, 'wrapping', {
      extractable: true,
    });
    expect(await rawOf(accountKey)).toBe(await rawOf(owner.accountKey));
    const other = await makeSealedCard(owner.accountKey, kin.email);
    const { keyHalf: otherHalf } = await splitSecret(
      'code',
      other.code,
      await codeKdfParams(kin.email),
    );
    await expect(unwrapKey(body.escrowWrap, otherHalf, label, 'wrapping')).rejects.toThrow();

    // Both logs say so.
    const rows = await t.db.execute(sql`select user_id, successful from audit_logs
      where event_type = 'next_of_kin_key_opened' and user_id in (${owner.user.id}, ${owner.nextOfKin.id})`);
    const logged = (rows as unknown as { rows: { user_id: number; successful: boolean }[] }).rows;
    expect(
      logged
        .filter((row) => row.successful)
        .map((row) => row.user_id)
        .sort(),
    ).toEqual([owner.user.id, owner.nextOfKin.id].sort((a, b) => a - b));
    expect(logged.filter((row) => !row.successful).length).toBeGreaterThanOrEqual(3);

    // The owner, alive after all (signed in again since), ends the release: withheld again.
    await createSessionFor(t, {
      userId: owner.user.id,
      device: owner.device,
      method: 'username_password',
    });
    expect((await owner.device.post('/api/legacy/end')).statusCode).toBe(200);
    expect((await openEscrow(kinPhone, kin)).statusCode).toBe(403);
  });

  it('goes to nobody else: an admin, another owner, a recipient, a signed-out device, another email', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    const anna = await addWithCard(owner);
    const { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    await releaseLegacy(kinPhone, kin);

    // The installation's admin, signed in afresh (the clock moved past their session).
    await createSessionFor(t, {
      userId: t.admin.user.id,
      device: t.admin.device,
      method: 'username_password',
    });
    const admin = await openEscrow(t.admin.device, kin);
    expect(admin.statusCode).toBe(403);
    const stranger = await createSealedOwner(t);
    const otherOwner = await openEscrow(stranger.device, kin);
    expect(otherOwner.statusCode).toBe(400);
    expect(otherOwner.json().message).toBe(MESSAGES.breakGlassInvalid);
    const { device: annaPhone } = await recipientSignedIn(t, anna.email, anna.card);
    expect((await openEscrow(annaPhone, kin)).statusCode).toBe(403);
    const signedOut = await TestDevice.create(t.app);
    expect((await openEscrow(signedOut, kin)).statusCode).toBe(401);
    const asSomeoneElse = await kinPhone.post('/api/escrow/open', {
      nextOfKinEmail: anna.email,
      codeProof: kin.proof,
    });
    expect(asSomeoneElse.statusCode).toBe(403);
    expect(asSomeoneElse.json().message).toBe(ESCROW_MESSAGES.ownEmail);
    const malformed = await kinPhone.post('/api/escrow/open', { nextOfKinEmail: kin.email });
    expect(malformed.statusCode).toBe(400);
    expect((await openEscrow(kinPhone, kin)).statusCode).toBe(200);
  });

  it('survives break-glass: the owner’s account, signed in with the new password, opens it with the card', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    const { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    await releaseLegacy(kinPhone, kin);
    await takenOver(t, owner, kin, NEW_PASSWORD);
    const tablet = owner.device;
    const opened = await openEscrow(tablet, kin);
    expect(opened.statusCode).toBe(200);
    expect(opened.json<TEscrowOpened>().escrowWrap).toBe(kin.escrowWrap);
    // Nothing else changed: the wraps of the account key are the ones it was turned on with.
    const state = await tablet.get('/api/encryption');
    expect(state.json()).toMatchObject({ state: 'on', recoveryWrap: expect.any(String) });
  });

  it('is not there for a code the server made, nor for the card of anyone but the next of kin', async () => {
    const owner = await createSealedOwner(t);
    const phone = await TestDevice.create(t.app);
    expect((await signInWithCode(phone, owner.nextOfKin)).statusCode).toBe(200);
    expect(
      (
        await phone.post('/api/legacy/requests', {
          emergencyCode: owner.nextOfKin.emergencyAccessCode,
        })
      ).statusCode,
    ).toBe(201);
    await t.app.jobs.runLegacyWork(new Date(clock.now().getTime() + 8 * DAY_MS));
    clock.advance(8 * DAY_MS);
    const typed = await phone.post('/api/escrow/open', {
      nextOfKinEmail: owner.nextOfKin.email,
      codeProof: await codeProof(owner.nextOfKin.email, owner.nextOfKin.emergencyAccessCode),
    });
    expect(typed.statusCode).toBe(409);
    expect(typed.json().message).toBe(ESCROW_MESSAGES.noEscrow);

    const who = person();
    const card = await makeSealedCard(owner.accountKey, who.email);
    const added = await owner.device.post('/api/recipients', {
      ...who,
      sealedCard: { ...card.body, escrowWrap: card.body.ownerWrap },
    });
    expect(added.statusCode).toBe(400);
    expect(added.json().message).toBe(ESCROW_MESSAGES.nextOfKinCardOnly);
  });

  it('a new card for the next of kin replaces the escrow: the old code opens nothing', async () => {
    const owner = await createSealedOwner(t);
    const old = await giveNextOfKinCard(owner);
    const kin = await giveNextOfKinCard(owner);
    const { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    await releaseLegacy(kinPhone, kin);
    expect((await openEscrow(kinPhone, old)).statusCode).toBe(400);
    expect((await openEscrow(kinPhone, kin)).json<TEscrowOpened>().escrowWrap).toBe(kin.escrowWrap);
  });

  it('the database never holds the emergency code, its proof, or the account key in the clear', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    const { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    await releaseLegacy(kinPhone, kin);
    expect((await openEscrow(kinPhone, kin)).statusCode).toBe(200);

    const tables = await t.db.execute(sql`select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const names = (tables as unknown as { rows: { table_name: string }[] }).rows.map(
      (row) => row.table_name,
    );
    expect(names).toContain('recipient_keys');
    let everything = '';
    for (const name of names) {
      const rows = await t.db.execute(
        sql`select coalesce(json_agg(t)::text, '') as all from ${sql.identifier(name)} t`,
      );
      everything += (rows as unknown as { rows: { all: string }[] }).rows[0]?.all ?? '';
    }
    expect(everything).toContain(kin.escrowWrap);
    const raw = new Uint8Array(await crypto.subtle.exportKey('raw', owner.accountKey));
    const secrets = [
      kin.code,
      kin.code.replace(/-/g, ''),
      kin.proof,
      toBase64Url(raw),
      Buffer.from(raw).toString('base64'),
      Buffer.from(raw).toString('hex'),
      GOOD_PASSWORD,
    ];
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });
});
