import { brandForOwner } from '../care-homes/care-home-brand';
import type { DbOrTx } from '../../db/client';
import { recordAccountEvent } from '../audit/audit.service';
import { fullName } from '../mail/mail-layout';
import { findUserById, type UserRow } from '../users/users.repository';
import { advanceInactivityNotices, findOwnersToCheckForInactivity } from './legacy.repository';
import { LEGACY_CHECK, type LegacyDeps } from './legacy.service';
import { inactivityNextOfKinMail, inactivityReminderMail } from './legacy.mails';
import { findNextOfKinOf } from './release-requests.repository';

const DAY_MS = 24 * 3600_000;
/** Inactivity: reminders a week apart, then the next of kin is told a week after the last. */
const INACTIVITY_REMINDERS = 3;
const INACTIVITY_STEP_MS = 7 * DAY_MS;

type Candidate = Awaited<ReturnType<typeof findOwnersToCheckForInactivity>>[number];

/**
 * For each owner with the check on: reminders a week apart once they have been away the chosen
 * months, then the next of kin is told; coming back (a sign-in, any request) starts it over.
 * Answers how many notices it sent.
 */
export async function checkInactivity(deps: LegacyDeps, now: Date): Promise<number> {
  let sent = 0;
  for (const candidate of await findOwnersToCheckForInactivity(deps.db)) {
    const isBack = candidate.noticeAt !== null && candidate.lastActiveAt > candidate.noticeAt;
    if (isBack) {
      const { id: ownerId, notices: from } = candidate;
      await advanceInactivityNotices(deps.db, { ownerId, from, to: 0, now });
    } else if (isNoticeDue(candidate, now) && (await sendNextNotice(deps, candidate, now))) {
      sent += 1;
    }
  }
  return sent;
}

/** Away the chosen months, not everyone told yet, and a week since the last notice. */
function isNoticeDue(candidate: Candidate, now: Date): boolean {
  const awayMs = now.getTime() - candidate.lastActiveAt.getTime();
  if (awayMs < candidate.months * 30 * DAY_MS) return false;
  if (candidate.notices > INACTIVITY_REMINDERS) return false;
  return (
    candidate.noticeAt === null ||
    now.getTime() - candidate.noticeAt.getTime() >= INACTIVITY_STEP_MS
  );
}

/** Claims the owner's next notice (one server sends it) and sends it; false when not sent. */
function sendNextNotice(deps: LegacyDeps, candidate: Candidate, now: Date): Promise<boolean> {
  const next = candidate.notices + 1;
  return deps.db.transaction(async (tx) => {
    const claimed = await advanceInactivityNotices(tx, {
      ownerId: candidate.id,
      from: candidate.notices,
      to: next,
      now,
    });
    if (!claimed) return false;
    const owner = await findUserById(tx, candidate.id);
    if (!owner) return false;
    const notice = { owner, months: candidate.months };
    if (next <= INACTIVITY_REMINDERS) await remindOwner(deps, tx, { ...notice, reminder: next });
    else await tellNextOfKin(deps, tx, notice);
    return true;
  });
}

async function remindOwner(
  deps: LegacyDeps,
  tx: DbOrTx,
  input: { owner: UserRow; months: number; reminder: number },
) {
  const { owner, months } = input;
  await deps.mail.enqueue(
    tx,
    inactivityReminderMail({ owner, months, appUrl: deps.config.APP_URL }),
  );
  await recordAccountEvent(tx, LEGACY_CHECK, owner, {
    eventType: 'legacy_inactivity_reminder',
    details: {
      message: `Not signed in for ${months} months: reminder ${input.reminder} of ${INACTIVITY_REMINDERS} emailed`,
    },
  });
}

/** No answer to the reminders: the next of kin, if there is one, is told they may ask. */
async function tellNextOfKin(
  deps: LegacyDeps,
  tx: DbOrTx,
  input: { owner: UserRow; months: number },
) {
  const { owner, months } = input;
  const [nextOfKin] = await findNextOfKinOf(tx, owner.id);
  if (nextOfKin) {
    await deps.mail.enqueue(
      tx,
      inactivityNextOfKinMail({
        owner,
        nextOfKin,
        months,
        appUrl: deps.config.APP_URL,
        brand: await brandForOwner(tx, owner.id, deps.config.APP_URL),
      }),
    );
  }
  await recordAccountEvent(tx, LEGACY_CHECK, owner, {
    eventType: 'legacy_inactivity_reminder',
    details: {
      message: nextOfKin
        ? `No answer to ${INACTIVITY_REMINDERS} reminders: ${fullName(nextOfKin)} (next of kin) was told`
        : `No answer to ${INACTIVITY_REMINDERS} reminders, and no next of kin to tell`,
    },
  });
}
