import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  TRANSFER_TOKEN_HEADER,
  ZClaimTransferBody,
  ZCreateTransferBody,
  ZCreateTransferWithPasswordBody,
  ZFinishTransferBody,
  ZTransferArrivedBody,
  ZTransferFailureBody,
  ZTransferSignalBody,
  type TTransferClaimed,
  type TTransferCreated,
  type TTransferCreatedWithPassword,
  type TTransferSignal,
} from '../../../shared/schemas/transfers';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor, requireDevice } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import {
  claimTransfer,
  createTransfer,
  createTransferWithPassword,
  finishTransfer,
  noteArrival,
  readSignal,
  reportFailure,
  writeSignal,
  type TransferSide,
} from './transfers.service';

const ZTransferParams = z.object({ id: z.uuid({ error: 'Transfer id must be a UUID' }) });

/**
 * Per IP: offers and claims are few; the handshake polls about once a second while the two
 * devices find each other, and a care home may have several moves going at once.
 */
const LIMITS = {
  offer: { max: 60, timeWindow: 15 * 60_000 },
  signal: { max: 3000, timeWindow: 15 * 60_000 },
};

/** The old device by its transfer token (its session may be gone), else the signed-in device. */
function sideOf(request: FastifyRequest): TransferSide {
  const token = request.headers[TRANSFER_TOKEN_HEADER];
  if (typeof token === 'string' && token.length > 0) return { kind: 'sender', token };
  return { kind: 'receiver', actor: requireActor(request) };
}

/** Moving messages tablet to tablet: the handshake only, never a video's bytes. */
export const transferRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const offerLimit = { rateLimit: perIpLimit(LIMITS.offer) };
    const signalLimit = { rateLimit: perIpLimit(LIMITS.signal) };

    app.post(
      '/api/transfers',
      { schema: { body: ZCreateTransferBody }, config: offerLimit },
      async (request): Promise<TTransferCreated> =>
        createTransfer(deps, requireActor(request), request.body),
    );

    app.post(
      '/api/transfers/with-password',
      { schema: { body: ZCreateTransferWithPasswordBody }, config: offerLimit },
      async (request): Promise<TTransferCreatedWithPassword> =>
        createTransferWithPassword(
          deps,
          getRequestContext(request),
          requireDevice(request),
          request.body,
        ),
    );

    app.post(
      '/api/transfers/claim',
      { schema: { body: ZClaimTransferBody }, config: offerLimit },
      async (request): Promise<TTransferClaimed> =>
        claimTransfer(deps, getRequestContext(request), requireActor(request), request.body),
    );

    app.get(
      '/api/transfers/:id/signal',
      { schema: { params: ZTransferParams }, config: signalLimit },
      async (request): Promise<TTransferSignal> =>
        readSignal(deps, sideOf(request), request.params.id),
    );

    app.put(
      '/api/transfers/:id/signal',
      { schema: { params: ZTransferParams, body: ZTransferSignalBody }, config: signalLimit },
      async (request): Promise<TTransferSignal> =>
        writeSignal(deps, sideOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/transfers/:id/arrived',
      { schema: { params: ZTransferParams, body: ZTransferArrivedBody }, config: signalLimit },
      async (request) =>
        noteArrival(deps, requireActor(request), {
          id: request.params.id,
          videoId: request.body.videoId,
        }),
    );

    app.post(
      '/api/transfers/:id/finish',
      { schema: { params: ZTransferParams, body: ZFinishTransferBody }, config: offerLimit },
      async (request) =>
        finishTransfer(deps, getRequestContext(request), requireActor(request), {
          id: request.params.id,
          body: request.body,
        }),
    );

    app.post(
      '/api/transfers/:id/failure',
      { schema: { params: ZTransferParams, body: ZTransferFailureBody }, config: signalLimit },
      async (request, reply) => {
        await reportFailure(deps, getRequestContext(request), sideOf(request), {
          id: request.params.id,
          body: request.body,
        });
        return reply.status(204).send();
      },
    );
  };
