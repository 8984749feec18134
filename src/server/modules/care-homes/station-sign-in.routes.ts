import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZMakeStationBody,
  ZSetPinBody,
  ZStationSignInBody,
} from '../../../shared/schemas/stations';
import type { AppDeps } from '../../deps';
import {
  clearSessionCookie,
  getRequestContext,
  requireActor,
  requireDevice,
} from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { getStation, makeStation, setPin, signInAtStation } from './station-sign-in.service';
import { STATION_COOKIE, STATION_LIMITS, STATION_PATH, stationSessionOf } from './station-cookie';

/** Recording stations: made by the manager, signed in with a carer's PIN. */
export const stationSignInRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const pin = { rateLimit: perIpLimit(STATION_LIMITS.pin) };

    app.post(
      '/api/care-home/station',
      {
        schema: { body: ZMakeStationBody },
        config: { rateLimit: perIpLimit(STATION_LIMITS.change) },
      },
      async (request, reply) => {
        const made = await makeStation(deps, getRequestContext(request), {
          actor: requireActor(request),
          name: request.body.name,
        });
        // The manager's own sign-in ends on what is now the home's tablet.
        clearSessionCookie(reply);
        return reply.status(201).send(made);
      },
    );

    app.put(
      '/api/care-home/pin',
      { schema: { body: ZSetPinBody }, config: pin },
      async (request, reply) => {
        await setPin(deps, getRequestContext(request), {
          actor: requireActor(request),
          pin: request.body.pin,
        });
        return reply.status(204).send();
      },
    );

    app.get(
      STATION_PATH,
      { config: { rateLimit: perIpLimit(STATION_LIMITS.read) } },
      async (request) =>
        getStation(deps, requireDevice(request).id, await stationSessionOf(deps, request)),
    );

    app.post(
      `${STATION_PATH}/sign-in`,
      { schema: { body: ZStationSignInBody }, config: pin },
      async (request, reply) => {
        const { token } = await signInAtStation(deps, getRequestContext(request), {
          deviceId: requireDevice(request).id,
          staffId: request.body.staffId,
          pin: request.body.pin,
        });
        reply.setCookie(STATION_COOKIE, token, {
          path: STATION_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: deps.config.APP_URL.startsWith('https:'),
        });
        return reply.status(204).send();
      },
    );
  };
