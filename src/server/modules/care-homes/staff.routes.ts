import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZAcceptInviteBody,
  ZCareHomeIdParams,
  ZInviteStaffBody,
} from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { acceptStaffInvite, disableStaff, getStaff, inviteStaff } from './staff.service';

const LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
  accept: { max: 30, timeWindow: 15 * 60_000 },
};

/** A care home's staff: invited and disabled by the manager, accepted by the carer. */
export const careHomeStaffRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { rateLimit: perIpLimit(LIMITS.read) };
    const change = { rateLimit: perIpLimit(LIMITS.change) };

    app.get('/api/care-home/staff', { config: read }, async (request) =>
      getStaff(deps, requireActor(request)),
    );

    app.post(
      '/api/care-home/staff',
      { schema: { body: ZInviteStaffBody }, config: change },
      async (request, reply) => {
        const member = await inviteStaff(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        });
        return reply.status(201).send(member);
      },
    );

    app.post(
      '/api/care-home/staff/:id/disable',
      { schema: { params: ZCareHomeIdParams }, config: change },
      async (request) =>
        disableStaff(deps, getRequestContext(request), {
          actor: requireActor(request),
          staffId: request.params.id,
        }),
    );

    app.post(
      '/api/care-home/staff/accept',
      { schema: { body: ZAcceptInviteBody }, config: { rateLimit: perIpLimit(LIMITS.accept) } },
      async (request) =>
        acceptStaffInvite(deps, getRequestContext(request), {
          actor: requireActor(request),
          token: request.body.token,
        }),
    );
  };
