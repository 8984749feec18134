import { MESSAGES } from '../../../shared/domain/errors';
import type { TRecipientKeyForRecipient } from '../../../shared/schemas/encryption';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
} from '../audit/attempt-guard';
import { throttledMessage } from '../audit/throttle-messages';
import { createSession, type SignedIn } from '../auth/auth.service';
import { deleteSession } from '../auth/sessions.repository';
import type { DeviceRow } from '../devices/devices.repository';
import { findRecipientsByEmail, updateUser } from '../users/users.repository';
import {
  codeNeeded,
  findCodeMatch,
  isLetterCodeExpired,
  isUnusedLetterCode,
  type TCodeGiven,
} from './access-codes';
import { findRecipientKey } from './recipient-keys.repository';

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

/**
 * A recipient signs in with their email and the access code they were given (method
 * email_access_code): its proof for a sealed card, or the code as typed. Throttled per email and
 * device and per email and address like break-glass, never across the whole email; every attempt
 * is written in the owner's log, because it concerns their account.
 */
export async function signInWithAccessCode(
  db: Db,
  context: RequestContext,
  input: {
    device: DeviceRow;
    email: string;
    given: TCodeGiven;
    previousSessionIdHash: string | null;
    now: Date;
  },
): Promise<SignedIn & { recipientKeys?: TRecipientKeyForRecipient[] }> {
  const candidates = await findRecipientsByEmail(db, input.email);

  const auditFailure = async (reason: string) => {
    if (candidates.length === 0) {
      await recordAudit(db, context, {
        eventType: 'login_failed',
        username: input.email,
        successful: false,
        details: { reason, method: 'email_access_code' },
      });
    }
    for (const { owner } of candidates) {
      await recordAudit(db, context, {
        eventType: 'login_failed',
        userId: owner.id,
        username: owner.username,
        successful: false,
        details: { reason, method: 'email_access_code', recipientEmail: input.email },
      });
    }
  };

  const isFamiliarSource = await isFamiliarDevice(
    db,
    candidates.map(({ recipient }) => recipient.id),
    input.device.id,
  );
  const slot = await reserveAttempt(db, {
    policy: ATTEMPT_POLICIES.accessCode,
    account: input.email,
    deviceId: input.device.id,
    ip: context.ip,
    isFamiliarSource,
    now: input.now,
  });
  if (!slot.isAllowed) {
    await auditFailure(`throttled (${slot.reason})`);
    throw new AppError('RATE_LIMITED', throttledMessage(slot, input.now));
  }

  const { match, checked, needsCode } = await findCodeMatch(
    candidates,
    (candidate) => candidate.recipient,
    input.given,
  );
  if (!match) {
    // A proof with no sealed card to check costs no guess; one checked against a card does.
    if (needsCode && checked === 0) {
      await releaseAttempt(db, slot);
      throw codeNeeded();
    }
    await auditFailure(candidates.length ? 'wrong access code' : 'no recipient with this email');
    if (needsCode) throw codeNeeded();
    throw new AppError('INVALID_CREDENTIALS', MESSAGES.accessCodeInvalid);
  }

  const { recipient, owner } = match;
  await releaseAttempt(db, slot);
  if (isLetterCodeExpired(recipient, input.now)) {
    await auditFailure('the code on a care home letter expired unused');
    throw new AppError('INVALID_CREDENTIALS', MESSAGES.letterCodeExpired);
  }
  const card = input.given.form === 'proof' ? await findRecipientKey(db, recipient.id) : undefined;
  const recipientKeys =
    input.given.form === 'proof'
      ? card?.codeWrap
        ? [{ keyId: card.keyId, codeWrap: card.codeWrap }]
        : []
      : undefined;
  const signedIn = await db.transaction(async (tx) => {
    if (input.previousSessionIdHash) await deleteSession(tx, input.previousSessionIdHash);
    // A letter's code, used in time, is theirs from now on: it no longer expires.
    if (isUnusedLetterCode(recipient)) {
      await updateUser(tx, recipient.id, { accessCodeExpiresAt: null }, input.now);
    }
    const session = await createSession(
      tx,
      recipient,
      input.device,
      input.now,
      'email_access_code',
    );
    const role = recipient.category.replace(/_/g, ' ');
    const message = `${fullName(recipient)} (${role}) signed in with their access code`;
    await recordAudit(tx, context, {
      eventType: 'login',
      userId: recipient.id,
      username: recipient.email,
      details: { method: 'email_access_code' },
    });
    await recordAudit(tx, context, {
      eventType: 'login',
      userId: owner.id,
      username: owner.username,
      details: {
        message,
        actor: `${fullName(recipient)}, ${role}`,
        method: 'email_access_code',
        recipientId: recipient.id,
      },
    });
    return { user: recipient, device: input.device, ...session };
  });
  return recipientKeys ? { ...signedIn, recipientKeys } : signedIn;
}
