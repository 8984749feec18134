import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZAuditLogQuery } from '../../../shared/schemas/safety-net';
import { AppError } from '../../errors';
import { readWithContext, requireDevice, requireUser } from '../../plugins/request-context';
import { isPrimaryOnPrimaryDevice } from '../access/primary-device';
import { AUDIT_PAGE_READ } from './audit.service';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  /** A user sees only their own events whatever `userId` says; admins may filter any user. */
  app.get(
    '/api/audit-logs',
    { schema: { querystring: ZAuditLogQuery }, config: { contextRead: AUDIT_PAGE_READ } },
    async (request, reply) => {
      const user = requireUser(request);
      const device = requireDevice(request);
      if (!user.isAdmin && !isPrimaryOnPrimaryDevice(user, device))
        throw new AppError('FORBIDDEN', MESSAGES.primaryOnlyAuditLogs);

      // TAuditLogEntry[], as the database wrote it.
      return reply.type('application/json').send(readWithContext(request, AUDIT_PAGE_READ));
    },
  );
};
