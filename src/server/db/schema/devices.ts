import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TLoginMethod } from '../../../shared/domain/enums';
import { createdAt } from './columns';
import { users } from './users';

/** Devices, the sessions signed in on them, and device resets. */

/** Devices. A device holds at most one account binding (userId). */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    fingerprintHash: text('fingerprint_hash').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    platform: text('platform').notNull().default('web'),
    deviceName: text('device_name').notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('devices_user_idx').on(t.userId),
    // The admin's device list, newest first, a page at a time.
    index('devices_created_idx').on(t.createdAt.desc(), t.id),
    // One primary device per account.
    uniqueIndex('devices_one_primary_per_user_idx')
      .on(t.userId)
      .where(sql`${t.isPrimary} and ${t.userId} is not null`),
  ],
);

/** Server-side sessions; the id is the SHA-256 of the cookie token. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** How this session signed in; the dashboard break-glass reads it. */
    method: text('method').$type<TLoginMethod>().notNull().default('username_password'),
    /** An admin session answers admin calls only after its second factor is checked. */
    secondFactorVerifiedAt: timestamp('second_factor_verified_at', { withTimezone: true }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
    index('sessions_device_idx').on(t.deviceId),
  ],
);

/** Reset-device record. */
export const deviceResets = pgTable(
  'device_resets',
  {
    id: serial('id').primaryKey(),
    deviceId: uuid('device_id').notNull(),
    resetTime: timestamp('reset_time', { withTimezone: true }).notNull().defaultNow(),
    resetMethod: text('reset_method').notNull().default('emergency'),
    resetBy: text('reset_by').notNull().default('system'),
    previousAssociations: jsonb('previous_associations')
      .$type<Array<{ userId: number; username: string; isPrimary: boolean }>>()
      .notNull()
      .default([]),
    expiryTime: timestamp('expiry_time', { withTimezone: true }),
  },
  (t) => [index('device_resets_device_idx').on(t.deviceId)],
);
