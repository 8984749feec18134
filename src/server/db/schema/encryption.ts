import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
