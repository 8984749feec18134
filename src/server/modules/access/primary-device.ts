import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { requireDevice, requireUser } from '../../plugins/request-context';
import type { DeviceRow } from '../devices/devices.repository';
import type { SessionUser } from '../users/users.repository';

/**
 * Record, send to the cloud, pair a phone, manage recipients and legacy release: 'primary users
 * only' means a primary account signed in on its own primary device. An added device may watch,
 * never change.
 */
export function isPrimaryOnPrimaryDevice(
  user: Pick<SessionUser, 'id' | 'isPrimary'>,
  device: Pick<DeviceRow, 'isPrimary' | 'userId'>,
): boolean {
  return user.isPrimary && device.isPrimary && device.userId === user.id;
}

/** The signed-in primary account on its primary device, or FORBIDDEN with `message`. */
export function requirePrimaryOnPrimaryDevice(
  request: FastifyRequest,
  message: string,
): SessionUser {
  const user = requireUser(request);
  if (!isPrimaryOnPrimaryDevice(user, requireDevice(request))) {
    throw new AppError('FORBIDDEN', message);
  }
  return user;
}
