import type { TTier } from './enums';
import type { TFeatureId } from './feature-status';

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
