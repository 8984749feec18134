export const ROLES = ['super_admin', 'admin', 'user'] as const;
export type TRole = (typeof ROLES)[number];

export const TIERS = [
  'free',
  'standard',
  'premium',
  'professional',
  'enterprise',
  'nonprofit',
] as const;
export type TTier = (typeof TIERS)[number];

export const SUBSCRIPTION_STATUSES = ['none', 'active', 'cancelled', 'past_due'] as const;
export type TSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The kinds of recipient an owner adds; each signs in with their email and an access code. */
export const RECIPIENT_CATEGORIES = ['next_of_kin', 'family', 'friend'] as const;
export type TRecipientCategory = (typeof RECIPIENT_CATEGORIES)[number];

export const USER_CATEGORIES = ['primary', ...RECIPIENT_CATEGORIES, 'admin'] as const;
export type TUserCategory = (typeof USER_CATEGORIES)[number];

export function isRecipientCategory(category: string): category is TRecipientCategory {
  return (RECIPIENT_CATEGORIES as readonly string[]).includes(category);
}

/**
 * What a recipient's stored code hash is of: a code the server made ('code'), or the proof of a
 * code made in the owner's browser for a sealed card ('proof'), which the server never sees.
 */
export const ACCESS_CODE_FORMS = ['code', 'proof'] as const;
export type TAccessCodeForm = (typeof ACCESS_CODE_FORMS)[number];

/** How an account was created: 'local' (a password) or the external provider it signed up with. */
export const AUTH_PROVIDERS = ['local', 'google', 'apple', 'oidc'] as const;
export type TAuthProvider = (typeof AUTH_PROVIDERS)[number];

/** The external sign-in providers: `/auth/{provider}` takes exactly these. */
export const EXTERNAL_PROVIDERS = ['google', 'apple', 'oidc'] as const;
export type TExternalProvider = (typeof EXTERNAL_PROVIDERS)[number];

export const LOGIN_METHODS = [
  'username_password',
  'email_access_code',
  'emergency_access',
  'external_provider',
] as const;
export type TLoginMethod = (typeof LOGIN_METHODS)[number];

export const AUDIT_EVENT_TYPES = [
  'login',
  'logout',
  'register',
  'password_reset',
  'password_reset_request',
  'break_glass',
  'login_failed',
  'device_reset',
  'admin_login',
  'admin_2fa_enabled',
  'admin_2fa_verified',
  'admin_user_deleted',
  'admin_user_modified',
  'admin_vip_override',
  'admin_tier_override',
  'subscription_created',
  'subscription_updated',
  'subscription_cancelled',
  // Beyond the product's first list: recipient and code changes belong in the owner's log too.
  'recipient_added',
  'recipient_updated',
  'recipient_code_reissued',
  'recipient_deleted',
  'onboarding_completed',
  'videos_deleted',
  'device_added',
  'device_set_primary',
  'pairing_created',
  'pairing_cancelled',
  'pairing_video_received',
  // An external sign-in linked to or removed from an account.
  'provider_linked',
  'provider_unlinked',
  // Legacy release: each step is on the owner's log, and the next of kin's where it concerns them.
  'legacy_settings_changed',
  'legacy_release_requested',
  'legacy_release_reminder',
  'legacy_release_cancelled',
  'legacy_released',
  'legacy_message_opened',
  'legacy_inactivity_reminder',
  'legacy_release_ended',
  'legacy_requests_stopped',
  'legacy_requests_allowed',
  // Enhanced encryption, turned on once by the owner (there is no turning it off yet).
  'enhanced_encryption_turned_on',
  // After a reset, the owner's browser wrapped the account key under the new password.
  'encryption_password_renewed',
  // A plain cloud copy replaced by one sealed in the owner's browser.
  'encryption_copy_resealed',
  // A recipient's card made anew on the owner's device: the old code and its wraps end.
  'recipient_card_replaced',
  // Messages moved tablet to tablet: the server only introduces the two devices.
  'transfer_started',
  'transfer_finished',
  'transfer_failed',
  // The old device, signed out by the account's move, offered its messages with the password.
  'transfer_offered_signed_out',
  // Care homes: the manager's own steps on their log; each step about a resident on the resident's.
  'care_home_saved',
  'care_home_staff_invited',
  'care_home_staff_joined',
  'care_home_staff_disabled',
  'care_home_residents_imported',
  'care_home_resident_added',
  'care_home_consent_recorded',
  'care_home_station_made',
  'care_home_pin_set',
  'care_home_pin_refused',
  'care_home_station_session',
  'care_home_recording_saved',
  'care_home_paused',
  // A care home printed an invitation letter, with a new code, for a resident's family.
  'care_home_letter_printed',
  // A care home recorded that a resident left, came back or died.
  'care_home_resident_status',
  // A care home's manager downloaded the progress table as a spreadsheet.
  'care_home_progress_exported',
  // The next of kin's escrow of the account key asked for: handed over only after the release.
  'next_of_kin_key_opened',
  // The owner's account asking for the next of kin's card to open it after a wait, and its end.
  'key_recovery_requested',
  'key_recovery_cancelled',
  // A care home's request for help, and an operator marking it answered.
  'support_request_sent',
  'admin_support_answered',
  // A resident shared a message with their care home's care team, stopped, or the team watched it.
  'care_team_shared',
  'care_team_unshared',
  'care_team_watched',
] as const;
export type TAuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
