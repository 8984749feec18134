import type { TAdminUser } from '../../../shared/schemas/admin';
import { toAccountIdentity } from '../users/users.presenter';
import type { UserRow } from '../users/users.repository';

/** An account as the admin dashboard sees it: never a hash, token or secret. */
export function toAdminUser(user: UserRow, dependentCount: number): TAdminUser {
  return {
    ...toAccountIdentity(user),
    subscriptionTier: user.subscriptionTier,
    isVIP: user.isVIP,
    tierOverriddenBy: user.tierOverriddenBy,
    tierOverriddenAt: user.tierOverriddenAt?.toISOString() ?? null,
    tierOverrideReason: user.tierOverrideReason,
    vipOverriddenBy: user.vipOverriddenBy,
    vipOverriddenAt: user.vipOverriddenAt?.toISOString() ?? null,
    firstLogin: user.firstLogin,
    dependentCount,
    createdAt: user.createdAt.toISOString(),
  };
}
