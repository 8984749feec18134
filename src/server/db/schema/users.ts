import { sql, type SQL } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  TAccessCodeForm,
  TAuthProvider,
  TRole,
  TSubscriptionStatus,
  TTier,
  TUserCategory,
} from '../../../shared/domain/enums';
import type { TKdfParams } from '../../../shared/sealing';
import { createdAt } from './columns';

/** Accounts: owners, recipients and admins. */

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
    /**
     * Set once enhanced encryption is on: the password is split in the browser, the hash above is
     * of its sign-in half, and these are the settings the browser derives it with (prelogin).
     */
    passwordKdf: jsonb('password_kdf').$type<TKdfParams>(),
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
    /**
     * What that hash is of: the code itself ('code', made by the server) or the code's proof
     * ('proof', a sealed card made in the owner's browser); a sign-in checks each only with its kind.
     */
    accessCodeForm: text('access_code_form').$type<TAccessCodeForm>().notNull().default('code'),
    /**
     * A code printed on a care home's invitation letter works only until then, unless used: the
     * first sign-in with it clears this. Every other code never expires (null).
     */
    accessCodeExpiresAt: timestamp('access_code_expires_at', { withTimezone: true }),
    tosAccepted: boolean('tos_accepted').notNull().default(false),
    tosAcceptedAt: timestamp('tos_accepted_at', { withTimezone: true }),
    firstLogin: boolean('first_login').notNull().default(true),
    hasSetPassword: boolean('has_set_password').notNull().default(false),
    authProvider: text('auth_provider').$type<TAuthProvider>().notNull().default('local'),
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
