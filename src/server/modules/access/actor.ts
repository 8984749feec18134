import type { DeviceRow } from '../devices/devices.repository';
import type { SessionUser } from '../users/users.repository';

/**
 * Who is asking, as every access rule takes it: built once by the route from the request's
 * session and device (or a paired phone's token), so no rule reads the HTTP request.
 */
export interface Actor {
  /** The signed-in account; for a paired phone, the owner it sends for. */
  readonly user: SessionUser;
  /** The device asking (X-Device-ID). */
  readonly deviceId: string;
  /** Whether that device is the account's own primary device. */
  readonly isPrimaryDevice: boolean;
  /** The pairing a phone asks through; null for a signed-in device. */
  readonly pairingId: string | null;
  /** A care home's recording station acting for a resident: record-only. */
  readonly stationSessionId?: string;
}

/** Whether the device is this account's own primary device (the one place this is decided). */
export function isPrimaryDeviceOf(
  device: Pick<DeviceRow, 'isPrimary' | 'userId'>,
  user: Pick<SessionUser, 'id'>,
): boolean {
  return device.isPrimary && device.userId === user.id;
}

/** A signed-in account on a device. */
export function sessionActor(user: SessionUser, device: DeviceRow): Actor {
  return {
    user,
    deviceId: device.id,
    isPrimaryDevice: isPrimaryDeviceOf(device, user),
    pairingId: null,
  };
}

/** A phone paired to the owner's account: its rights come from the pairing alone. */
export function pairedPhoneActor(owner: SessionUser, device: DeviceRow, pairingId: string): Actor {
  return { user: owner, deviceId: device.id, isPrimaryDevice: false, pairingId };
}
