import { brandForOwner } from '../care-homes/care-home-brand';
import { ASK_AGAIN_MIN_DAYS, LEGACY_MESSAGES } from '../../../shared/domain/legacy';
import type { TAskHold, TLegacyAsker } from '../../../shared/schemas/legacy';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import type { MailQueue } from '../mail/mail.service';
import { fullName } from '../mail/mail-layout';
import { findUserById, type SessionUser, type UserRow } from '../users/users.repository';
import type { LegacyDeps } from './legacy.service';
import { formatDay, releaseCancelledMail } from './legacy.mails';
import { requestCancelledWithRemovalMail } from './release-end.mails';
import {
  cancelWaitingReleaseOf,
  findLastAnsweredRequest,
  findNextOfKinOf,
  setRequestsStoppedAt,
} from './release-requests.repository';

const DAY_MS = 24 * 3600_000;

/**
 * Days an asker waits after the owner cancelled or ended their request: a month, or the owner's
 * waiting period if longer, so asking again cannot keep the owner answering emails.
 */
export function askAgainAfterDays(owner: Pick<UserRow, 'legacyWaitingDays'>): number {
  return Math.max(ASK_AGAIN_MIN_DAYS, owner.legacyWaitingDays);
}

/** Why this next of kin may not ask at `now`, or null when they may. */
export async function findAskHold(
  db: DbOrTx,
  owner: Pick<UserRow, 'id' | 'legacyWaitingDays'>,
  nextOfKin: Pick<UserRow, 'id' | 'legacyRequestsStoppedAt'>,
  now: Date,
): Promise<TAskHold | null> {
  if (nextOfKin.legacyRequestsStoppedAt) return { reason: 'stopped', askAgainOn: null };
  const last = await findLastAnsweredRequest(db, { ownerId: owner.id, requesterId: nextOfKin.id });
  if (!last) return null;
  const until = new Date(last.at.getTime() + askAgainAfterDays(owner) * DAY_MS);
  if (until.getTime() <= now.getTime()) return null;
  return { reason: last.how, askAgainOn: until.toISOString() };
}

/** Refuses a request from a next of kin who is held, and notes the attempt in the owner's log. */
export async function assertMayAsk(
  db: DbOrTx,
  context: RequestContext,
  input: { owner: UserRow; nextOfKin: UserRow; now: Date },
): Promise<void> {
  const { owner, nextOfKin } = input;
  const hold = await findAskHold(db, owner, nextOfKin, input.now);
  if (!hold) return;
  const day = hold.askAgainOn ? formatDay(new Date(hold.askAgainOn), owner.timeZone) : '';
  const message =
    hold.reason === 'stopped'
      ? LEGACY_MESSAGES.stopped(owner.firstName)
      : hold.reason === 'ended'
        ? LEGACY_MESSAGES.askAgainAfterEnd(owner.firstName, day)
        : LEGACY_MESSAGES.askAgainAfterCancel(owner.firstName, day);
  await recordAccountEvent(db, context, owner, {
    eventType: 'legacy_release_requested',
    successful: false,
    details: {
      message:
        hold.reason === 'stopped'
          ? `${fullName(nextOfKin)} (next of kin) tried to ask to release the legacy; you have stopped them from asking`
          : `${fullName(nextOfKin)} (next of kin) tried to ask again before ${day}`,
      actor: `${fullName(nextOfKin)}, next of kin`,
    },
  });
  throw new AppError('CONFLICT', message);
}

/** The owner's next of kin as the Legacy release page lists them, each with any hold. */
export async function findAskers(
  db: DbOrTx,
  owner: Pick<UserRow, 'id' | 'legacyWaitingDays'>,
  now: Date,
): Promise<TLegacyAsker[]> {
  const nextOfKin = await findNextOfKinOf(db, owner.id);
  return Promise.all(
    nextOfKin.map(async (person) => ({
      id: person.id,
      firstName: person.firstName,
      lastName: person.lastName,
      hold: await findAskHold(db, owner, person, now),
    })),
  );
}

/**
 * The owner stops a next of kin from asking, or lets them ask again. Stopping also cancels a
 * request of theirs that waits: the owner has just said they do not want it.
 */
export async function setNextOfKinAsking(
  deps: Pick<LegacyDeps, 'config' | 'db' | 'mail'>,
  context: RequestContext,
  input: { owner: SessionUser; nextOfKinId: number; isAllowed: boolean; now: Date },
): Promise<void> {
  const { owner, isAllowed, now } = input;
  await deps.db.transaction(async (tx) => {
    const nextOfKin = await findUserById(tx, input.nextOfKinId);
    const isTheirs = nextOfKin?.createdById === owner.id && nextOfKin.category === 'next_of_kin';
    if (!nextOfKin || !isTheirs) throw new AppError('NOT_FOUND', LEGACY_MESSAGES.nextOfKinNotFound);
    if (Boolean(nextOfKin.legacyRequestsStoppedAt) === !isAllowed) return;
    await setRequestsStoppedAt(tx, {
      ownerId: owner.id,
      nextOfKinId: nextOfKin.id,
      stoppedAt: isAllowed ? null : now,
    });
    const details = {
      message: isAllowed
        ? `${fullName(nextOfKin)} (next of kin) may ask to release the legacy again`
        : `${fullName(nextOfKin)} (next of kin) was stopped from asking to release the legacy`,
    };
    const eventType = isAllowed ? 'legacy_requests_allowed' : 'legacy_requests_stopped';
    await recordAudit(tx, context, {
      eventType,
      userId: owner.id,
      username: owner.username,
      details,
    });
    await recordAudit(tx, context, {
      eventType,
      userId: nextOfKin.id,
      username: nextOfKin.email,
      details,
    });
    if (isAllowed) return;
    const cancelled = await cancelWaitingReleaseOf(tx, {
      ownerId: owner.id,
      requesterId: nextOfKin.id,
      now,
      by: 'requester_stopped',
    });
    if (!cancelled) return;
    const brand = await brandForOwner(tx, owner.id, deps.config.APP_URL);
    await deps.mail.enqueue(tx, releaseCancelledMail({ owner, nextOfKin, brand }));
    await recordAccountEvent(tx, context, owner, {
      eventType: 'legacy_release_cancelled',
      details: {
        message: `The legacy release was cancelled by the owner, who stopped ${fullName(nextOfKin)} from asking`,
      },
    });
  });
  deps.mail.kick();
}

/**
 * A next of kin is removed (or replaced by someone else): a request of theirs that waits is
 * cancelled with them, and the owner is told by email and in their log. True when one was.
 */
export async function cancelRequestOfRemovedNextOfKin(
  deps: { mail: MailQueue },
  tx: DbOrTx,
  context: RequestContext,
  input: {
    owner: Pick<UserRow, 'id' | 'username' | 'firstName' | 'lastName' | 'email'>;
    nextOfKin: Pick<UserRow, 'id' | 'firstName' | 'lastName'>;
    how: 'removed' | 'replaced';
    now: Date;
  },
): Promise<boolean> {
  const { owner, nextOfKin } = input;
  const cancelled = await cancelWaitingReleaseOf(tx, {
    ownerId: owner.id,
    requesterId: nextOfKin.id,
    now: input.now,
    by: 'requester_removed',
  });
  if (!cancelled) return false;
  await deps.mail.enqueue(tx, requestCancelledWithRemovalMail({ owner, nextOfKin }));
  await recordAccountEvent(tx, context, owner, {
    eventType: 'legacy_release_cancelled',
    details: {
      message: `The legacy release ${fullName(nextOfKin)} asked for was cancelled: they were ${input.how} as next of kin`,
    },
  });
  return true;
}
