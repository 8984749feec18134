import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZEscrowOpenBody, type TEscrowOpened } from '../../../shared/schemas/escrow';
import type { AppDeps } from '../../deps';
import { perIpLimit } from '../../plugins/rate-limit';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { openEscrow } from './escrow.service';

/** The next of kin's escrow of the account key: handed over only after the legacy release. */
export const escrowRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // An emergency code is checked here: limited per address as break-glass is.
    app.post(
      '/api/escrow/open',
      {
        schema: { body: ZEscrowOpenBody },
        config: { rateLimit: perIpLimit(deps.limits.emergency) },
      },
      async (request): Promise<TEscrowOpened> => {
        const actor = requireActor(request);
        return openEscrow(
          deps,
          { ...getRequestContext(request), deviceId: actor.deviceId },
          { actor, ...request.body },
        );
      },
    );
  };
