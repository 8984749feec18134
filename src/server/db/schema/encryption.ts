import { sql } from 'drizzle-orm';
import {
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TKdfParams } from '../../../shared/sealing';
import { createdAt } from './columns';
import { users } from './users';

/** Enhanced encryption: what the server keeps of an account's keys, none of which it can open. */

/**
 * An account with enhanced encryption on: its account key wrapped under the owner's password and
 * under the printed recovery sheet, each beside the settings its secret was stretched with. A row
 * exists only while it is on.
 */
export const accountKeys = pgTable('account_keys', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordWrap: text('password_wrap').notNull(),
  passwordKdf: jsonb('password_kdf').$type<TKdfParams>().notNull(),
  recoveryWrap: text('recovery_wrap').notNull(),
  recoveryKdf: jsonb('recovery_kdf').$type<TKdfParams>().notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A recipient's sealed card (made in the owner's browser): their recipient key, named by `keyId`,
 * wrapped under the owner's account key and under the key half of the recipient's code. One row a
 * recipient; a new card replaces it. A wrap may be null only for a key still being handed over.
 */
export const recipientKeys = pgTable('recipient_keys', {
  recipientId: integer('recipient_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  keyId: uuid('key_id').notNull(),
  ownerWrap: text('owner_wrap'),
  codeWrap: text('code_wrap'),
  /**
   * A next of kin's card only: the owner's account key wrapped under the code's key half.
   * Withheld until the owner's legacy is released (modules/escrow); null on other cards.
   */
  escrowWrap: text('escrow_wrap'),
  createdAt: createdAt(),
});

/**
 * A key recovery: an owner who lost every way into their sealed messages asks, with their next of
 * kin's emergency card, for the card to open them. It waits the owner's waiting period, during
 * which the owner can stop it (by the link emailed to them, or signed in); it closes by itself
 * once the owner gets back in another way. At most one waits per owner.
 */
export const keyRecoveries = pgTable(
  'key_recoveries',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nextOfKinId: integer('next_of_kin_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<'waiting' | 'cancelled' | 'closed'>().notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }).notNull(),
    /** SHA-256 of the cancel link's token; the token itself is only in the owner's email. */
    cancelTokenHash: text('cancel_token_hash').notNull(),
    /** When it was stopped (cancelled) or found not needed (closed). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('key_recoveries_waiting_idx')
      .on(t.ownerId)
      .where(sql`${t.status} = 'waiting'`),
    uniqueIndex('key_recoveries_token_idx').on(t.cancelTokenHash),
  ],
);
