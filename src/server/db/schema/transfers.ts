import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * A move of messages from the old device to a new one: only the handshake between the two
 * browsers is kept here, never a byte of a video.
 */
export const deviceTransfers = pgTable(
  'device_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    senderDeviceId: uuid('sender_device_id').notNull(),
    senderTokenHash: text('sender_token_hash').notNull(),
    /** SHA-256 of the lookup the browser derives from the secret code. */
    lookupHash: text('lookup_hash').notNull(),
    receiverDeviceId: uuid('receiver_device_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    attempt: integer('attempt').notNull().default(0),
    offerDescription: text('offer_description'),
    answerDescription: text('answer_description'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('device_transfers_sender_token_idx').on(t.senderTokenHash),
    uniqueIndex('device_transfers_lookup_idx').on(t.lookupHash),
    index('device_transfers_user_idx').on(t.userId, t.createdAt),
  ],
);
