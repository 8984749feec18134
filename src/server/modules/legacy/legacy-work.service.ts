import { brandForOwner } from '../care-homes/care-home-brand';
import type { Db, DbOrTx } from '../../db/client';
import { recordAccountEvent, recordAudit } from '../audit/audit.service';
import { fullName } from '../mail/mail-layout';
import { findUserById } from '../users/users.repository';
import { checkInactivity } from './inactivity-check.service';
import {
  claimDueReleases,
  claimOpenedMessages,
  claimReminders,
  findLegacyRecipients,
  markLegacyReleased,
  type LegacyReleaseRow,
} from './legacy.repository';
import { LEGACY_CHECK, type LegacyDeps } from './legacy.service';
import { messageOpenMail, releaseRequestedMail } from './legacy.mails';
import { requestCancelledWithRemovalMail } from './release-end.mails';
import { cancelOrphanedReleases } from './release-requests.repository';
import { askAgainAfterDays } from './release-requests.service';
import { cancelToken, cancelUrl } from './waiting-release.service';
import { holdsAccountKey } from '../escrow/escrow-card';

const BATCH = 50;

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
    done.reminders += await claimInBatches(
      deps.db,
      (tx, limit) => claimReminders(tx, { now, kind, limit }),
      (tx, release) => remind(deps, tx, release, kind),
    );
  }
  done.released = await claimInBatches(
    deps.db,
    (tx, limit) => claimDueReleases(tx, { now, limit }),
    (tx, release) => releaseLegacy(deps, tx, release, now),
  );
  done.opened = await claimInBatches(
    deps.db,
    (tx, limit) => claimOpenedMessages(tx, { now, limit }),
    (tx, message) => announceOpened(deps, tx, message),
  );
  done.inactivityNotices = await checkInactivity(deps, now);
  if (orphaned + done.reminders + done.released + done.opened + done.inactivityNotices > 0) {
    deps.mail.kick();
  }
  return done;
}

/**
 * Claims a batch and handles each claimed row in one transaction, batch after batch until one
 * comes back short; answers how many rows it handled.
 */
async function claimInBatches<T>(
  db: Db,
  claim: (tx: DbOrTx, limit: number) => Promise<T[]>,
  handle: (tx: DbOrTx, row: T) => Promise<void>,
): Promise<number> {
  let handled = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const rows = await claim(tx, BATCH);
      for (const row of rows) await handle(tx, row);
      return rows.length;
    });
    handled += count;
    if (count < BATCH) return handled;
  }
}

/**
 * Waiting releases whose requester's account is gone by any other path: nobody is left who
 * asked, so they are cancelled, and each owner is told. Answers how many.
 */
async function cancelOrphanedRequests(
  deps: Pick<LegacyDeps, 'db' | 'mail'>,
  now: Date,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const releases = await cancelOrphanedReleases(tx, { now, limit: 100 });
    for (const release of releases) {
      const owner = await findUserById(tx, release.ownerId);
      if (!owner) continue;
      await deps.mail.enqueue(tx, requestCancelledWithRemovalMail({ owner, nextOfKin: null }));
      await recordAccountEvent(tx, LEGACY_CHECK, owner, {
        eventType: 'legacy_release_cancelled',
        details: {
          message:
            'The legacy release was cancelled: the next of kin who asked no longer has an account',
        },
      });
    }
    return releases.length;
  });
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
      isKeyHandedOver: nextOfKin ? await holdsAccountKey(tx, nextOfKin.id) : false,
      reminder: kind,
    }),
  );
  await recordAccountEvent(tx, LEGACY_CHECK, owner, {
    eventType: 'legacy_release_reminder',
    details: {
      message:
        kind === 'halfway'
          ? 'Reminder emailed: the legacy release is halfway through its waiting period'
          : 'Reminder emailed: the legacy is released in a day',
    },
  });
}

/** The waiting period ran out: the legacy is released and each of its recipients emailed. */
async function releaseLegacy(deps: LegacyDeps, tx: DbOrTx, release: LegacyReleaseRow, now: Date) {
  const owner = await findUserById(tx, release.ownerId);
  if (!owner) return;
  await markLegacyReleased(tx, owner.id, now);
  const recipients = await findLegacyRecipients(tx, owner.id);
  const brand = await brandForOwner(tx, owner.id, deps.config.APP_URL);
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
        brand,
      }),
    );
  }
  const details = {
    message: `The legacy was released after the waiting period; ${recipients.length} recipient${recipients.length === 1 ? ' was' : 's were'} emailed`,
  };
  await recordAccountEvent(tx, LEGACY_CHECK, owner, {
    eventType: 'legacy_released',
    details,
  });
  if (release.requestedById !== null) {
    const nextOfKin = await findUserById(tx, release.requestedById);
    await recordAudit(tx, LEGACY_CHECK, {
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
    messageOpenMail({
      owner,
      recipient,
      appUrl: deps.config.APP_URL,
      opensWith: 'date',
      brand: await brandForOwner(tx, owner.id, deps.config.APP_URL),
    }),
  );
  await recordAccountEvent(tx, LEGACY_CHECK, owner, {
    eventType: 'legacy_message_opened',
    details: {
      message: `A dated message opened for ${fullName(recipient)}, who was emailed`,
      videoId: message.id,
    },
  });
}
