import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TCreateUploadResult } from '../../../shared/schemas/cloud';
import {
  ZPairingVideoBody,
  type TCurrentPairing,
  type TPairingCreated,
  type TPairingSession,
} from '../../../shared/schemas/pairing';
import type { AppDeps } from '../../deps';
import { getRequestContext } from '../../plugins/request-context';
import { requirePrimaryOnPrimaryDevice } from '../access/primary-device';
import {
  cancelPairing,
  createPairing,
  getCurrentPairing,
  getPairingSession,
  receivePairedVideo,
  requirePairing,
} from './pairing.service';
import { perIpLimit } from '../../plugins/rate-limit';

const ZPairingParams = z.object({ id: z.uuid({ error: 'Pairing id must be a UUID' }) });

/** Import from mobile. */
export const pairingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const phoneRateLimit = perIpLimit(deps.limits.login, MESSAGES.rateLimited);

    app.post('/api/pairings', async (request): Promise<TPairingCreated> =>
      createPairing(
        deps,
        getRequestContext(request),
        requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecord),
      ),
    );

    app.get('/api/pairings/current', async (request): Promise<TCurrentPairing> =>
      getCurrentPairing(deps, requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecord)),
    );

    app.delete(
      '/api/pairings/:id',
      { schema: { params: ZPairingParams } },
      async (request, reply) => {
        await cancelPairing(deps, getRequestContext(request), {
          owner: requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecord),
          pairingId: request.params.id,
        });
        return reply.status(204).send();
      },
    );

    // The phone: authorised by the pairing token alone (no session), for upload only.
    app.get(
      '/api/pairing',
      { config: { rateLimit: phoneRateLimit } },
      async (request): Promise<TPairingSession> =>
        getPairingSession(deps, await requirePairing(deps, request)),
    );

    app.post(
      '/api/pairing/videos',
      { schema: { body: ZPairingVideoBody }, config: { rateLimit: phoneRateLimit } },
      async (request): Promise<TCreateUploadResult> =>
        receivePairedVideo(deps, request, {
          resolved: await requirePairing(deps, request),
          body: request.body,
        }),
    );
  };
