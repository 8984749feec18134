import type { TAdminDevice, TAdminUser } from '../../../shared/schemas/admin';
import { hasAdminOverride } from '../billing/billing-state';
import { toAccountIdentity } from '../users/users.presenter';
import type { UserRow } from '../users/users.repository';

/**
 * An account as the admin dashboard sees it: never a hash, token or secret. `Object.assign`, not
 * a literal opening with a spread (see `toUserResponse`): this runs for every row of a page.
 */
export function toAdminUser(user: UserRow, dependentCount: number): TAdminUser {
  return Object.assign(toAccountIdentity(user), {
    subscriptionTier: user.subscriptionTier,
    isVIP: user.isVIP,
    tierOverriddenBy: user.tierOverriddenBy,
    tierOverriddenAt: user.tierOverriddenAt?.toISOString() ?? null,
    tierOverrideReason: user.tierOverrideReason,
    vipOverriddenBy: user.vipOverriddenBy,
    vipOverriddenAt: user.vipOverriddenAt?.toISOString() ?? null,
    subscriptionStatus: user.subscriptionStatus,
    billedTier: user.billedTier,
    currentPeriodEnd: user.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    graceEndsAt:
      user.subscriptionStatus === 'past_due' ? (user.graceEndsAt?.toISOString() ?? null) : null,
    isSetByAdministrator: hasAdminOverride(user),
    firstLogin: user.firstLogin,
    dependentCount,
    createdAt: user.createdAt.toISOString(),
  });
}

type AssociationRow = Omit<TAdminDevice, 'createdAt' | 'lastSyncAt' | 'lastSeen'> & {
  createdAt: Date;
  lastSyncAt: Date | null;
  lastSeen: Date;
};

/** A device association as the admin dashboard sees it; the row's cursor time stays behind. */
export function toAdminDevice(row: AssociationRow): TAdminDevice {
  return {
    deviceId: row.deviceId,
    userId: row.userId,
    username: row.username,
    firstName: row.firstName,
    lastName: row.lastName,
    isPrimaryUser: row.isPrimaryUser,
    isPrimary: row.isPrimary,
    deviceName: row.deviceName,
    createdAt: row.createdAt.toISOString(),
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    lastSeen: row.lastSeen.toISOString(),
  };
}
