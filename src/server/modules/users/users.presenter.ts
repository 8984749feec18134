import type { TUser } from '../../../shared/schemas/auth';
import { isPrimaryDeviceOf } from '../access/actor';
import type { DeviceRow } from '../devices/devices.repository';
import type { SessionUser } from './users.repository';

/** Who an account is, as every view of it shows it: never a hash, token or secret. */
export function toAccountIdentity(user: SessionUser) {
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    isPrimary: user.isPrimary,
    isAdmin: user.isAdmin,
    role: user.role,
    category: user.category,
    createdById: user.createdById,
  };
}

/**
 * The user as the client sees it, on every signed-in page load. The identity is extended with
 * `Object.assign`, not an object literal opening with a spread: Node 20's V8 adds each property
 * written after such a spread on a slow path (docs/benchmarks.md, 'Warm connections and
 * spreads').
 */
export function toUserResponse(user: SessionUser, device: DeviceRow): TUser {
  const isOnPrimaryDevice = isPrimaryDeviceOf(device, user);
  const deviceStatus: TUser['deviceStatus'] = isOnPrimaryDevice ? 'primary' : 'secondary';
  return Object.assign(toAccountIdentity(user), {
    tosAccepted: user.tosAccepted,
    tosAcceptedAt: user.tosAcceptedAt?.toISOString() ?? null,
    firstLogin: user.firstLogin,
    hasSetPassword: user.hasSetPassword,
    twoFactorEnabled: user.twoFactorEnabled,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionTier: user.subscriptionTier,
    isVIP: user.isVIP,
    onboardingCompletedAt: user.onboardingCompletedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    deviceStatus,
    deviceSync: {
      isPrimary: isOnPrimaryDevice,
      deviceId: device.id,
      lastSyncAt: device.lastSyncAt?.toISOString() ?? null,
    },
  });
}
