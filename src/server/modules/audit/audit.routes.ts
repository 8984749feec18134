import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAuditLogQuery } from '../../../shared/schemas/audit';
import { readWithContext, requireActor } from '../../plugins/request-context';
import { Permission, requireAccess } from '../access/access';
import { AUDIT_PAGE_READ } from './audit.service';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  /** A user sees only their own events whatever `userId` says; admins may filter any user. */
  app.get(
    '/api/audit-logs',
    { schema: { querystring: ZAuditLogQuery }, config: { contextRead: AUDIT_PAGE_READ } },
    async (request, reply) => {
      requireAccess(requireActor(request), Permission.AuditRead);

      // TAuditLogEntry[], as the database wrote it.
      return reply.type('application/json').send(readWithContext(request, AUDIT_PAGE_READ));
    },
  );
};
