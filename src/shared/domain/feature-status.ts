/** How far each feature has come in this build, said plainly: trust is the product. */
export type TFeatureStatus = 'complete' | 'in_progress' | 'started' | 'planned';

export const FEATURE_STATUS_LABELS: Record<TFeatureStatus, string> = {
  complete: 'Complete',
  in_progress: 'In Progress',
  started: 'Started',
  planned: 'Planned',
};

export type TFeatureId =
  | 'local_storage'
  | 'recipients'
  | 'more_devices'
  | 'emergency_access'
  | 'audit_log'
  | 'backups'
  | 'device_migration'
  | 'cloud_sync'
  | 'background_sync'
  | 'enhanced_encryption'
  | 'family_sharing'
  | 'payments'
  | 'custom_branding'
  | 'bulk_management'
  | 'priority_support';

export interface TFeature {
  id: TFeatureId;
  name: string;
  /** What a person gets today, in one or two plain sentences. */
  description: string;
  status: TFeatureStatus;
}

/**
 * The feature status list shown on /features. It states this build's real status: update it in
 * the same change that ships or removes a feature.
 */
export const FEATURES: readonly TFeature[] = [
  {
    id: 'local_storage',
    name: 'Videos kept on this device',
    description:
      'Recordings are saved in this browser as you record them. Community Edition videos never leave the device.',
    status: 'complete',
  },
  {
    id: 'recipients',
    name: 'Recipients and plan limits',
    description:
      'Add the people you record for. Each plan’s recipient and recording limits are applied by the server.',
    status: 'complete',
  },
  {
    id: 'more_devices',
    name: 'More devices',
    description:
      'On a paid plan you can sign in on more phones, tablets and computers, up to your plan’s limit, each added with a code sent to your email. Recording stays on the primary device.',
    status: 'complete',
  },
  {
    id: 'emergency_access',
    name: 'Next of kin emergency access',
    description:
      'Your next of kin holds an emergency code that can reset your password. Every attempt is recorded and you are told by email.',
    status: 'complete',
  },
  {
    id: 'audit_log',
    name: 'Security audit log',
    description: 'Every sign-in, reset and change to your account is written down for you to read.',
    status: 'complete',
  },
  {
    id: 'backups',
    name: 'One-file backups',
    description:
      'Download your videos and details as one file, keep it somewhere safe, and restore it on this account.',
    status: 'complete',
  },
  {
    id: 'device_migration',
    name: 'Moving to a new device',
    description:
      'Your account can move to a new device with a code sent to your email. On a paid plan the new device then brings every message down from the cloud by itself, each checked to match; the old device keeps its copies. On the free plan the old device shows a code, and the videos go straight to the new device over your own network, never through the cloud, encrypted and each checked to match; a backup file still works when the two devices cannot reach each other.',
    status: 'in_progress',
  },
  {
    id: 'cloud_sync',
    name: 'Cloud sync',
    description:
      'On paid plans every recording is copied to the cloud after it is saved here, checked to match, and your recipients watch it on their own phone or computer.',
    status: 'complete',
  },
  {
    id: 'background_sync',
    name: 'Background sync',
    description:
      'New recordings are sent on their own, and pick up where they stopped after a lost connection. In Chrome, Edge and other Chromium browsers they are sent when the connection returns even if Memento is closed; in Safari and Firefox they are sent while Memento is open, and the dashboard says so.',
    status: 'complete',
  },
  {
    id: 'enhanced_encryption',
    name: 'Enhanced encryption',
    description:
      'Encrypting videos with a key only you and your recipients hold. On a paid plan you can turn it on: from then on your cloud copies are sealed in your browser, your recipients open them with cards you make on your device, copies already in the cloud are sealed again, and your password never reaches our server. Your ways back are a device you unlocked, your printed recovery sheet, and your next of kin’s emergency card: after your legacy is released, or after a waiting period you can stop from your email. Importing from a phone works too: the phone seals each video before it is sent. At a care home’s recording station a resident with it on types their own password; each message is sealed on the tablet before it is sent, and the tablet forgets the key when they finish. Even sealed, our server still sees who records for whom, each message’s size and times, and your release rules.',
    status: 'in_progress',
  },
  {
    id: 'family_sharing',
    name: 'Family sharing',
    description:
      'Sharing one plan with your family. Today each person who records messages needs their own account and plan.',
    status: 'planned',
  },
  {
    id: 'payments',
    name: 'Paying for a plan',
    description:
      'Choose a paid plan and pay on Stripe’s secure page; change your plan, card or cancel in Manage billing. Where an installation has not switched payments on, the plans say Coming Soon.',
    status: 'complete',
  },
  {
    id: 'custom_branding',
    name: 'Custom branding for organisations',
    description:
      'A care home sets its name, an accent colour the server checks is easy to read (7:1), and its logo. Its families’ page at /r/, its printed invitation letters, the emails its residents’ families receive and its recording-station screens all show them, always with ‘Powered by Memento’; a resident who lives at the home sees its name and logo on their own dashboard. Once a resident leaves, or the home’s plan ends, their family’s emails are Memento’s own again.',
    status: 'complete',
  },
  {
    id: 'bulk_management',
    name: 'Bulk management for organisations',
    description:
      'A care home’s manager imports residents and their next of kin from a file, checked row by row first; invites staff, who sign in with their own accounts; and sees each resident’s progress in counts and dates, never their messages. The table sorts by any column, with those who need help first: no next of kin or consent, family not joined after 14 days, nothing recorded in 30 days, or a recording that has not finished sending for over a day. It downloads as a spreadsheet with family emails partly hidden. The manager prints one invitation letter per family that has not joined, with a code that works for 30 days unless used and a QR code that opens the sign-in. A resident who leaves keeps every message; recording a death only tells their next of kin they may ask for the legacy release.',
    status: 'complete',
  },
  {
    id: 'priority_support',
    name: 'Priority support for organisations',
    description:
      'A care home’s manager and staff ask for help from the app and see when to expect a reply: on Professional, urgent within 4 working hours and otherwise within 1 working day (Monday to Friday, 9am to 5pm UK time, not counting the regular bank holidays of England and Wales). Requests reach the installation’s operators by email and in the admin dashboard, Professional first. Answers come by email; there is no phone line.',
    status: 'complete',
  },
];

export function findFeature(id: TFeatureId): TFeature {
  const feature = FEATURES.find((entry) => entry.id === id);
  if (!feature) throw new Error(`No feature status entry for ${id}`);
  return feature;
}

/** A plan line's status, from the same entry the features page shows. */
export function statusOf(line: { featureId: TFeatureId }): TFeatureStatus {
  return findFeature(line.featureId).status;
}
