import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZSupportIdParams, ZSupportRequestBody } from '../../../shared/schemas/support';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { requireVerifiedAdmin } from '../admin/admin-access';
import {
  getHomeSupport,
  listSupportForAdmin,
  markSupportAnswered,
  sendSupportRequest,
} from './support.service';

/** Per IP: a home's office shares one address; the per-home daily cap is in the service. */
const LIMITS = {
  read: { max: 300, timeWindow: 15 * 60_000 },
  send: { max: 10, timeWindow: 15 * 60_000 },
  admin: { max: 300, timeWindow: 15 * 60_000 },
};
const SEND_LIMITED =
  'You have sent several requests in a short time. Please wait 15 minutes, or reply to our email.';

/** A care home's manager and staff ask for help; the operators see and answer it. */
export const supportRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/care-home/support',
      { config: { rateLimit: perIpLimit(LIMITS.read) } },
      async (request) => getHomeSupport(deps, requireActor(request)),
    );

    app.post(
      '/api/care-home/support',
      {
        schema: { body: ZSupportRequestBody },
        config: { rateLimit: perIpLimit(LIMITS.send, SEND_LIMITED) },
      },
      async (request, reply) => {
        const sent = await sendSupportRequest(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        });
        return reply.status(201).send(sent);
      },
    );

    app.get(
      '/api/admin/support',
      { config: { rateLimit: perIpLimit(LIMITS.admin) } },
      async (request) => {
        requireVerifiedAdmin(request);
        return listSupportForAdmin(deps);
      },
    );

    app.post(
      '/api/admin/support/:id/answered',
      { schema: { params: ZSupportIdParams }, config: { rateLimit: perIpLimit(LIMITS.admin) } },
      async (request) =>
        markSupportAnswered(deps, getRequestContext(request), {
          admin: requireVerifiedAdmin(request),
          id: request.params.id,
        }),
    );
  };
