import type { TRole, TTier } from './enums';
import { findPlan } from './plans';

// What each account may do under its plan, and who is free of the limits.

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
