import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';
import { videos } from './videos';

/** Legacy release: requests and first watches. */

/**
 * A next of kin's request to release an owner's legacy. It waits the owner's chosen period, during
 * which the owner can cancel (signed in, or by the single-use link emailed to them); unanswered,
 * it releases. At most one waits per owner.
 */
export const legacyReleases = pgTable(
  'legacy_releases',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedById: integer('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<'waiting' | 'cancelled' | 'released' | 'ended'>().notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    releasesAt: timestamp('releases_at', { withTimezone: true }).notNull(),
    /** SHA-256 of the cancel link's token; the token itself is only in the owner's email. */
    cancelTokenHash: text('cancel_token_hash').notNull(),
    halfwayReminderAt: timestamp('halfway_reminder_at', { withTimezone: true }),
    lastDayReminderAt: timestamp('last_day_reminder_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: text('cancelled_by').$type<
      'email_link' | 'signed_in' | 'requester_removed' | 'requester_stopped'
    >(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    /** The owner, alive after all, ended the release from their account. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('legacy_releases_waiting_idx')
      .on(t.ownerId)
      .where(sql`${t.status} = 'waiting'`),
    index('legacy_releases_due_idx')
      .on(t.releasesAt)
      .where(sql`${t.status} = 'waiting'`),
    uniqueIndex('legacy_releases_token_idx').on(t.cancelTokenHash),
    // A requester's last cancelled or ended request sets when they may ask again.
    index('legacy_releases_requester_idx').on(t.requestedById, t.ownerId),
  ],
);

/**
 * The first time a recipient watched a message: ending a legacy release keeps open what its
 * recipient has already seen, and closes the rest.
 */
export const messageWatches = pgTable(
  'message_watches',
  {
    id: serial('id').primaryKey(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstWatchedAt: timestamp('first_watched_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('message_watches_video_recipient_idx').on(t.videoId, t.recipientId)],
);
