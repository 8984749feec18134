import type { TAuditEventType } from '@shared/domain/enums';
import { formatClockTime, formatShortDate } from '@web/lib/date-format';

/** Plain words for each audit event type. */
const EVENT_LABELS: Record<TAuditEventType, string> = {
  login: 'Signed in',
  logout: 'Signed out',
  register: 'Account created',
  password_reset: 'Password reset',
  password_reset_request: 'Password reset requested',
  enhanced_encryption_turned_on: 'Enhanced encryption turned on',
  encryption_password_renewed: 'New password opens sealed messages',
  encryption_copy_resealed: 'Cloud copy sealed again',
  break_glass: 'Emergency access',
  login_failed: 'Sign-in failed',
  device_reset: 'Device reset',
  admin_login: 'Admin signed in',
  admin_2fa_enabled: 'Two-step sign-in turned on',
  admin_2fa_verified: 'Two-step sign-in checked',
  admin_user_deleted: 'Account deleted by an admin',
  admin_user_modified: 'Account changed by an admin',
  admin_vip_override: 'VIP status changed',
  admin_tier_override: 'Plan changed by an admin',
  subscription_created: 'Subscription started',
  subscription_updated: 'Subscription changed',
  subscription_cancelled: 'Subscription cancelled',
  recipient_added: 'Recipient added',
  recipient_updated: 'Recipient updated',
  recipient_code_reissued: 'New access code issued',
  recipient_card_replaced: 'New card made',
  recipient_deleted: 'Recipient removed',
  onboarding_completed: 'Setup completed',
  videos_deleted: 'Videos deleted',
  device_added: 'Device added',
  device_set_primary: 'Primary device changed',
  pairing_created: 'Phone paired',
  pairing_cancelled: 'Phone pairing cancelled',
  pairing_video_received: 'Video received from a phone',
  transfer_started: 'Messages moving to a new device',
  transfer_finished: 'Messages moved to a new device',
  transfer_failed: 'Moving messages stopped',
  transfer_offered_signed_out: 'Messages offered from a signed-out old device',
  care_home_saved: 'Care home details saved',
  care_home_staff_invited: 'Staff member invited',
  care_home_staff_joined: 'Joined a care home’s staff',
  care_home_staff_disabled: 'Staff member disabled',
  care_home_residents_imported: 'Residents imported',
  care_home_resident_added: 'Added by a care home',
  care_home_consent_recorded: 'Consent recorded by a care home',
  care_home_station_made: 'Recording station made',
  care_home_pin_set: 'Station PIN set',
  care_home_pin_refused: 'Wrong station PIN',
  care_home_station_session: 'Recording session at a care home',
  care_home_recording_saved: 'Message saved at a care home',
  care_home_paused: 'Memento paused or resumed at a care home',
  care_home_letter_printed: 'Invitation letter printed by the care home',
  care_home_resident_status: 'Care home recorded a move or a death',
  care_home_progress_exported: 'Progress table downloaded',
  next_of_kin_key_opened: 'Next of kin’s key to the account',
  key_recovery_requested: 'Key recovery asked for',
  key_recovery_cancelled: 'Key recovery stopped',
  support_request_sent: 'Asked Memento for help',
  admin_support_answered: 'Support request marked answered',
  care_team_shared: 'Message shared with the care team',
  care_team_unshared: 'Stopped sharing with the care team',
  care_team_watched: 'Care team watched a shared message',
  provider_linked: 'Sign-in provider linked',
  provider_unlinked: 'Sign-in provider removed',
  legacy_settings_changed: 'Legacy release settings saved',
  legacy_release_requested: 'Legacy release asked for',
  legacy_release_reminder: 'Legacy release reminder',
  legacy_release_cancelled: 'Legacy release cancelled',
  legacy_released: 'Legacy released',
  legacy_message_opened: 'Message opened',
  legacy_inactivity_reminder: 'Inactivity check',
  legacy_release_ended: 'Legacy release ended',
  legacy_requests_stopped: 'Next of kin stopped from asking',
  legacy_requests_allowed: 'Next of kin may ask again',
};

export function describeEvent(eventType: string): string {
  if (eventType in EVENT_LABELS) return EVENT_LABELS[eventType as TAuditEventType];
  const words = eventType.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The event's date and time of day in the viewer's own time zone ('28 Nov 2026', '09:58:12'). */
export function formatEventTime(timestamp: string): { date: string; time: string } {
  const when = new Date(timestamp);
  if (Number.isNaN(when.getTime())) return { date: timestamp, time: '' };
  return { date: formatShortDate(when), time: formatClockTime(when) };
}
