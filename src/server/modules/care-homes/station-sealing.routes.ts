import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STATION_MAX_BYTES, STATION_MESSAGES } from '../../../shared/schemas/stations';
import {
  ZStationSealedRecordingQuery,
  ZStationUnlockBody,
} from '../../../shared/schemas/station-sealing';
import { sealedSize } from '../../../shared/sealing';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { getRequestContext, requireDevice } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { requireStationSession } from './station-sign-in.service';
import { getStationSealing, saveSealedAtStation, unlockAtStation } from './station-sealing.service';
import { STATION_LIMITS, STATION_PATH, stationSessionOf } from './station-cookie';

/** A sealed take is a little larger than the recording a station may send. */
const SEALED_MAX_BYTES = sealedSize(STATION_MAX_BYTES);

/** A resident with enhanced encryption on, at a station: their password's proof, then sealed takes. */
export const stationSealingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const openSession = async (request: Parameters<typeof stationSessionOf>[1]) =>
      requireStationSession(await stationSessionOf(deps, request));

    app.addContentTypeParser(
      'application/octet-stream',
      { parseAs: 'buffer', bodyLimit: SEALED_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );

    app.get(
      `${STATION_PATH}/sealing`,
      { config: { rateLimit: perIpLimit(STATION_LIMITS.read) } },
      async (request) => getStationSealing(deps, await openSession(request)),
    );

    // A password is checked here: limited per address as sign-in is, besides the account's count.
    app.post(
      `${STATION_PATH}/sealing/unlock`,
      {
        schema: { body: ZStationUnlockBody },
        config: { rateLimit: perIpLimit(deps.limits.login) },
      },
      async (request) =>
        unlockAtStation(
          deps,
          { ...getRequestContext(request), deviceId: requireDevice(request).id },
          { session: await openSession(request), passwordProof: request.body.passwordProof },
        ),
    );

    app.post(
      `${STATION_PATH}/sealed-recordings`,
      {
        schema: { querystring: ZStationSealedRecordingQuery },
        config: { rateLimit: perIpLimit(STATION_LIMITS.save) },
        bodyLimit: SEALED_MAX_BYTES,
      },
      async (request, reply) => {
        const session = await openSession(request);
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', STATION_MESSAGES.saveFailed);
        }
        const saved = await saveSealedAtStation(deps, getRequestContext(request), {
          session,
          query: request.query,
          bytes: request.body,
        });
        return reply.status(201).send(saved);
      },
    );
  };
