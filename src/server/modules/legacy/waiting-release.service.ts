import { brandForOwner } from '../care-homes/care-home-brand';
import { LEGACY_MESSAGES } from '../../../shared/domain/legacy';
import type { TLegacyState, TNextOfKinLegacy } from '../../../shared/schemas/legacy';
import type { DbOrTx } from '../../db/client';
import { sqlStateOf } from '../../db/database-errors';
import { AppError } from '../../errors';
import { sha256 } from '../../lib/crypto';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
  type AttemptPolicy,
} from '../audit/attempt-guard';
import { throttledMessage } from '../audit/throttle-messages';
import { fullName } from '../mail/mail-layout';
import { findUserById, type SessionUser, type UserRow } from '../users/users.repository';
import {
  cancelWaitingRelease,
  insertWaitingRelease,
  type LegacyReleaseRow,
} from './legacy.repository';
import { getLegacyState, nextOfKinLegacy, type LegacyDeps } from './legacy.service';
import { releaseCancelledMail, releaseRequestedMail } from './legacy.mails';
import { askAgainAfterDays, assertMayAsk } from './release-requests.service';
import { codeNeeded, findCodeMatch, type TCodeGiven } from '../recipients/access-codes';
import { holdsAccountKey } from '../escrow/escrow-card';

const DAY_MS = 24 * 3600_000;

/** A guess of a next of kin's emergency code is counted like the break-glass form's. */
const LEGACY_ATTEMPTS: AttemptPolicy = { ...ATTEMPT_POLICIES.breakGlass, scope: 'legacy_release' };

/** The cancel link's token: derived, so every reminder carries the same link; only its hash is kept. */
export function cancelToken(
  deps: Pick<LegacyDeps, 'urlSigner'>,
  release: Pick<LegacyReleaseRow, 'ownerId' | 'requestedAt'>,
): string {
  const parts = ['legacy-cancel', String(release.ownerId), release.requestedAt.toISOString()];
  return deps.urlSigner.sign(parts);
}

export function cancelUrl(deps: Pick<LegacyDeps, 'config'>, token: string) {
  // In the fragment: never sent to a server, so it stays out of logs and referrers.
  return `${deps.config.APP_URL}/legacy/cancel#${token}`;
}

/** A next of kin, signed in with their access code, asks to release their owner's legacy. */
export async function requestRelease(
  deps: LegacyDeps,
  context: RequestContext,
  input: { nextOfKin: SessionUser; given: TCodeGiven; now: Date },
): Promise<TNextOfKinLegacy> {
  const { db } = deps;
  const { nextOfKin, now } = input;
  if (nextOfKin.category !== 'next_of_kin' || nextOfKin.createdById === null) {
    throw new AppError('FORBIDDEN', LEGACY_MESSAGES.nextOfKinOnly);
  }
  const owner = await findUserById(db, nextOfKin.createdById);
  if (!owner) throw new AppError('NOT_FOUND', 'Account not found.');
  const asker = await findUserById(db, nextOfKin.id);
  if (asker) await assertMayAsk(db, context, { owner, nextOfKin: asker, now });
  await checkEmergencyCode(db, context, {
    owner,
    nextOfKin,
    asker,
    given: input.given,
    now,
  });
  if (owner.legacyReleasedAt) throw new AppError('CONFLICT', LEGACY_MESSAGES.alreadyReleased);
  try {
    await db.transaction((tx) => openWaitingRelease(deps, tx, context, { owner, nextOfKin, now }));
  } catch (error) {
    if (sqlStateOf(error) === '23505')
      throw new AppError('CONFLICT', LEGACY_MESSAGES.alreadyWaiting);
    throw error;
  }
  deps.mail.kick();
  return nextOfKinLegacy(deps, owner, nextOfKin);
}

/** The asker's emergency code, its guesses counted; a wrong one is noted in the owner's log. */
async function checkEmergencyCode(
  db: DbOrTx,
  context: RequestContext,
  input: {
    owner: UserRow;
    nextOfKin: SessionUser;
    asker: UserRow | undefined;
    given: TCodeGiven;
    now: Date;
  },
): Promise<void> {
  const { owner, nextOfKin, now } = input;
  const slot = await reserveAttempt(db, {
    policy: LEGACY_ATTEMPTS,
    account: nextOfKin.email,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: await isFamiliarDevice(db, [nextOfKin.id], context.deviceId),
    now,
  });
  if (!slot.isAllowed) throw new AppError('RATE_LIMITED', throttledMessage(slot, now));
  const asker = input.asker ? [input.asker] : [];
  const { match, checked, needsCode } = await findCodeMatch(asker, (row) => row, input.given);
  if (!match && needsCode && checked === 0) {
    // A proof with no sealed card to check costs no guess: the browser sends the typed code next.
    await releaseAttempt(db, slot);
    throw codeNeeded();
  }
  if (!match) {
    await recordAccountEvent(db, context, owner, {
      eventType: 'legacy_release_requested',
      successful: false,
      details: { message: 'A request to release the legacy failed: wrong emergency code' },
    });
    if (needsCode) throw codeNeeded();
    throw new AppError('INVALID_CODE', LEGACY_MESSAGES.wrongCode);
  }
  await releaseAttempt(db, slot);
}

/** The release starts waiting: the owner is emailed a cancel link, both logs say who asked. */
async function openWaitingRelease(
  deps: LegacyDeps,
  tx: DbOrTx,
  context: RequestContext,
  input: { owner: UserRow; nextOfKin: SessionUser; now: Date },
): Promise<void> {
  const { owner, nextOfKin, now } = input;
  const releasesAt = new Date(now.getTime() + owner.legacyWaitingDays * DAY_MS);
  const token = cancelToken(deps, { ownerId: owner.id, requestedAt: now });
  await insertWaitingRelease(tx, {
    ownerId: owner.id,
    requestedById: nextOfKin.id,
    requestedAt: now,
    releasesAt,
    cancelTokenHash: sha256(token),
  });
  await deps.mail.enqueue(
    tx,
    releaseRequestedMail({
      owner,
      nextOfKin,
      releasesAt,
      cancelUrl: cancelUrl(deps, token),
      askAgainAfterDays: askAgainAfterDays(owner),
      isKeyHandedOver: await holdsAccountKey(tx, nextOfKin.id),
      reminder: 'none',
    }),
  );
  const details = {
    message: `${fullName(nextOfKin)} (next of kin) asked to release the legacy; it is released on ${releasesAt.toISOString().slice(0, 10)} unless cancelled`,
    actor: `${fullName(nextOfKin)}, next of kin`,
  };
  await recordAccountEvent(tx, context, owner, {
    eventType: 'legacy_release_requested',
    details,
  });
  await recordAudit(tx, context, {
    eventType: 'legacy_release_requested',
    userId: nextOfKin.id,
    username: nextOfKin.email,
    details,
  });
}

async function announceCancelled(
  deps: LegacyDeps,
  tx: DbOrTx,
  context: RequestContext,
  release: LegacyReleaseRow,
  how: string,
) {
  const [owner, nextOfKin] = await Promise.all([
    findUserById(tx, release.ownerId),
    release.requestedById === null ? undefined : findUserById(tx, release.requestedById),
  ]);
  if (!owner) return;
  if (nextOfKin) {
    const brand = await brandForOwner(tx, owner.id, deps.config.APP_URL);
    await deps.mail.enqueue(tx, releaseCancelledMail({ owner, nextOfKin, brand }));
  }
  await recordAccountEvent(tx, context, owner, {
    eventType: 'legacy_release_cancelled',
    details: { message: `The legacy release was cancelled ${how}` },
  });
}

/** The owner cancels from any of their signed-in devices. */
export async function cancelReleaseSignedIn(
  deps: LegacyDeps,
  context: RequestContext,
  input: { owner: SessionUser; now: Date },
): Promise<TLegacyState> {
  const cancelled = await deps.db.transaction(async (tx) => {
    const release = await cancelWaitingRelease(tx, {
      ownerId: input.owner.id,
      now: input.now,
      by: 'signed_in',
    });
    if (release) await announceCancelled(deps, tx, context, release, 'by the owner, signed in');
    return release;
  });
  if (!cancelled) throw new AppError('NOT_FOUND', LEGACY_MESSAGES.nothingWaiting);
  deps.mail.kick();
  return getLegacyState(deps, input.owner.id);
}

/** The owner cancels with the link from their email: no password, single use, ends with the period. */
export async function cancelReleaseByLink(
  deps: LegacyDeps,
  context: RequestContext,
  input: { token: string; now: Date },
): Promise<{ ownerFirstName: string }> {
  const release = await deps.db.transaction(async (tx) => {
    const found = await cancelWaitingRelease(tx, {
      cancelTokenHash: sha256(input.token),
      now: input.now,
      by: 'email_link',
    });
    if (found) await announceCancelled(deps, tx, context, found, 'with the link in the email');
    return found;
  });
  if (!release) throw new AppError('NOT_FOUND', LEGACY_MESSAGES.linkUsed);
  deps.mail.kick();
  const owner = await findUserById(deps.db, release.ownerId);
  return { ownerFirstName: owner?.firstName ?? '' };
}
