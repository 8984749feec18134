import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, keyRecoveries } from '../../src/server/db/schema';
import { WRAP_LABEL_PARTS } from '../../src/shared/schemas/encryption';
import {
  ESCROW_MESSAGES,
  type TEscrowOpened,
  type TKeyRecoveryState,
} from '../../src/shared/schemas/escrow';
import {
  codeKdfParams,
  splitSecret,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '../../src/shared/sealing';
import { TestClock, TestDevice, useTestApp } from '../setup/app';
import {
  createSealedOwner,
  giveNextOfKinCard,
  labelOf,
  recipientSignedIn,
  takenOver,
  type KinCard,
} from './support/cards';
import { deliverMailTo } from './support/mail';

// Key recovery: an owner who lost their password, every device and the recovery sheet, signed in
// again with the password their next of kin set at break-glass, asks for the next of kin's card
// to open their sealed messages. It opens only after the owner's waiting period, the owner is
// emailed a link that stops it, it serves only the owner's own account, and it closes by itself
// once the owner gets back in another way.

const DAY_MS = 24 * 3600_000;
const NEW_PASSWORD = 'Daffodils&Jam-2027';
const clock = new TestClock();
// With an admin of its own, so no owner here is the installation's first account (its admin).
const t = useTestApp({
  mail: true,
  admin: true,
  clock,
  env: { ENHANCED_ENCRYPTION: 'true' },
});

const withCard = (kin: KinCard, codeProof = kin.proof) => ({
  nextOfKinEmail: kin.email,
  codeProof,
});

async function recoveryRows(ownerId: number) {
  return t.db.select().from(keyRecoveries).where(eq(keyRecoveries.ownerId, ownerId));
}

/** The token of the stop link in the owner's email (it rides in the fragment). */
function stopTokenIn(mail: { text: string }): string {
  const match = mail.text.match(/\/key-recovery\/cancel#([A-Za-z0-9_-]+)/);
  expect(match).not.toBeNull();
  return match![1]!;
}

describe('key recovery with the next of kin’s card', () => {
  it('opens the owner’s own account once the waiting period ends, never before, and tells everyone', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    await takenOver(t, owner, kin, NEW_PASSWORD);
    const tablet = owner.device;

    const early = await tablet.post('/api/escrow/open', withCard(kin));
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({
      message: ESCROW_MESSAGES.recoveryNotStarted,
      fields: { keyRecovery: 'none' },
    });
    const askedAt = clock.now().getTime();
    const started = await tablet.post('/api/escrow/recovery', withCard(kin));
    expect(started.statusCode).toBe(200);
    const state = started.json<TKeyRecoveryState>();
    expect(state.waitingDays).toBe(7);
    expect(state.recovery?.status).toBe('waiting');
    const opensAt = new Date(state.recovery!.opensAt).getTime();
    expect(opensAt - askedAt).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(opensAt - clock.now().getTime()).toBeLessThanOrEqual(7 * DAY_MS);
    // A second press answers the same wait: one row, one set of emails.
    const again = await tablet.post('/api/escrow/recovery', withCard(kin));
    expect(again.json<TKeyRecoveryState>().recovery?.opensAt).toBe(state.recovery!.opensAt);
    expect(await recoveryRows(owner.user.id)).toHaveLength(1);

    const ownerMail = await deliverMailTo(
      t,
      owner.user.email,
      'Someone asked to open your sealed Memento messages',
    );
    expect(ownerMail.text).toContain('Stop this key recovery');
    await deliverMailTo(t, kin.email, /^Your emergency card was used to recover/);

    clock.advance(7 * DAY_MS - 60_000);
    const waiting = await tablet.post('/api/escrow/open', withCard(kin));
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json().fields).toEqual({ keyRecovery: 'waiting' });
    expect(waiting.json().message).toMatch(
      /^Your next of kin’s card opens your messages on \w+day/,
    );

    clock.advance(2 * 60_000);
    expect(
      (await tablet.get('/api/escrow/recovery')).json<TKeyRecoveryState>().recovery?.status,
    ).toBe('open');
    const opened = await tablet.post('/api/escrow/open', withCard(kin));
    expect(opened.statusCode).toBe(200);
    const { escrowWrap, keyId } = opened.json<TEscrowOpened>();
    // Only the card's key half (never sent) opens what was handed over: the account key itself.
    const { keyHalf } = await splitSecret('code', kin.code, await codeKdfParams(kin.email));
    const accountKey = await unwrapKey(
      escrowWrap,
      keyHalf,
      labelOf(owner.user.id, keyId),
      'wrapping',
      {
        extractable: true,
      },
    );
    const raw = async (key: CryptoKey) => Buffer.from(await crypto.subtle.exportKey('raw', key));
    expect((await raw(accountKey)).equals(await raw(owner.accountKey))).toBe(true);

    // It serves the owner's account, not the next of kin's own: theirs waits for a legacy release.
    const { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    const kinOpen = await kinPhone.post('/api/escrow/open', withCard(kin));
    expect(kinOpen.statusCode).toBe(403);
    expect(kinOpen.json().message).toBe(ESCROW_MESSAGES.notReleased);
    const log = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(log.map((row) => row.eventType)).toEqual(
      expect.arrayContaining(['key_recovery_requested', 'next_of_kin_key_opened']),
    );
  });

  it('stops with one click from the owner’s email; the link works once; the next of kin is told', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    await takenOver(t, owner, kin, NEW_PASSWORD);
    expect((await owner.device.post('/api/escrow/recovery', withCard(kin))).statusCode).toBe(200);
    const token = stopTokenIn(
      await deliverMailTo(
        t,
        owner.user.email,
        'Someone asked to open your sealed Memento messages',
      ),
    );
    const anonymous = await TestDevice.create(t.app);
    expect((await anonymous.post('/api/escrow/recovery/cancel-link', {})).statusCode).toBe(400);
    const wrong = await anonymous.post('/api/escrow/recovery/cancel-link', {
      token: 'x'.repeat(43),
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe(ESCROW_MESSAGES.noRecoveryWaiting);
    const stopped = await anonymous.post('/api/escrow/recovery/cancel-link', { token });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({ ownerFirstName: 'Margaret' });
    expect((await anonymous.post('/api/escrow/recovery/cancel-link', { token })).statusCode).toBe(
      404,
    );
    await deliverMailTo(t, kin.email, 'Margaret has stopped the recovery of their messages');

    clock.advance(8 * DAY_MS);
    const open = await owner.device.post('/api/escrow/open', withCard(kin));
    expect(open.statusCode).toBe(403);
    expect(open.json().fields).toEqual({ keyRecovery: 'none' });
    expect((await recoveryRows(owner.user.id))[0]).toMatchObject({ status: 'cancelled' });
    const log = await t.db.select().from(auditLogs).where(eq(auditLogs.userId, owner.user.id));
    expect(log.map((row) => row.eventType)).toContain('key_recovery_cancelled');
  });

  it('is the owner’s account’s to ask, with the right card; it closes once the new password opens the key', async () => {
    const owner = await createSealedOwner(t);
    const kin = await giveNextOfKinCard(owner);
    const newPassword = await takenOver(t, owner, kin, NEW_PASSWORD);
    const { device: kinPhone } = await recipientSignedIn(t, kin.email, kin);
    const byKin = await kinPhone.post('/api/escrow/recovery', withCard(kin));
    expect(byKin.statusCode).toBe(403);
    expect(byKin.json().message).toBe(ESCROW_MESSAGES.recoveryOwnerOnly);
    const guess = await owner.device.post('/api/escrow/recovery', withCard(kin, 'a'.repeat(43)));
    expect(guess.statusCode).toBe(400);
    expect(await recoveryRows(owner.user.id)).toHaveLength(0);

    expect((await owner.device.post('/api/escrow/recovery', withCard(kin))).statusCode).toBe(200);
    // The owner finds the recovery sheet after all: their browser, holding the key again, wraps it
    // under the new password, and the recovery has nothing left to do.
    const { keyHalf } = await splitSecret(
      'password',
      NEW_PASSWORD,
      newPassword.body.newPasswordKdf,
    );
    const passwordWrap = await wrapKey(
      owner.accountKey,
      keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(owner.user.id)),
    );
    const renewed = await owner.device.request({
      method: 'PUT',
      url: '/api/encryption/password-wrap',
      payload: { passwordProof: newPassword.signInProof, passwordWrap },
    });
    expect(renewed.statusCode).toBe(200);
    expect((await owner.device.get('/api/escrow/recovery')).json()).toEqual({
      recovery: null,
      waitingDays: 7,
    });
    expect((await recoveryRows(owner.user.id))[0]).toMatchObject({ status: 'closed' });
    const stop = await owner.device.post('/api/escrow/recovery/cancel');
    expect(stop.statusCode).toBe(404);
    expect(stop.json().message).toBe(ESCROW_MESSAGES.noRecoveryWaiting);
  });
});
