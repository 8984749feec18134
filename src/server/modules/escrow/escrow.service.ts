import { MESSAGES } from '../../../shared/domain/errors';
import {
  ESCROW_MESSAGES,
  recoveryOpensOn,
  type TEscrowOpened,
} from '../../../shared/schemas/escrow';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
  type AttemptPolicy,
} from '../audit/attempt-guard';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { throttledMessage } from '../audit/throttle-messages';
import { formatDay } from '../legacy/legacy.mails';
import { isEscrowReleased, isRecoveryOpen } from '../legacy/release-rule';
import { findLiveRecovery, type KeyRecoveryRow } from './key-recovery.repository';
import { fullName } from '../mail/mail-layout';
import { findCodeMatch } from '../recipients/access-codes';
import { findRecipientKey } from '../recipients/recipient-keys.repository';
import { findNextOfKinByEmail, findUserById, type UserRow } from '../users/users.repository';

/** The part of the app's dependencies this service uses. */
export type Deps = Pick<AppDeps, 'clock' | 'db'>;

/** A guess of the emergency code here counts as one at the break-glass form does. */
const ESCROW_ATTEMPTS: AttemptPolicy = { ...ATTEMPT_POLICIES.breakGlass, scope: 'escrow' };

export interface Pair {
  owner: UserRow;
  nextOfKin: UserRow;
}

/**
 * Whose escrow the request is about: a next of kin asks for their own owner's; an owner's account
 * (signed in with the password the next of kin set at break-glass) for its own, naming its next
 * of kin. Undefined when the email names nobody this account may ask about.
 */
async function findPair(deps: Deps, actor: Actor, email: string): Promise<Pair | undefined> {
  const { user } = actor;
  if (user.category === 'next_of_kin') {
    if (email !== user.email.toLowerCase()) {
      throw new AppError('FORBIDDEN', ESCROW_MESSAGES.ownEmail);
    }
    const [nextOfKin, owner] = await Promise.all([
      findUserById(deps.db, user.id),
      user.createdById === null ? undefined : findUserById(deps.db, user.createdById),
    ]);
    return nextOfKin && owner ? { owner, nextOfKin } : undefined;
  }
  const pairs = await findNextOfKinByEmail(deps.db, email);
  const own = pairs.find((pair) => pair.owner.id === user.id);
  if (!own) return undefined;
  const [owner, nextOfKin] = await Promise.all([
    findUserById(deps.db, own.owner.id),
    findUserById(deps.db, own.nextOfKin.id),
  ]);
  return owner && nextOfKin ? { owner, nextOfKin } : undefined;
}

/** One line on the owner's log and the next of kin's. */
export async function audit(
  deps: Deps,
  context: RequestContext,
  pair: Pair,
  input: { successful: boolean; message: string; via: 'next_of_kin' | 'owner_account' },
): Promise<void> {
  const details = {
    message: input.message,
    actor: `${fullName(pair.nextOfKin)}, next of kin`,
    via: input.via,
  };
  await recordAccountEvent(deps.db, context, pair.owner, {
    eventType: 'next_of_kin_key_opened',
    successful: input.successful,
    details,
  });
  await recordAudit(deps.db, context, {
    eventType: 'next_of_kin_key_opened',
    userId: pair.nextOfKin.id,
    username: pair.nextOfKin.email,
    successful: input.successful,
    details,
  });
}

/** The card the proof matched, the pair it belongs to, and which side asked. */
export interface CheckedCard {
  pair: Pair;
  escrowWrap: string;
  keyId: string;
  via: 'next_of_kin' | 'owner_account';
}

/**
 * The next of kin's emergency card, checked by its proof: counted as a break-glass guess is
 * (throttled per email, device and address), every refusal on both logs. Answers the card only
 * when it carries the account key.
 */
export async function checkCard(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  input: { actor: Actor; nextOfKinEmail: string; codeProof: string },
): Promise<CheckedCard> {
  const { actor, nextOfKinEmail } = input;
  requireAccess(actor, Permission.EscrowOpen);
  const now = deps.clock.now();
  const pair = await findPair(deps, actor, nextOfKinEmail);
  const slot = await reserveAttempt(deps.db, {
    policy: ESCROW_ATTEMPTS,
    account: nextOfKinEmail,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: pair
      ? await isFamiliarDevice(deps.db, [pair.nextOfKin.id], context.deviceId)
      : false,
    now,
  });
  if (!slot.isAllowed) throw new AppError('RATE_LIMITED', throttledMessage(slot, now));
  const via = actor.user.category === 'next_of_kin' ? 'next_of_kin' : 'owner_account';

  const { match } = await findCodeMatch(pair ? [pair] : [], (row) => row.nextOfKin, {
    form: 'proof',
    proof: input.codeProof,
  });
  if (!match) {
    // A code the server made cannot match a proof, and holds no escrow: that costs no guess.
    if (pair?.nextOfKin.accessCodeForm === 'code') {
      await releaseAttempt(deps.db, slot);
      await audit(deps, context, pair, {
        successful: false,
        message: `${fullName(pair.nextOfKin)}’s emergency code was made before enhanced encryption, so it cannot open your account key`,
        via,
      });
      throw new AppError('CONFLICT', ESCROW_MESSAGES.noEscrow);
    }
    if (!pair) {
      await recordAudit(deps.db, context, {
        eventType: 'next_of_kin_key_opened',
        username: nextOfKinEmail,
        successful: false,
        details: { reason: 'no next of kin with this email for this account', via },
      });
    } else {
      await audit(deps, context, pair, {
        successful: false,
        message: `Someone tried to open your account key with ${fullName(pair.nextOfKin)}’s emergency card: wrong code`,
        via,
      });
    }
    throw new AppError('INVALID_CODE', MESSAGES.breakGlassInvalid);
  }
  await releaseAttempt(deps.db, slot);
  const card = await findRecipientKey(deps.db, match.nextOfKin.id);
  if (!card?.escrowWrap) {
    await audit(deps, context, match, {
      successful: false,
      message: `${fullName(match.nextOfKin)}’s emergency card was made before it could hold your account key`,
      via,
    });
    throw new AppError('CONFLICT', ESCROW_MESSAGES.noEscrow);
  }
  return { pair: match, escrowWrap: card.escrowWrap, keyId: card.keyId, via };
}

/**
 * Why the card does not open yet, in the asker's words: to the next of kin, that it waits for
 * the legacy release; to the owner's account, when its key recovery opens, or that it can start.
 */
function notYet(checked: CheckedCard, recovery: KeyRecoveryRow | undefined): AppError {
  if (checked.via === 'next_of_kin') return new AppError('FORBIDDEN', ESCROW_MESSAGES.notReleased);
  if (!recovery) {
    return new AppError('FORBIDDEN', ESCROW_MESSAGES.recoveryNotStarted, { keyRecovery: 'none' });
  }
  const day = formatDay(recovery.opensAt, checked.pair.owner.timeZone);
  return new AppError('FORBIDDEN', recoveryOpensOn(day), { keyRecovery: 'waiting' });
}

/**
 * POST /api/escrow/open: the owner's account key, wrapped under the key half of the next of
 * kin's emergency code, once their proof of the code matches and either the owner's legacy is
 * released or, asked from the owner's own account, its key recovery's wait has ended. Never to
 * an admin or a phone (access rule), never before (release rule), never to anyone without the
 * code (the wrap opens only with it).
 */
export async function openEscrow(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  input: { actor: Actor; nextOfKinEmail: string; codeProof: string },
): Promise<TEscrowOpened> {
  const checked = await checkCard(deps, context, input);
  const { pair, via } = checked;
  const isLegacy = isEscrowReleased(pair.owner);
  // Read once: whether it opens the key now, or else what the refusal says of it.
  const recovery =
    !isLegacy && via === 'owner_account'
      ? await findLiveRecovery(deps.db, pair.owner.id)
      : undefined;
  const isRecovered = isRecoveryOpen(recovery, deps.clock.now());
  if (!isLegacy && !isRecovered) {
    await audit(deps, context, pair, {
      successful: false,
      message:
        via === 'next_of_kin'
          ? `${fullName(pair.nextOfKin)} (next of kin) tried to open your account key before the legacy release`
          : `Someone tried to open your account key with ${fullName(pair.nextOfKin)}’s emergency card before its waiting period ended`,
      via,
    });
    throw notYet(checked, recovery);
  }
  await audit(deps, context, pair, {
    successful: true,
    message: isLegacy
      ? `${fullName(pair.nextOfKin)} (next of kin) opened your account key with their emergency card, after the legacy release`
      : `Your account key was opened with ${fullName(pair.nextOfKin)}’s emergency card, after the key recovery’s waiting period`,
    via,
  });
  return { ownerId: pair.owner.id, keyId: checked.keyId, escrowWrap: checked.escrowWrap };
}
