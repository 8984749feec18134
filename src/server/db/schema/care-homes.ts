import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TConsentBasis, TLogoType, TResidentStatus } from '../../../shared/schemas/care-homes';
import { createdAt } from './columns';
import { devices } from './devices';
import { users } from './users';
import { videos } from './videos';

/** Care homes: the home, its staff, and its residents' links (each resident owns their account). */

/** Raw bytes; PGlite reads them as a Uint8Array, node-postgres as a Buffer. */
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

/** A home, owned by its manager's account; its branding is data, never code. */
export const careHomes = pgTable(
  'care_homes',
  {
    id: serial('id').primaryKey(),
    managerId: integer('manager_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The home's address in links (`/api/care-homes/{slug}/logo`, the families' sign-in page). */
    slug: text('slug').notNull(),
    accentHex: text('accent_hex'),
    logo: bytea('logo'),
    logoType: text('logo_type').$type<TLogoType>(),
    logoUpdatedAt: timestamp('logo_updated_at', { withTimezone: true }),
    /** The 30-day trial is once per home as well as once per account. */
    trialUsedAt: timestamp('trial_used_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('care_homes_manager_idx').on(t.managerId),
    uniqueIndex('care_homes_slug_idx').on(t.slug),
  ],
);

/** Staff: invited by email, each signing in with their own account once they accept. */
export const careHomeStaff = pgTable(
  'care_home_staff',
  {
    id: serial('id').primaryKey(),
    careHomeId: integer('care_home_id')
      .notNull()
      .references(() => careHomes.id, { onDelete: 'cascade' }),
    /** The account that accepted the invitation; null until then. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    /** SHA-256 of the invitation's token; cleared once accepted. */
    inviteTokenHash: text('invite_token_hash'),
    inviteExpiresAt: timestamp('invite_expires_at', { withTimezone: true }),
    invitedById: integer('invited_by_id'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** Left the home: kept, not deleted, so the logs still name them. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** The short PIN for the home's tablets (argon2id). */
    pinHash: text('pin_hash'),
    /** Wrong PINs in a row; a few lock the PIN for a while. */
    pinFailures: integer('pin_failures').notNull().default(0),
    pinLockedUntil: timestamp('pin_locked_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('care_home_staff_email_idx').on(t.careHomeId, sql`lower(${t.email})`),
    uniqueIndex('care_home_staff_token_idx')
      .on(t.inviteTokenHash)
      .where(sql`${t.inviteTokenHash} is not null`),
    index('care_home_staff_user_idx').on(t.userId),
  ],
);

/** A resident's link to the home: the account and its messages stay the resident's own. */
export const careHomeResidents = pgTable(
  'care_home_residents',
  {
    id: serial('id').primaryKey(),
    careHomeId: integer('care_home_id')
      .notNull()
      .references(() => careHomes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    room: text('room').notNull().default(''),
    /** Name and room, lower-cased: a second import of the same row finds it here. */
    importKey: text('import_key').notNull(),
    consentBasis: text('consent_basis').$type<TConsentBasis>(),
    attorneyName: text('attorney_name'),
    consentRecordedAt: timestamp('consent_recorded_at', { withTimezone: true }),
    status: text('status').$type<TResidentStatus>().notNull().default('active'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    /** "Pause Memento for me": not offered at stations while set. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('care_home_residents_user_idx').on(t.userId),
    uniqueIndex('care_home_residents_import_key_idx').on(t.careHomeId, t.importKey),
    check(
      'care_home_residents_consent_basis_check',
      sql`${t.consentBasis} in ('resident', 'attorney', 'best_interests')`,
    ),
    check('care_home_residents_status_check', sql`${t.status} in ('active', 'left', 'died')`),
  ],
);

/** A tablet of the home kept as a recording station: no account is bound to it. */
export const careHomeStations = pgTable(
  'care_home_stations',
  {
    deviceId: uuid('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    careHomeId: integer('care_home_id')
      .notNull()
      .references(() => careHomes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('care_home_stations_home_idx').on(t.careHomeId)],
);

/**
 * A staff member's session on a station (the id is the SHA-256 of its cookie token); once a
 * resident is picked it is record-only for that resident.
 */
export const careHomeStationSessions = pgTable(
  'care_home_station_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    careHomeId: integer('care_home_id')
      .notNull()
      .references(() => careHomes.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id')
      .notNull()
      .references(() => careHomeStaff.id, { onDelete: 'cascade' }),
    residentUserId: integer('resident_user_id').references(() => users.id, {
      onDelete: 'cascade',
    }),
    /** The resident whose own password was proved here: only their sealed takes are taken. */
    sealedUnlockedUserId: integer('sealed_unlocked_user_id').references(() => users.id, {
      onDelete: 'cascade',
    }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('care_home_station_sessions_device_idx').on(t.deviceId)],
);

/**
 * A message its resident shared with the care team of their home: the home's active staff and
 * manager may watch its cloud copy while the resident lives there. Deleting the message ends it.
 */
export const careTeamShares = pgTable(
  'care_team_shares',
  {
    videoId: uuid('video_id')
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    careHomeId: integer('care_home_id')
      .notNull()
      .references(() => careHomes.id, { onDelete: 'cascade' }),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('care_team_shares_home_idx').on(t.careHomeId, t.sharedAt)],
);
