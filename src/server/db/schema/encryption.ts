import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
