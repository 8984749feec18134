import type { TRole, TTier } from './enums';

/**
 * The one source of truth for plans and their limits. The features page, the server's limits and
 * the upgrade dialogs all read this file.
 */
export interface TPlan {
  tier: TTier;
  name: string;
  /** Monthly price in pounds; null for free, custom or contact-only plans. */
  priceMonthlyGbp: number | null;
  priceLabel: string;
  audience: 'individual' | 'organisation';
  badge: 'Special offer' | 'Most popular' | null;
  /**
   * Recipients besides the next of kin, who never counts: else a free user could record only for
   * them. Null means unlimited.
   */
  maxRecipients: number | null;
  /** Devices an account may use; null means unlimited. */
  maxDevices: number | null;
  maxRecordingSeconds: number;
  hasCloudSync: boolean;
  /** Cloud storage for synced messages; 0 without cloud sync. */
  cloudStorageBytes: number;
  isContactOnly: boolean;
  /** What the plan includes, each line tied to its entry in the feature status list. */
  features: readonly TPlanFeature[];
  /** Terms that are not features (a discount, how to ask): no status to show. */
  terms: readonly string[];
}

/** One line a plan sells, and the feature whose status it carries wherever it is shown. */
export interface TPlanFeature {
  text: string;
  featureId: TFeatureId;
}

const line = (text: string, featureId: TFeatureId): TPlanFeature => ({ text, featureId });

const GIB = 1024 ** 3;

export const PLANS: readonly TPlan[] = [
  {
    tier: 'free',
    name: 'Community Edition',
    priceMonthlyGbp: null,
    priceLabel: 'Free forever',
    audience: 'individual',
    badge: null,
    maxRecipients: 1,
    maxDevices: 1,
    maxRecordingSeconds: 60,
    hasCloudSync: false,
    cloudStorageBytes: 0,
    isContactOnly: false,
    features: [
      line('Your next of kin plus 1 more recipient', 'recipients'),
      line('One device: your videos never leave it', 'local_storage'),
      line('Recordings up to 1 minute', 'recipients'),
      line('Backup files you keep yourself', 'backups'),
    ],
    terms: [],
  },
  {
    tier: 'standard',
    name: 'Standard',
    priceMonthlyGbp: 4.99,
    priceLabel: '£4.99 a month',
    audience: 'individual',
    badge: 'Special offer',
    maxRecipients: 10,
    maxDevices: 3,
    maxRecordingSeconds: 300,
    hasCloudSync: true,
    cloudStorageBytes: 25 * GIB,
    isContactOnly: false,
    features: [
      line('Up to 10 recipients', 'recipients'),
      line('Up to 3 devices', 'more_devices'),
      line('Recordings up to 5 minutes', 'recipients'),
      line('Cloud sync', 'cloud_sync'),
      line('Background sync', 'background_sync'),
    ],
    terms: [],
  },
  {
    tier: 'premium',
    name: 'Premium',
    priceMonthlyGbp: 9.99,
    priceLabel: '£9.99 a month',
    audience: 'individual',
    badge: 'Most popular',
    maxRecipients: null,
    maxDevices: 10,
    maxRecordingSeconds: 600,
    hasCloudSync: true,
    cloudStorageBytes: 100 * GIB,
    isContactOnly: false,
    features: [
      line('Unlimited recipients', 'recipients'),
      line('Up to 10 devices', 'more_devices'),
      line('Recordings up to 10 minutes', 'recipients'),
      line('Device migration', 'device_migration'),
      line('Family sharing', 'family_sharing'),
    ],
    terms: [],
  },
  {
    tier: 'professional',
    name: 'Professional',
    priceMonthlyGbp: 24.99,
    priceLabel: '£24.99 a month',
    audience: 'organisation',
    badge: null,
    maxRecipients: null,
    maxDevices: 25,
    maxRecordingSeconds: 600,
    hasCloudSync: true,
    cloudStorageBytes: 500 * GIB,
    isContactOnly: false,
    features: [
      line('Unlimited recipients', 'recipients'),
      line('Up to 25 devices', 'more_devices'),
      line('Recordings up to 10 minutes', 'recipients'),
      line('Custom branding', 'custom_branding'),
      line('Bulk management', 'bulk_management'),
      line('Priority support', 'priority_support'),
    ],
    terms: [],
  },
  {
    tier: 'enterprise',
    name: 'Enterprise',
    priceMonthlyGbp: null,
    priceLabel: 'Custom pricing',
    audience: 'organisation',
    badge: null,
    maxRecipients: null,
    maxDevices: null,
    maxRecordingSeconds: 600,
    hasCloudSync: true,
    cloudStorageBytes: 2048 * GIB,
    isContactOnly: true,
    features: [
      line('Unlimited recipients', 'recipients'),
      line('Unlimited devices', 'more_devices'),
      line('Recordings up to 10 minutes', 'recipients'),
    ],
    terms: ['Contact sales'],
  },
  {
    tier: 'nonprofit',
    name: 'Nonprofit',
    priceMonthlyGbp: null,
    priceLabel: 'Custom pricing',
    audience: 'organisation',
    badge: null,
    maxRecipients: null,
    maxDevices: null,
    maxRecordingSeconds: 600,
    hasCloudSync: true,
    cloudStorageBytes: 2048 * GIB,
    isContactOnly: true,
    // Enterprise's plan at a charity's price: its lines are Enterprise's.
    features: [],
    terms: ['50% off Enterprise for verified charities', 'Contact us'],
  },
];

/** Care homes may try the organisation plans free for this many days. */
export const CARE_HOME_TRIAL_DAYS = 30;

/** The plans a person buys themselves through the payment provider. */
export const PAID_TIERS = [
  'standard',
  'premium',
  'professional',
] as const satisfies readonly TTier[];
export type TPaidTier = (typeof PAID_TIERS)[number];

/** The one paid plan that offers the care-home trial, once per account. */
export const TRIAL_TIER: TPaidTier = 'professional';

/**
 * After a failed payment the plan stays this many days while the card is put right
 * (docs/decisions/056-billing.md).
 */
export const PAYMENT_GRACE_DAYS = 14;

export function isPaidTier(tier: string): tier is TPaidTier {
  return (PAID_TIERS as readonly string[]).includes(tier);
}

/** Cloud copies are kept this long after a move to a plan without cloud sync. */
export const CLOUD_RETENTION_DAYS = 30;

export function findPlan(tier: TTier): TPlan {
  return PLANS.find((plan) => plan.tier === tier) ?? PLANS[0]!;
}

interface TLimitSubject {
  subscriptionTier: TTier;
  isAdmin: boolean;
  isVIP: boolean;
  role: TRole;
}

/**
 * Admins, super admins and VIPs are treated as premium: no limits, no banner. No username gets
 * this by name: that would be a back door.
 */
export function hasFullAccess(user: TLimitSubject): boolean {
  return user.isAdmin || user.isVIP || user.role === 'admin' || user.role === 'super_admin';
}

/** Cloud sync: the paid plans, VIPs and admins; Community Edition stays local. */
export function hasCloudSync(user: TLimitSubject): boolean {
  return hasFullAccess(user) || findPlan(user.subscriptionTier).hasCloudSync;
}

/** Bytes of cloud storage: VIPs and admins get Professional's. */
export function cloudQuotaFor(user: TLimitSubject): number {
  if (hasFullAccess(user)) return findPlan('professional').cloudStorageBytes;
  return findPlan(user.subscriptionTier).cloudStorageBytes;
}

export interface TLimits {
  /** Recipients besides the next of kin; null means unlimited. */
  maxRecipients: number | null;
  maxRecordingSeconds: number;
  maxDevices: number | null;
  showsHouseBanner: boolean;
}

export function limitsFor(user: TLimitSubject): TLimits {
  if (hasFullAccess(user)) {
    return {
      maxRecipients: null,
      maxRecordingSeconds: 600,
      maxDevices: null,
      showsHouseBanner: false,
    };
  }
  const plan = findPlan(user.subscriptionTier);
  return {
    maxRecipients: plan.maxRecipients,
    maxRecordingSeconds: plan.maxRecordingSeconds,
    maxDevices: plan.maxDevices,
    showsHouseBanner: user.subscriptionTier === 'free',
  };
}

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
      'Your account can move to a new device with a code sent to your email. Videos move with a backup file; moving them automatically is not built yet.',
    status: 'started',
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
      'New recordings are sent on their own while Memento is open, and pick up where they stopped after a lost connection. Sending while the app is closed is not built yet.',
    status: 'in_progress',
  },
  {
    id: 'enhanced_encryption',
    name: 'Enhanced encryption',
    description: 'Encrypting videos with a key only you and your recipients hold.',
    status: 'planned',
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
    description: 'A care home’s own name and colours on the screens its residents use.',
    status: 'planned',
  },
  {
    id: 'bulk_management',
    name: 'Bulk management for organisations',
    description:
      'Setting up and looking after many residents’ accounts from one place. Today each account is set up on its own.',
    status: 'planned',
  },
  {
    id: 'priority_support',
    name: 'Priority support for organisations',
    description:
      'A quicker way for organisations to reach our team. There is no separate line for them yet.',
    status: 'planned',
  },
];

export function findFeature(id: TFeatureId): TFeature {
  const feature = FEATURES.find((entry) => entry.id === id);
  if (!feature) throw new Error(`No feature status entry for ${id}`);
  return feature;
}

/** A plan line's status, from the same entry the features page shows. */
export function statusOf(line: TPlanFeature): TFeatureStatus {
  return findFeature(line.featureId).status;
}
