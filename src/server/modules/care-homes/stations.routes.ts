import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  STATION_MAX_BYTES,
  STATION_MESSAGES,
  ZMakeStationBody,
  ZPauseBody,
  ZPickResidentBody,
  ZSetPinBody,
  ZStationRecordingQuery,
  ZStationSignInBody,
} from '../../../shared/schemas/stations';
import { ZCareHomeIdParams } from '../../../shared/schemas/care-homes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import {
  clearSessionCookie,
  getRequestContext,
  requireActor,
  requireDevice,
} from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import {
  findStationSession,
  finishStationSession,
  getStation,
  listStationRecipients,
  listStationResidents,
  makeStation,
  pickResident,
  requireStationSession,
  saveStationRecording,
  setPaused,
  setPin,
  signInAtStation,
} from './stations.service';

/** The station's own cookie: sent only to station routes, so no other route ever sees it. */
export const STATION_COOKIE = 'memento_station';
const STATION_PATH = '/api/station';

const LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
  pin: { max: 20, timeWindow: 15 * 60_000 },
  save: { max: 60, timeWindow: 15 * 60_000 },
};

const VIDEO_TYPES = ['video/webm', 'video/mp4'];

/** Recording stations: made by the manager, signed in with a carer's PIN, record-only after. */
export const stationRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { rateLimit: perIpLimit(LIMITS.read) };
    const change = { rateLimit: perIpLimit(LIMITS.change) };

    app.addContentTypeParser(
      VIDEO_TYPES,
      { parseAs: 'buffer', bodyLimit: STATION_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );

    const session = async (request: FastifyRequest) => {
      const cookie = request.cookies[STATION_COOKIE];
      return findStationSession(deps, requireDevice(request).id, cookie ?? null);
    };
    const clearStationCookie = (reply: FastifyReply) =>
      reply.clearCookie(STATION_COOKIE, { path: STATION_PATH });

    app.post(
      '/api/care-home/station',
      { schema: { body: ZMakeStationBody }, config: change },
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
      { schema: { body: ZSetPinBody }, config: { rateLimit: perIpLimit(LIMITS.pin) } },
      async (request, reply) => {
        await setPin(deps, getRequestContext(request), {
          actor: requireActor(request),
          pin: request.body.pin,
        });
        return reply.status(204).send();
      },
    );

    app.put(
      '/api/care-home/residents/:id/pause',
      { schema: { params: ZCareHomeIdParams, body: ZPauseBody }, config: change },
      async (request) =>
        setPaused(deps, getRequestContext(request), {
          linkId: request.params.id,
          paused: request.body.paused,
          who: { actor: requireActor(request) },
        }),
    );

    // "Pause Memento for me", from the resident's own device.
    app.put(
      '/api/care-home/my-pause',
      { schema: { body: ZPauseBody }, config: change },
      async (request) => {
        const actor = requireActor(request);
        return setPaused(deps, getRequestContext(request), {
          residentUserId: actor.user.id,
          paused: request.body.paused,
          who: { actor },
        });
      },
    );

    app.get(STATION_PATH, { config: read }, async (request) =>
      getStation(deps, requireDevice(request).id, await session(request)),
    );

    app.post(
      `${STATION_PATH}/sign-in`,
      { schema: { body: ZStationSignInBody }, config: { rateLimit: perIpLimit(LIMITS.pin) } },
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

    app.get(`${STATION_PATH}/residents`, { config: read }, async (request) =>
      listStationResidents(deps, requireStationSession(await session(request))),
    );

    app.post(
      `${STATION_PATH}/resident`,
      { schema: { body: ZPickResidentBody }, config: change },
      async (request) =>
        pickResident(deps, getRequestContext(request), {
          session: requireStationSession(await session(request)),
          residentId: request.body.residentId,
        }),
    );

    app.get(`${STATION_PATH}/recipients`, { config: read }, async (request) =>
      listStationRecipients(deps, requireStationSession(await session(request))),
    );

    app.post(
      `${STATION_PATH}/recordings`,
      {
        schema: { querystring: ZStationRecordingQuery },
        config: { rateLimit: perIpLimit(LIMITS.save) },
        bodyLimit: STATION_MAX_BYTES,
      },
      async (request, reply) => {
        const open = requireStationSession(await session(request));
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', STATION_MESSAGES.saveFailed);
        }
        const mimeType = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
        const saved = await saveStationRecording(deps, getRequestContext(request), {
          session: open,
          recipientId: request.query.recipientId,
          durationMs: request.query.durationMs,
          mimeType,
          bytes: request.body,
        });
        return reply.status(201).send(saved);
      },
    );

    app.post(`${STATION_PATH}/pause`, { config: change }, async (request, reply) => {
      const open = requireStationSession(await session(request));
      if (!open.residentUserId) throw new AppError('FORBIDDEN', STATION_MESSAGES.pickResident);
      await setPaused(deps, getRequestContext(request), {
        residentUserId: open.residentUserId,
        paused: true,
        who: { session: open },
      });
      clearStationCookie(reply);
      return reply.status(204).send();
    });

    app.post(`${STATION_PATH}/finish`, { config: change }, async (request, reply) => {
      const open = await session(request);
      if (open) await finishStationSession(deps, getRequestContext(request), open);
      clearStationCookie(reply);
      return reply.status(204).send();
    });
  };
