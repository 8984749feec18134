import {
  isWellFormedCode,
  EMERGENCY_CODE_LENGTH,
  normalizeCode,
} from '../../../shared/domain/codes';
import { MESSAGES } from '../../../shared/domain/errors';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { verifyAgainstDummy, verifySecret } from '../../lib/crypto';
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
import { findRecipientsByEmail } from '../users/users.repository';

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

/**
 * A recipient signs in with their email and the access code they were given (method
 * email_access_code). Throttled per email and device and per email and address like break-glass,
 * never across the whole email; every attempt is written in the owner's log,
 * because it concerns their account.
 */
export async function signInWithAccessCode(
  db: Db,
  context: RequestContext,
  input: {
    device: DeviceRow;
    email: string;
    code: string;
    previousSessionIdHash: string | null;
    now: Date;
  },
): Promise<SignedIn> {
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

  const code = normalizeCode(input.code);
  let match: (typeof candidates)[number] | undefined;
  let hasVerified = false;
  if (isWellFormedCode(input.code, EMERGENCY_CODE_LENGTH)) {
    for (const candidate of candidates) {
      const hash = candidate.recipient.emergencyAccessCodeHash;
      if (!hash) continue;
      hasVerified = true;
      if (await verifySecret(hash, code)) {
        match = candidate;
        break;
      }
    }
  }
  // At least one hash check on every path, so timing does not reveal whether the email is known.
  if (!hasVerified) await verifyAgainstDummy(code);

  if (!match) {
    await auditFailure(candidates.length ? 'wrong access code' : 'no recipient with this email');
    throw new AppError('INVALID_CREDENTIALS', MESSAGES.accessCodeInvalid);
  }

  const { recipient, owner } = match;
  await releaseAttempt(db, slot);
  return db.transaction(async (tx) => {
    if (input.previousSessionIdHash) await deleteSession(tx, input.previousSessionIdHash);
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
}
