import { brandForOwner } from '../care-homes/care-home-brand';
import { LEGACY_MESSAGES } from '../../../shared/domain/legacy';
import type { TLegacyState } from '../../../shared/schemas/legacy';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { fullName } from '../mail/mail-layout';
import { findUserById, type SessionUser, type UserRow } from '../users/users.repository';
import type { LegacyDeps } from './legacy.service';
import { formatDay } from './legacy.mails';
import { releaseEndedNextOfKinMail, releaseEndedRecipientMail } from './release-end.mails';
import {
  findOpenedLegacyMessages,
  keepOpen,
  lockReleasedLegacy,
  markReleaseEnded,
} from './release-end.repository';
import { askAgainAfterDays } from './release-requests.service';

const DAY_MS = 24 * 3600_000;

type OpenedMessage = Awaited<ReturnType<typeof findOpenedLegacyMessages>>[number];

/** What the owner's page says of a release in force: how many opened, how many were watched. */
export async function describeOpened(
  db: DbOrTx,
  owner: Pick<UserRow, 'id' | 'legacyReleasedAt'>,
): Promise<TLegacyState['opened']> {
  if (!owner.legacyReleasedAt) return null;
  const messages = await findOpenedLegacyMessages(db, {
    ownerId: owner.id,
    releasedAt: owner.legacyReleasedAt,
  });
  return {
    total: messages.length,
    watched: messages.filter((message) => message.watchedAt !== null).length,
  };
}

/**
 * The owner, alive after a release, ends it from their account. Messages nobody watched close
 * again and 'after my legacy' messages recorded later stay sealed; a message its recipient has
 * already watched stays open to them, because taking back what someone has seen only hurts.
 * Every recipient who was told of the release hears of its end, and each step is audited.
 */
export async function endRelease(
  deps: LegacyDeps,
  context: RequestContext,
  input: { owner: SessionUser; now: Date },
): Promise<void> {
  const { now } = input;
  const hasEnded = await deps.db.transaction(async (tx) => {
    const releasedAt = await lockReleasedLegacy(tx, input.owner.id);
    const owner = await findUserById(tx, input.owner.id);
    if (!releasedAt || !owner) return false;
    const messages = await findOpenedLegacyMessages(tx, { ownerId: owner.id, releasedAt });
    const watched = messages.filter((message) => message.watchedAt !== null);
    await keepOpen(
      tx,
      watched.map((message) => message.id),
      now,
    );
    const release = await markReleaseEnded(tx, { ownerId: owner.id, now });

    const closed = messages.length - watched.length;
    const details = {
      message: `The owner ended the legacy release: ${closed} message${closed === 1 ? '' : 's'} closed again, ${watched.length} already watched stay${watched.length === 1 ? 's' : ''} open to the person who watched`,
    };
    await recordAccountEvent(tx, context, owner, {
      eventType: 'legacy_release_ended',
      details,
    });
    for (const message of watched) {
      await recordAccountEvent(tx, context, owner, {
        eventType: 'legacy_release_ended',
        details: {
          message: `'${message.title}' stays open to ${message.firstName} ${message.lastName}, who has watched it`,
          videoId: message.id,
        },
      });
    }
    await tellRecipients(deps, tx, context, { owner, messages });
    if (release?.requestedById) {
      await tellRequester(deps, tx, context, { owner, requesterId: release.requestedById, now });
    }
    return true;
  });
  if (!hasEnded) throw new AppError('NOT_FOUND', LEGACY_MESSAGES.nothingReleased);
  deps.mail.kick();
}

/** One kind email to each recipient of an opened message, saying what stays and what closes. */
async function tellRecipients(
  deps: LegacyDeps,
  tx: DbOrTx,
  context: RequestContext,
  input: { owner: UserRow; messages: OpenedMessage[] },
) {
  const byRecipient = new Map<number, OpenedMessage[]>();
  for (const message of input.messages) {
    byRecipient.set(message.recipientId, [
      ...(byRecipient.get(message.recipientId) ?? []),
      message,
    ]);
  }
  const brand =
    byRecipient.size > 0 ? await brandForOwner(tx, input.owner.id, deps.config.APP_URL) : undefined;
  for (const messages of byRecipient.values()) {
    const [first] = messages;
    if (!first) continue;
    const watched = messages.filter((message) => message.watchedAt !== null).length;
    await deps.mail.enqueue(
      tx,
      releaseEndedRecipientMail({
        owner: input.owner,
        recipient: first,
        watched,
        closed: messages.length - watched,
        appUrl: deps.config.APP_URL,
        brand,
      }),
    );
  }
  if (byRecipient.size === 0) return;
  await recordAccountEvent(tx, context, input.owner, {
    eventType: 'legacy_release_ended',
    details: {
      message: `${byRecipient.size} recipient${byRecipient.size === 1 ? ' was' : 's were'} emailed that the release has ended`,
    },
  });
}

/** The next of kin who asked hears it from us, with the day they may ask again. */
async function tellRequester(
  deps: LegacyDeps,
  tx: DbOrTx,
  context: RequestContext,
  input: { owner: UserRow; requesterId: number; now: Date },
) {
  const { owner } = input;
  const nextOfKin = await findUserById(tx, input.requesterId);
  if (!nextOfKin) return;
  const askAgainOn = new Date(input.now.getTime() + askAgainAfterDays(owner) * DAY_MS);
  await deps.mail.enqueue(
    tx,
    releaseEndedNextOfKinMail({
      owner,
      nextOfKin,
      askAgainOn: formatDay(askAgainOn, owner.timeZone),
      brand: await brandForOwner(tx, owner.id, deps.config.APP_URL),
    }),
  );
  await recordAudit(tx, context, {
    eventType: 'legacy_release_ended',
    userId: nextOfKin.id,
    username: nextOfKin.email,
    details: {
      message: `${fullName(owner)} ended the release of their legacy that ${fullName(nextOfKin)} asked for`,
    },
  });
}
