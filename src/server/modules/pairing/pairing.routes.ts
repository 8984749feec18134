import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TCreateUploadResult } from '../../../shared/schemas/cloud';
import {
  PAIRING_HEADER,
  ZCreatePairingBody,
  ZPairingVideoBody,
  type TCurrentPairing,
  type TPairingCreated,
  type TPairingSession,
} from '../../../shared/schemas/pairing';
import { ZSealPhoneCopyBody, type TWaitingPhoneCopy } from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { requirePairedPhone } from './paired-phone';
import {
  cancelPairing,
  createPairing,
  getCurrentPairing,
  getPairingSession,
  receivePairedVideo,
  requirePairing,
} from './pairing.service';
import { perIpLimit } from '../../plugins/rate-limit';
import { listWaitingPhoneCopies, sealPhoneCopy } from './phone-copies.service';

const ZPairingParams = z.object({ id: z.uuid({ error: 'Pairing id must be a UUID' }) });
const ZVideoParams = z.object({ videoId: z.uuid({ error: 'Video id must be a UUID' }) });

/** Import from mobile. */
export const pairingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const phoneRateLimit = perIpLimit(deps.limits.login, MESSAGES.rateLimited);

    app.post(
      '/api/pairings',
      { schema: { body: ZCreatePairingBody } },
      async (request): Promise<TPairingCreated> =>
        createPairing(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        }),
    );

    app.get('/api/pairings/current', async (request): Promise<TCurrentPairing> =>
      getCurrentPairing(deps, requireActor(request)),
    );

    app.delete(
      '/api/pairings/:id',
      { schema: { params: ZPairingParams } },
      async (request, reply) => {
        await cancelPairing(deps, getRequestContext(request), {
          actor: requireActor(request),
          pairingId: request.params.id,
        });
        return reply.status(204).send();
      },
    );

    // The owner's unlocked devices wrap a phone's sealed videos again for the owner.
    app.get('/api/phone-copies', async (request): Promise<{ copies: TWaitingPhoneCopy[] }> =>
      listWaitingPhoneCopies(deps, requireActor(request)),
    );

    app.post(
      '/api/phone-copies/:videoId/seal',
      { schema: { params: ZVideoParams, body: ZSealPhoneCopyBody } },
      async (request): Promise<{ videoId: string }> =>
        sealPhoneCopy(deps, {
          actor: requireActor(request),
          videoId: request.params.videoId,
          body: request.body,
        }),
    );

    // The phone: authorised by the pairing token alone (no session), for upload only.
    app.get(
      '/api/pairing',
      { config: { rateLimit: phoneRateLimit } },
      async (request): Promise<TPairingSession> =>
        getPairingSession(deps, await requirePairing(deps, request.headers[PAIRING_HEADER])),
    );

    app.post(
      '/api/pairing/videos',
      { schema: { body: ZPairingVideoBody }, config: { rateLimit: phoneRateLimit } },
      async (request): Promise<TCreateUploadResult> =>
        receivePairedVideo(deps, getRequestContext(request), {
          ...(await requirePairedPhone(deps, request)),
          body: request.body,
        }),
    );
  };
