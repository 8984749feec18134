import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZAuditLogQuery } from '../../../shared/schemas/safety-net';
import { AppError } from '../../errors';
import { readWithContext, requireDevice, requireUser } from '../../plugins/request-context';
import { AUDIT_PAGE_READ } from './audit.repository';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  /** D15: a user sees only their own events whatever `userId` says; admins may filter any user. */
  app.get(
    '/api/audit-logs',
    { schema: { querystring: ZAuditLogQuery }, config: { contextRead: AUDIT_PAGE_READ } },
    async (request, reply) => {
      const user = requireUser(request);
      const device = requireDevice(request);
      const isOnPrimaryDevice = user.isPrimary && device.isPrimary && device.userId === user.id;
      if (!user.isAdmin && !isOnPrimaryDevice)
        throw new AppError('FORBIDDEN', MESSAGES.primaryOnlyAuditLogs);

      // TAuditLogEntry[], as the database wrote it (decisions 034, 041).
      return reply.type('application/json').send(readWithContext(request, AUDIT_PAGE_READ));
    },
  );
};
