import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { normalizeCode } from '../../../shared/domain/codes';
import { LEGACY_MESSAGES } from '../../../shared/domain/legacy';
import type {
  TLegacyRequest,
  TLegacySettings,
  TLegacyState,
  TNextOfKinLegacy,
} from '../../../shared/schemas/legacy';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { sqlStateOf } from '../../db/database-errors';
import { auditLogs, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { UrlSigner } from '../../lib/url-signer';
import { sha256, verifySecret } from '../../lib/crypto';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
  type AttemptPolicy,
} from '../audit/attempt-guard';
import { throttledMessage } from '../audit/throttle-messages';
import type { MailQueue } from '../mail/mail.service';
import { fullName } from '../mail/mail.templates';
import { findUserById, type SessionUser, type UserRow } from '../users/users.repository';
import {
  advanceInactivityNotices,
  cancelWaitingRelease,
  claimDueReleases,
  claimOpenedMessages,
  claimReminders,
  findLegacyRecipients,
  findOwnersToCheckForInactivity,
  findWaitingRelease,
  insertWaitingRelease,
  markLegacyReleased,
  type LegacyReleaseRow,
} from './legacy.repository';
import { describeOpened } from './release-end.service';
import { findLastEndedAt } from './release-end.repository';
import {
  askAgainAfterDays,
  assertMayAsk,
  cancelOrphanedRequests,
  findAskers,
  findAskHold,
} from './release-requests.service';
import {
  inactivityNextOfKinMail,
  inactivityReminderMail,
  messageOpenMail,
  releaseCancelledMail,
  releaseRequestedMail,
} from './legacy.mails';

/** What the legacy work needs of the app. */
export interface LegacyDeps {
  db: Db;
  mail: MailQueue;
  config: Pick<TConfig, 'APP_URL'>;
  urlSigner: UrlSigner;
  log: FastifyBaseLogger;
  clock: { now(): Date };
}

const DAY_MS = 24 * 3600_000;
/** Inactivity: reminders a week apart, then the next of kin is told a week after the last. */
const INACTIVITY_REMINDERS = 3;
const INACTIVITY_STEP_MS = 7 * DAY_MS;
const BATCH = 50;

/** A guess of a next of kin's emergency code is counted like the break-glass form's. */
const LEGACY_ATTEMPTS: AttemptPolicy = { ...ATTEMPT_POLICIES.breakGlass, scope: 'legacy_release' };

/** Timed work has no request: its audit rows say what did it. */
const SCHEDULE_CONTEXT: RequestContext = {
  ip: 'scheduled legacy check',
  userAgent: undefined,
  deviceId: null,
};

const LEGACY_EVENT_TYPES = [
  'legacy_release_requested',
  'legacy_release_reminder',
  'legacy_release_cancelled',
  'legacy_released',
  'legacy_message_opened',
  'legacy_release_ended',
] as const;

function settingsOf(owner: UserRow): TLegacySettings {
  return {
    waitingDays: owner.legacyWaitingDays,
    inactivityMonths: owner.inactivityMonths as TLegacySettings['inactivityMonths'],
    showWaitingMessages: owner.showWaitingMessages,
  };
}

/** The waiting release as the owner's screens show it, or null. */
export async function findPendingRelease(
  db: DbOrTx,
  ownerId: number,
): Promise<TLegacyRequest | null> {
  const found = await findWaitingRelease(db, ownerId);
  if (!found) return null;
  return {
    requestedAt: found.release.requestedAt.toISOString(),
    releasesAt: found.release.releasesAt.toISOString(),
    requestedBy: found.requestedBy,
  };
}

export async function getLegacyState(deps: LegacyDeps, ownerId: number): Promise<TLegacyState> {
  const [owner, request] = await Promise.all([
    findUserById(deps.db, ownerId),
    findPendingRelease(deps.db, ownerId),
  ]);
  if (!owner) throw new AppError('NOT_FOUND', 'Account not found.');
  const [opened, endedAt, askers] = await Promise.all([
    describeOpened(deps.db, owner),
    owner.legacyReleasedAt ? undefined : findLastEndedAt(deps.db, owner.id),
    findAskers(deps.db, owner, deps.clock.now()),
  ]);
  return {
    settings: settingsOf(owner),
    request,
    releasedAt: owner.legacyReleasedAt?.toISOString() ?? null,
    opened,
    endedAt: endedAt?.toISOString() ?? null,
    askers,
  };
}

export async function saveLegacySettings(
  deps: LegacyDeps,
  context: RequestContext,
  input: { owner: SessionUser; settings: TLegacySettings; timeZone: string | null },
): Promise<TLegacyState> {
  const { owner, settings } = input;
  await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        legacyWaitingDays: settings.waitingDays,
        inactivityMonths: settings.inactivityMonths,
        showWaitingMessages: settings.showWaitingMessages,
        // Saving is being active: the inactivity count starts again.
        inactivityNotices: 0,
        inactivityNoticeAt: null,
        ...(input.timeZone ? { timeZone: input.timeZone } : {}),
      })
      .where(eq(users.id, owner.id));
    const inactivity = settings.inactivityMonths
      ? `inactivity check after ${settings.inactivityMonths} months`
      : 'inactivity check off';
    await recordAudit(tx, context, {
      eventType: 'legacy_settings_changed',
      userId: owner.id,
      username: owner.username,
      details: {
        message: `Legacy release settings saved: ${settings.waitingDays} day${settings.waitingDays === 1 ? '' : 's'} to wait, ${inactivity}`,
      },
    });
  });
  return getLegacyState(deps, owner.id);
}

/** The cancel link's token: derived, so every reminder carries the same link; only its hash is kept. */
function cancelToken(
  deps: LegacyDeps,
  release: Pick<LegacyReleaseRow, 'ownerId' | 'requestedAt'>,
): string {
  const parts = ['legacy-cancel', String(release.ownerId), release.requestedAt.toISOString()];
  return deps.urlSigner.sign(parts);
}

function cancelUrl(deps: LegacyDeps, token: string) {
  // In the fragment: never sent to a server, so it stays out of logs and referrers.
  return `${deps.config.APP_URL}/legacy/cancel#${token}`;
}

/** A next of kin, signed in with their access code, asks to release their owner's legacy. */
export async function requestRelease(
  deps: LegacyDeps,
  context: RequestContext,
  input: { nextOfKin: SessionUser; emergencyCode: string; now: Date },
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

  const slot = await reserveAttempt(db, {
    policy: LEGACY_ATTEMPTS,
    account: nextOfKin.email,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: await isFamiliarDevice(db, [nextOfKin.id], context.deviceId),
  });
  if (!slot.isAllowed) throw new AppError('RATE_LIMITED', throttledMessage(slot));

  const hash = asker?.emergencyAccessCodeHash;
  if (!hash || !(await verifySecret(hash, normalizeCode(input.emergencyCode)))) {
    const details = { message: 'A request to release the legacy failed: wrong emergency code' };
    await recordAudit(db, context, {
      eventType: 'legacy_release_requested',
      userId: owner.id,
      username: owner.username,
      successful: false,
      details,
    });
    throw new AppError('INVALID_CODE', LEGACY_MESSAGES.wrongCode);
  }
  await releaseAttempt(db, slot);
  if (owner.legacyReleasedAt) throw new AppError('CONFLICT', LEGACY_MESSAGES.alreadyReleased);

  const releasesAt = new Date(now.getTime() + owner.legacyWaitingDays * DAY_MS);
  try {
    await db.transaction(async (tx) => {
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
          reminder: 'none',
        }),
      );
      const details = {
        message: `${fullName(nextOfKin)} (next of kin) asked to release the legacy; it is released on ${releasesAt.toISOString().slice(0, 10)} unless cancelled`,
        actor: `${fullName(nextOfKin)}, next of kin`,
      };
      await recordAudit(tx, context, {
        eventType: 'legacy_release_requested',
        userId: owner.id,
        username: owner.username,
        details,
      });
      await recordAudit(tx, context, {
        eventType: 'legacy_release_requested',
        userId: nextOfKin.id,
        username: nextOfKin.email,
        details,
      });
    });
  } catch (error) {
    if (sqlStateOf(error) === '23505')
      throw new AppError('CONFLICT', LEGACY_MESSAGES.alreadyWaiting);
    throw error;
  }
  deps.mail.kick();
  return nextOfKinLegacy(deps, owner, nextOfKin);
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
  if (nextOfKin) await deps.mail.enqueue(tx, releaseCancelledMail({ owner, nextOfKin }));
  await recordAudit(tx, context, {
    eventType: 'legacy_release_cancelled',
    userId: owner.id,
    username: owner.username,
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

/** The next of kin's view: where a release stands and, once released, the history. */
export async function nextOfKinLegacy(
  deps: LegacyDeps,
  owner: Pick<UserRow, 'id' | 'legacyReleasedAt' | 'legacyWaitingDays'>,
  nextOfKin: Pick<UserRow, 'id'>,
): Promise<TNextOfKinLegacy> {
  const [pending, asker] = await Promise.all([
    findPendingRelease(deps.db, owner.id),
    findUserById(deps.db, nextOfKin.id),
  ]);
  const hold =
    pending || owner.legacyReleasedAt || !asker
      ? null
      : await findAskHold(deps.db, owner, asker, deps.clock.now());
  const releasedAt = owner.legacyReleasedAt;
  let history: TNextOfKinLegacy['history'] = [];
  if (releasedAt) {
    const rows = await deps.db
      .select({ at: auditLogs.timestamp, details: auditLogs.details })
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.userId, owner.id),
          eq(auditLogs.successful, true),
          inArray(auditLogs.eventType, [...LEGACY_EVENT_TYPES]),
        ),
      )
      .orderBy(desc(auditLogs.timestamp))
      .limit(100);
    history = rows.map((row) => ({
      at: row.at.toISOString(),
      text: String((row.details as Record<string, unknown> | null)?.message ?? ''),
    }));
  }
  return {
    status: releasedAt ? 'released' : pending ? 'waiting' : 'none',
    requestedAt: pending?.requestedAt ?? null,
    releasesAt: pending?.releasesAt ?? null,
    releasedAt: releasedAt?.toISOString() ?? null,
    waitingDays: owner.legacyWaitingDays,
    history,
    ...(hold ? { hold } : {}),
  };
}

/**
 * The scheduled legacy work at `now`: reminders, releases whose time came, dated messages that
 * opened, inactivity checks. Each step claims its rows in one statement, so a second server
 * running at the same moment finds nothing left to send.
 */
export async function runLegacyWork(deps: LegacyDeps, now: Date) {
  const done = { reminders: 0, released: 0, opened: 0, inactivityNotices: 0 };
  // First: a request whose asker is gone must not run on to a release.
  const orphaned = await cancelOrphanedRequests(deps, now);
  for (const kind of ['halfway', 'last_day'] as const) {
    for (;;) {
      const sent = await deps.db.transaction(async (tx) => {
        const releases = await claimReminders(tx, { now, kind, limit: BATCH });
        for (const release of releases) await remind(deps, tx, release, kind);
        return releases.length;
      });
      done.reminders += sent;
      if (sent < BATCH) break;
    }
  }
  for (;;) {
    const released = await deps.db.transaction(async (tx) => {
      const releases = await claimDueReleases(tx, { now, limit: BATCH });
      for (const release of releases) await release_(deps, tx, release, now);
      return releases.length;
    });
    done.released += released;
    if (released < BATCH) break;
  }
  for (;;) {
    const opened = await deps.db.transaction(async (tx) => {
      const messages = await claimOpenedMessages(tx, { now, limit: BATCH });
      for (const message of messages) await announceOpened(deps, tx, message);
      return messages.length;
    });
    done.opened += opened;
    if (opened < BATCH) break;
  }
  done.inactivityNotices = await checkInactivity(deps, now);
  if (orphaned + done.reminders + done.released + done.opened + done.inactivityNotices > 0) {
    deps.mail.kick();
  }
  return done;
}

async function remind(
  deps: LegacyDeps,
  tx: DbOrTx,
  release: LegacyReleaseRow,
  kind: 'halfway' | 'last_day',
) {
  const [owner, nextOfKin] = await Promise.all([
    findUserById(tx, release.ownerId),
    release.requestedById === null ? undefined : findUserById(tx, release.requestedById),
  ]);
  if (!owner) return;
  const asker = nextOfKin ?? { firstName: 'Your next of kin', lastName: '', email: '' };
  await deps.mail.enqueue(
    tx,
    releaseRequestedMail({
      owner,
      nextOfKin: asker,
      releasesAt: release.releasesAt,
      cancelUrl: cancelUrl(deps, cancelToken(deps, release)),
      askAgainAfterDays: askAgainAfterDays(owner),
      reminder: kind,
    }),
  );
  await recordAudit(tx, SCHEDULE_CONTEXT, {
    eventType: 'legacy_release_reminder',
    userId: owner.id,
    username: owner.username,
    details: {
      message:
        kind === 'halfway'
          ? 'Reminder emailed: the legacy release is halfway through its waiting period'
          : 'Reminder emailed: the legacy is released in a day',
    },
  });
}

async function release_(deps: LegacyDeps, tx: DbOrTx, release: LegacyReleaseRow, now: Date) {
  const owner = await findUserById(tx, release.ownerId);
  if (!owner) return;
  await markLegacyReleased(tx, owner.id, now);
  const recipients = await findLegacyRecipients(tx, owner.id);
  for (const recipient of recipients) {
    await deps.mail.enqueue(
      tx,
      messageOpenMail({
        opensWith: 'legacy',
        owner,
        recipient: {
          firstName: recipient.first_name,
          lastName: recipient.last_name,
          email: recipient.email,
        },
        appUrl: deps.config.APP_URL,
      }),
    );
  }
  const details = {
    message: `The legacy was released after the waiting period; ${recipients.length} recipient${recipients.length === 1 ? ' was' : 's were'} emailed`,
  };
  await recordAudit(tx, SCHEDULE_CONTEXT, {
    eventType: 'legacy_released',
    userId: owner.id,
    username: owner.username,
    details,
  });
  if (release.requestedById !== null) {
    const nextOfKin = await findUserById(tx, release.requestedById);
    await recordAudit(tx, SCHEDULE_CONTEXT, {
      eventType: 'legacy_released',
      userId: release.requestedById,
      username: nextOfKin?.email ?? null,
      details,
    });
  }
}

async function announceOpened(
  deps: LegacyDeps,
  tx: DbOrTx,
  message: { id: string; creator_id: number; recipient_id: number },
) {
  const [owner, recipient] = await Promise.all([
    findUserById(tx, message.creator_id),
    findUserById(tx, message.recipient_id),
  ]);
  if (!owner || !recipient) return;
  await deps.mail.enqueue(
    tx,
    messageOpenMail({ owner, recipient, appUrl: deps.config.APP_URL, opensWith: 'date' }),
  );
  await recordAudit(tx, SCHEDULE_CONTEXT, {
    eventType: 'legacy_message_opened',
    userId: owner.id,
    username: owner.username,
    details: {
      message: `A dated message opened for ${fullName(recipient)}, who was emailed`,
      videoId: message.id,
    },
  });
}

/**
 * For each owner with the check on: reminders a week apart once they have been away the chosen
 * months, then the next of kin is told; coming back (a sign-in, any request) starts it over.
 */
async function checkInactivity(deps: LegacyDeps, now: Date): Promise<number> {
  let sent = 0;
  const owners = await findOwnersToCheckForInactivity(deps.db);
  for (const candidate of owners) {
    const back = candidate.noticeAt !== null && candidate.lastActiveAt > candidate.noticeAt;
    if (back) {
      await advanceInactivityNotices(deps.db, {
        ownerId: candidate.id,
        from: candidate.notices,
        to: 0,
        now,
      });
      continue;
    }
    const awayMs = now.getTime() - candidate.lastActiveAt.getTime();
    if (awayMs < candidate.months * 30 * DAY_MS) continue;
    if (candidate.notices > INACTIVITY_REMINDERS) continue;
    const stepDue =
      candidate.noticeAt === null ||
      now.getTime() - candidate.noticeAt.getTime() >= INACTIVITY_STEP_MS;
    if (!stepDue) continue;

    const next = candidate.notices + 1;
    const wasSent = await deps.db.transaction(async (tx) => {
      const claimed = await advanceInactivityNotices(tx, {
        ownerId: candidate.id,
        from: candidate.notices,
        to: next,
        now,
      });
      if (!claimed) return false;
      const owner = await findUserById(tx, candidate.id);
      if (!owner) return false;
      if (next <= INACTIVITY_REMINDERS) {
        await deps.mail.enqueue(
          tx,
          inactivityReminderMail({ owner, months: candidate.months, appUrl: deps.config.APP_URL }),
        );
        await recordAudit(tx, SCHEDULE_CONTEXT, {
          eventType: 'legacy_inactivity_reminder',
          userId: owner.id,
          username: owner.username,
          details: {
            message: `Not signed in for ${candidate.months} months: reminder ${next} of ${INACTIVITY_REMINDERS} emailed`,
          },
        });
        return true;
      }
      const [nextOfKin] = await tx
        .select()
        .from(users)
        .where(and(eq(users.createdById, owner.id), eq(users.category, 'next_of_kin')));
      if (nextOfKin) {
        await deps.mail.enqueue(
          tx,
          inactivityNextOfKinMail({
            owner,
            nextOfKin,
            months: candidate.months,
            appUrl: deps.config.APP_URL,
          }),
        );
      }
      await recordAudit(tx, SCHEDULE_CONTEXT, {
        eventType: 'legacy_inactivity_reminder',
        userId: owner.id,
        username: owner.username,
        details: {
          message: nextOfKin
            ? `No answer to ${INACTIVITY_REMINDERS} reminders: ${fullName(nextOfKin)} (next of kin) was told`
            : `No answer to ${INACTIVITY_REMINDERS} reminders, and no next of kin to tell`,
        },
      });
      return true;
    });
    if (wasSent) sent += 1;
  }
  return sent;
}
