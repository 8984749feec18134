import { sql } from 'drizzle-orm';
import {
  bigint,
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
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { TTier } from '../../../shared/domain/enums';
import type { TReleaseRule } from '../../../shared/domain/legacy';
import { createdAt } from './columns';
import { devices } from './devices';
import { users } from './users';

/** The video index, cloud uploads and their clean-up, and mobile pairing. */

/**
 * The server's index of a primary user's videos: never the content, and
 * for local-only videos neither the title nor the prompt. The id is the client's UUID, so a
 * retried save cannot make a second row.
 */
export const videos = pgTable(
  'videos',
  {
    id: uuid('id').primaryKey(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    promptId: text('prompt_id'),
    title: text('title'),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    storageType: text('storage_type').$type<'local' | 'cloud'>().notNull().default('local'),
    syncStatus: text('sync_status')
      .$type<'local_only' | 'pending_sync' | 'synced' | 'conflict'>()
      .notNull()
      .default('local_only'),
    videoUrl: text('video_url'),
    /** The stored object's key: random, never a title or a name. */
    cloudPath: text('cloud_path'),
    /** SHA-256 (hex) of the stored bytes, checked against the device's copy on completion. */
    sha256: text('sha256'),
    byteSize: bigint('byte_size', { mode: 'number' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    mimeType: text('mime_type').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /**
     * The row as the library's index presents it (`toVideoIndexEntry`), as JSON text: written by
     * the database itself on every insert and update (the trigger in migration 0008), so
     * that GET /api/videos joins the rows' texts rather than build each one afresh.
     */
    indexEntry: text('index_entry'),
    /** When the recipient may watch: 'now', 'date' (from releaseAt) or 'legacy' (after release). */
    releaseRule: text('release_rule').$type<TReleaseRule>().notNull().default('now'),
    releaseAt: timestamp('release_at', { withTimezone: true }),
    /** A dated message's opening was announced to its recipient (once). */
    openingAnnouncedAt: timestamp('opening_announced_at', { withTimezone: true }),
    /**
     * The cloud copy is sealed: its content key wrapped under the owner's account key (the server
     * cannot open it). Null for a plain copy, or none.
     */
    sealedKeyWrap: text('sealed_key_wrap'),
    /**
     * The content key wrapped for the recipient's card `recipientKeyId`: handed to the recipient
     * only once the message is open to them. Null when no card of theirs opens it yet.
     */
    recipientKeyWrap: text('recipient_key_wrap'),
    recipientKeyId: uuid('recipient_key_id'),
    /**
     * A phone's sealed copy waiting for the owner's device: its content key wrapped under the
     * pairing key of `pairingId`, until wrapped again for the owner (then null).
     */
    pairingKeyWrap: text('pairing_key_wrap'),
    pairingId: uuid('pairing_id').references((): AnyPgColumn => mobilePairings.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('videos_creator_idx').on(t.creatorId, t.createdAt),
    index('videos_recipient_idx').on(t.recipientId),
    index('videos_recipient_synced_idx')
      .on(t.recipientId, t.createdAt)
      .where(sql`${t.syncStatus} = 'synced'`),
    // One owner row per stored object; the nightly sweep asks by key.
    // The hourly pass finds dated messages that opened and are not announced yet.
    index('videos_release_due_idx')
      .on(t.releaseAt)
      .where(sql`${t.releaseRule} = 'date' and ${t.openingAnnouncedAt} is null`),
    uniqueIndex('videos_cloud_path_idx')
      .on(t.cloudPath)
      .where(sql`${t.cloudPath} is not null`),
    index('videos_waiting_seal_idx')
      .on(t.creatorId)
      .where(sql`${t.pairingKeyWrap} is not null`),
  ],
);

/**
 * A resumable multipart upload of one video to cloud storage: S3's own upload in
 * S3 mode, part files under DATA_DIR in file mode. The client keeps each finished part's ETag,
 * so resuming never asks the store which parts it has.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who may send parts: the owner's device, or a phone paired through import-from-mobile. */
    deviceId: uuid('device_id'),
    pairingId: uuid('pairing_id'),
    objectKey: text('object_key').notNull(),
    /** S3 mode: the store's multipart upload id. */
    storeUploadId: text('store_upload_id'),
    byteSize: bigint('byte_size', { mode: 'number' }).notNull(),
    partSize: integer('part_size').notNull(),
    partCount: integer('part_count').notNull(),
    /** Null for a copy sealed while it is sent: checked part by part, known by their composite. */
    sha256: text('sha256'),
    /** A sealed copy's key wrap, moved onto the video with its object when the upload completes. */
    sealedKeyWrap: text('sealed_key_wrap'),
    /** The content key for the recipient's card then current; moved onto the video with the rest. */
    recipientKeyWrap: text('recipient_key_wrap'),
    recipientKeyId: uuid('recipient_key_id'),
    /** A phone's sealed copy: its content key under the pairing key, moved onto the video too. */
    pairingKeyWrap: text('pairing_key_wrap'),
    /** 'completing' while one request joins the parts (completedAt then says since when). */
    status: text('status')
      .$type<'active' | 'completing' | 'completed' | 'aborted'>()
      .notNull()
      .default('active'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('uploads_one_active_per_video_idx')
      .on(t.videoId)
      .where(sql`${t.status} = 'active'`),
    index('uploads_user_status_idx').on(t.userId, t.status),
    index('uploads_object_key_idx').on(t.objectKey),
  ],
);

/** Tier downgrade record: cloud copies kept for a while after a move to free. */
export const tierDowngrades = pgTable(
  'tier_downgrades',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    previousTier: text('previous_tier').$type<TTier>().notNull(),
    newTier: text('new_tier').$type<TTier>().notNull(),
    downgradeDate: timestamp('downgrade_date', { withTimezone: true }).notNull().defaultNow(),
    cloudRetentionDays: integer('cloud_retention_days').notNull().default(30),
    cloudRetentionExpiry: timestamp('cloud_retention_expiry', { withTimezone: true }).notNull(),
    dataExported: boolean('data_exported').notNull().default(false),
    exportedAt: timestamp('exported_at', { withTimezone: true }),
    cloudCleanupCompleted: boolean('cloud_cleanup_completed').notNull().default(false),
    cleanedUpAt: timestamp('cleaned_up_at', { withTimezone: true }),
    recipientsRemoved: integer('recipients_removed').notNull().default(0),
    videosDeleted: integer('videos_deleted').notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('tier_downgrades_user_idx').on(t.userId, t.downgradeDate),
    index('tier_downgrades_due_idx')
      .on(t.cloudRetentionExpiry)
      .where(sql`not ${t.cloudCleanupCompleted}`),
  ],
);

/**
 * Import from mobile: a phone paired to a primary account for a short time. The pairing's secret
 * is stored hashed; it grants upload for that account only (no list, read or delete).
 */
export const mobilePairings = pgTable(
  'mobile_pairings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdByDeviceId: uuid('created_by_device_id'),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    uploadsCount: integer('uploads_count').notNull().default(0),
    /**
     * With enhanced encryption on: the pairing key (made in the owner's browser, handed to the
     * phone in the link's fragment) wrapped under the account key, named by `keyId`.
     */
    keyId: uuid('key_id'),
    keyWrap: text('key_wrap'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mobile_pairings_token_idx').on(t.tokenHash),
    index('mobile_pairings_user_idx').on(t.userId, t.createdAt),
  ],
);
