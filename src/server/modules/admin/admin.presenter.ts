import type { TAdminUser } from '../../../shared/schemas/admin';
import type { UserRow } from '../users/users.repository';

/** An account as the admin dashboard sees it: never a hash, token or secret. */
export function toAdminUser(user: UserRow, dependentCount: number): TAdminUser {
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    isAdmin: user.isAdmin,
    role: user.role,
    isPrimary: user.isPrimary,
    category: user.category,
    createdById: user.createdById,
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
