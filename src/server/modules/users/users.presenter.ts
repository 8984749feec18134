import type { TUser } from '../../../shared/schemas/auth';
import type { DeviceRow } from '../devices/devices.repository';
import type { UserRow, SessionUser } from './users.repository';

export function isPrimaryDeviceOf(device: DeviceRow, user: Pick<UserRow, 'id'>): boolean {
  return device.isPrimary && device.userId === user.id;
}

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

/** The user as the client sees it. */
export function toUserResponse(user: SessionUser, device: DeviceRow): TUser {
  const isOnPrimaryDevice = isPrimaryDeviceOf(device, user);
  return {
    ...toAccountIdentity(user),
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
    deviceStatus: isOnPrimaryDevice ? 'primary' : 'secondary',
    deviceSync: {
      isPrimary: isOnPrimaryDevice,
      deviceId: device.id,
      lastSyncAt: device.lastSyncAt?.toISOString() ?? null,
    },
  };
}
