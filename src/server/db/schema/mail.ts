import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/** Outgoing mail and the addresses an admin asked to verify. */

/**
 * Outgoing mail, queued in the same transaction as the change it announces and retried until
 * delivered. The body is deleted once the message is delivered.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('mail_queue_due_idx').on(t.status, t.nextAttemptAt)],
);

/** Addresses an admin asked to verify from the email tools; the link's token is stored hashed. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    requestedById: integer('requested_by_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_verifications_token_idx').on(t.tokenHash),
    index('email_verifications_created_idx').on(t.createdAt),
  ],
);
