import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
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
import type {
  TAuditEventType,
  TAuthProvider,
  TExternalProvider,
  TLoginMethod,
  TRole,
  TSubscriptionStatus,
  TTier,
  TUserCategory,
} from '../../shared/domain/enums';
import type { TReleaseRule } from '../../shared/domain/legacy';

/** A transaction id, 64 bits, as PostgreSQL's pg_current_xact_id() gives it; read as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * What the admin's search looks in: username, email, first and last name, one space apart. A
 * searched word holds no space, so it never matches across two of them. The trigram index below
 * is built on this very expression, which the search repeats, so the index can answer it.
 */
export function userSearchText(t: {
  username: AnyPgColumn;
  email: AnyPgColumn;
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
}): SQL {
  return sql`(${t.username} || ' ' || ${t.email} || ' ' || ${t.firstName} || ' ' || ${t.lastName})`;
}

/** Accounts. Recipients are rows here too, so they sign in like anyone. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    role: text('role').$type<TRole>().notNull().default('user'),
    twoFactorSecret: text('two_factor_secret'),
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /** When the authenticator app was confirmed; the secret above is encrypted. */
    twoFactorEnrolledAt: timestamp('two_factor_enrolled_at', { withTimezone: true }),
    /** The last TOTP time step accepted, so a code works only once. */
    twoFactorLastStep: integer('two_factor_last_step'),
    category: text('category').$type<TUserCategory>().notNull().default('primary'),
    createdById: integer('created_by_id'),
    phoneNumber: text('phone_number'),
    relationship: text('relationship'),
    /**
     * For a recipient: how many videos are indexed for them. Kept by the database (the trigger on
     * videos), so the recipients page counts no rows.
     */
    videoCount: integer('video_count').notNull().default(0),
    /**
     * For an owner: a number the database raises whenever what their lists show changes (their
     * videos' index, their recipients; kept by triggers). A server
     * keeps the list it last sent a session with this number and sends it again, without reading
     * the rows, while the number read with the request is the same.
     */
    listsVersion: integer('lists_version').notNull().default(0),
    emergencyAccessCodeHash: text('emergency_access_code_hash'),
    emergencyAccessCodeExpiry: timestamp('emergency_access_code_expiry', { withTimezone: true }),
    tosAccepted: boolean('tos_accepted').notNull().default(false),
    tosAcceptedAt: timestamp('tos_accepted_at', { withTimezone: true }),
    firstLogin: boolean('first_login').notNull().default(true),
    hasSetPassword: boolean('has_set_password').notNull().default(false),
    recipientAppSyncEnabled: boolean('recipient_app_sync_enabled').notNull().default(false),
    authProvider: text('auth_provider').$type<TAuthProvider>().notNull().default('local'),
    providerUserId: text('provider_user_id'),
    providerAccessToken: text('provider_access_token'),
    providerRefreshToken: text('provider_refresh_token'),
    providerTokenExpiry: timestamp('provider_token_expiry', { withTimezone: true }),
    subscriptionStatus: text('subscription_status')
      .$type<TSubscriptionStatus>()
      .notNull()
      .default('none'),
    subscriptionTier: text('subscription_tier').$type<TTier>().notNull().default('free'),
    paymentCustomerId: text('payment_customer_id'),
    paymentSubscriptionId: text('payment_subscription_id'),
    /**
     * Billing: the plan the subscription pays for while it grants one (null
     * otherwise); subscriptionTier is what the app grants, which an admin's override may hold.
     */
    billedTier: text('billed_tier').$type<TTier>(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A payment failed: the plan stays until then. */
    graceEndsAt: timestamp('grace_ends_at', { withTimezone: true }),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    /** The care-home trial is offered once per account. */
    trialUsedAt: timestamp('trial_used_at', { withTimezone: true }),
    /** When the subscription state applied here was read from Stripe; an older read is not applied. */
    billingSyncedAt: timestamp('billing_synced_at', { withTimezone: true }),
    isVIP: boolean('is_vip').notNull().default(false),
    vipOverriddenBy: integer('vip_overridden_by'),
    vipOverriddenAt: timestamp('vip_overridden_at', { withTimezone: true }),
    tierOverriddenBy: integer('tier_overridden_by'),
    tierOverriddenAt: timestamp('tier_overridden_at', { withTimezone: true }),
    tierOverrideReason: text('tier_override_reason'),
    onboardingCompletedAt: timestamp('onboarding_completed_at', { withTimezone: true }),
    /** Legacy release: days between the next of kin's request and the release. */
    legacyWaitingDays: integer('legacy_waiting_days').notNull().default(7),
    /** The optional inactivity check: months without signing in; null when off. */
    inactivityMonths: integer('inactivity_months'),
    /** Whether recipients see that a message is waiting for them, and when it opens. */
    showWaitingMessages: boolean('show_waiting_messages').notNull().default(false),
    /** Set once, when the legacy is released; 'after my legacy' messages open from then. */
    legacyReleasedAt: timestamp('legacy_released_at', { withTimezone: true }),
    /** On a next of kin's row: their owner has stopped them from asking for a release. */
    legacyRequestsStoppedAt: timestamp('legacy_requests_stopped_at', { withTimezone: true }),
    /** Inactivity reminders sent since the owner was last active (reset when they come back). */
    inactivityNotices: integer('inactivity_notices').notNull().default(0),
    inactivityNoticeAt: timestamp('inactivity_notice_at', { withTimezone: true }),
    /** The owner's IANA time zone as their browser last said, for dates in emails. */
    timeZone: text('time_zone'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_primary_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.category} = 'primary'`),
    index('users_created_by_idx').on(t.createdById, t.category),
    // The admin's search finds a word anywhere in these.
    index('users_search_trgm_idx').using('gin', sql`${userSearchText(t)} gin_trgm_ops`),
    // A recipient's email is unique per primary account.
    uniqueIndex('users_recipient_email_idx')
      .on(t.createdById, sql`lower(${t.email})`)
      .where(sql`${t.createdById} is not null`),
    // Webhooks find the account by its Stripe customer.
    uniqueIndex('users_payment_customer_idx')
      .on(t.paymentCustomerId)
      .where(sql`${t.paymentCustomerId} is not null`),
    // The hourly billing pass reads only accounts whose subscription grants a plan.
    // The hourly inactivity check reads only owners who turned it on.
    index('users_inactivity_idx')
      .on(t.id)
      .where(sql`${t.inactivityMonths} is not null`),
    index('users_billed_idx')
      .on(t.currentPeriodEnd)
      .where(sql`${t.billedTier} is not null`),
  ],
);

/** Stripe events already applied: each is applied once, in its own transaction. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** No foreign key: the record of what was applied outlives the account. */
  userId: integer('user_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The Stripe Checkout pages the app opens, one row each. A row is claimed ('opening', with the
 * idempotency key the page is made with) before Stripe is called, and filled in once Stripe
 * answers. An account has at most one row opening or open (the index below), so two clicks or two
 * tabs cannot pay for two plans; a plan is granted only through a customer the app made.
 */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    /** The idempotency key Stripe makes the page with: the same key, the same page. */
    key: text('key').primaryKey(),
    /** Stripe's Checkout session id; null while the page is being opened. */
    id: text('id').unique('billing_checkouts_session_idx'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    tier: text('tier').$type<TTier>().notNull(),
    url: text('url'),
    /** opening (claimed, Stripe not answered yet), open, complete (paid) or expired (closed). */
    status: text('status')
      .$type<'opening' | 'open' | 'complete' | 'expired'>()
      .notNull()
      .default('opening'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('billing_checkouts_one_open_idx')
      .on(t.userId)
      .where(sql`${t.status} in ('opening', 'open')`),
    index('billing_checkouts_user_idx').on(t.userId, t.createdAt),
  ],
);

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

/**
 * Append-only security log. userId has no foreign key on purpose: rows outlive the
 * account they describe and keep its username.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: serial('id').primaryKey(),
    eventType: text('event_type').$type<TAuditEventType>().notNull(),
    userId: integer('user_id'),
    username: text('username'),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    deviceId: uuid('device_id'),
    successful: boolean('successful').notNull().default(true),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The details in words, and who did it (audit.presenter.ts), written with the row. */
    summary: text('summary'),
    actor: text('actor'),
    /**
     * The row as the audit log shows it (TAuditLogEntry), as JSON text written by the database on
     * every insert and update; NULL only for a row from before
     * 0010 not yet worded (`wordEarlierAuditEntries`).
     */
    entry: text('entry'),
    /**
     * The transaction that last wrote `entry`, set by the same trigger: which
     * entries a reader's snapshot had not seen, so that a server may send a page it kept while
     * none has come since. NULL for a row from before 0012 until it is written.
     */
    entryWrittenIn: xid8('entry_written_in'),
  },
  (t) => [
    index('audit_logs_user_time_idx').on(t.userId, t.timestamp),
    index('audit_logs_failures_idx').on(t.userId, t.eventType, t.deviceId, t.timestamp),
    // The admin's log of every account, newest first (millions of rows).
    index('audit_logs_time_idx').on(t.timestamp, t.id),
    // The rows from before migration 0010 still to be worded: none, once they are.
    index('audit_logs_unworded_idx')
      .on(t.id)
      .where(sql`${t.entry} is null`),
    // The entries written since a snapshot: one account's (its own page), and everyone's.
    index('audit_logs_user_written_idx')
      .on(t.userId, t.entryWrittenIn)
      .where(sql`${t.entryWrittenIn} is not null`),
    index('audit_logs_written_idx')
      .on(t.entryWrittenIn)
      .where(sql`${t.entryWrittenIn} is not null`),
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
    sha256: text('sha256').notNull(),
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

/**
 * Each run of the nightly sweep of stored objects that no row owns: claimed once a day across app
 * servers, and what it removed.
 */
export const orphanSweeps = pgTable('orphan_sweeps', {
  id: serial('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  objectsRemoved: integer('objects_removed').notNull().default(0),
  uploadsRemoved: integer('uploads_removed').notNull().default(0),
});

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mobile_pairings_token_idx').on(t.tokenHash),
    index('mobile_pairings_user_idx').on(t.userId, t.createdAt),
  ],
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

/**
 * An external sign-in linked to a primary account: at most one per provider per
 * account, and a provider's subject belongs to one account. No provider tokens are kept.
 */
export const externalIdentities = pgTable(
  'external_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<TExternalProvider>().notNull(),
    subject: text('subject').notNull(),
    /** The email the provider gave when it was linked, to show the owner which account it is. */
    email: text('email'),
    createdAt: createdAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('external_identities_subject_idx').on(t.provider, t.subject),
    uniqueIndex('external_identities_user_provider_idx').on(t.userId, t.provider),
  ],
);

/**
 * A sign-in with an external provider in progress: bound to the device that started it, single
 * use, 10 minutes. The id is the SHA-256 of the flow cookie; state, nonce and PKCE verifier, and
 * later who the provider says this is, are sealed with the secret box.
 */
export const externalSignInFlows = pgTable(
  'external_sign_in_flows',
  {
    idHash: text('id_hash').primaryKey(),
    provider: text('provider').$type<TExternalProvider>().notNull(),
    intent: text('intent').$type<'sign_in' | 'link'>().notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** link: the signed-in account the provider is being linked to. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    checksSealed: text('checks_sealed').notNull(),
    identitySealed: text('identity_sealed'),
    status: text('status')
      .$type<'started' | 'returned' | 'finished'>()
      .notNull()
      .default('started'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('external_sign_in_flows_expires_idx').on(t.expiresAt)],
);

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

/**
 * The app's timed work (session clean-up, cloud retention, the orphan sweep, billing, legacy
 * release): one row a job, holding when it runs next, so the schedule survives restarts and runs
 * each job on one server at a time.
 */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastError: text('last_error'),
  runs: integer('runs').notNull().default(0),
});
