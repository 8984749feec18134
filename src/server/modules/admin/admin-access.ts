import type { FastifyRequest } from 'fastify';
import { ADMIN_MESSAGES } from '../../../shared/schemas/admin';
import { AppError } from '../../errors';
import { requireDevice, requireUser } from '../../plugins/request-context';
import type { SessionUser } from '../users/users.repository';
import type { AdminSession } from './second-factor.service';

export function requireAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.adminsOnly);
  return user;
}

export function getAdminSession(request: FastifyRequest): AdminSession {
  return {
    admin: requireAdmin(request),
    sessionIdHash: request.sessionIdHash!,
    deviceId: requireDevice(request).id,
    isVerified: request.sessionSecondFactorAt !== null,
  };
}

/** Admin routes need isAdmin and a second factor checked in this session. */
export function requireVerifiedAdmin(request: FastifyRequest): SessionUser {
  const admin = requireAdmin(request);
  if (!request.sessionSecondFactorAt) {
    throw new AppError('SECOND_FACTOR_REQUIRED', ADMIN_MESSAGES.secondFactorRequired);
  }
  return admin;
}
