import { index, integer, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/** Codes sent by email, recovery codes, and failures counted for throttling. */

/**
 * One-time codes sent by email: password recovery, moving an account to a new device,
 * adding a device, and proving an account to link a sign-in provider to it.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose')
      .$type<'password_reset' | 'device_move' | 'device_add' | 'provider_link'>()
      .notNull(),
    codeHash: text('code_hash').notNull(),
    /**
     * device_move: the device the account moves to; device_add: the device being added;
     * provider_link: the device the provider sign-in is finished on.
     */
    deviceId: uuid('device_id'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_codes_user_idx').on(t.userId, t.purpose, t.createdAt)],
);

/**
 * Failures counted for throttling where there may be no account to hang an audit row on
 * (a next of kin's email, a reset request). Keys are normalised emails or IPs.
 */
export const failedAttempts = pgTable(
  'failed_attempts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('failed_attempts_lookup_idx').on(t.kind, t.key, t.at)],
);

/** An admin's single-use recovery codes, stored as SHA-256 (they carry 80 random bits). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId, t.codeHash)],
);
