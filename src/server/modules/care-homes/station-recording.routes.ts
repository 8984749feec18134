import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  STATION_MAX_BYTES,
  STATION_MESSAGES,
  ZPickResidentBody,
  ZStationRecordingQuery,
} from '../../../shared/schemas/stations';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { getRequestContext } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import { shareAtStation } from './care-team.service';
import { requireStationSession } from './station-sign-in.service';
import {
  finishStationSession,
  listStationRecipients,
  listStationResidents,
  pickResident,
  saveStationRecording,
  setPaused,
} from './station-sessions.service';
import {
  clearStationCookie,
  STATION_LIMITS,
  STATION_PATH,
  stationSessionOf,
} from './station-cookie';

const VIDEO_TYPES = ['video/webm', 'video/mp4'];

/** A signed-in station: one resident, record-only, until Finish, pause or the idle timer. */
export const stationRecordingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { rateLimit: perIpLimit(STATION_LIMITS.read) };
    const change = { rateLimit: perIpLimit(STATION_LIMITS.change) };
    const openSession = async (request: Parameters<typeof stationSessionOf>[1]) =>
      requireStationSession(await stationSessionOf(deps, request));

    app.addContentTypeParser(
      VIDEO_TYPES,
      { parseAs: 'buffer', bodyLimit: STATION_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );

    app.get(`${STATION_PATH}/residents`, { config: read }, async (request) =>
      listStationResidents(deps, await openSession(request)),
    );

    app.post(
      `${STATION_PATH}/resident`,
      { schema: { body: ZPickResidentBody }, config: change },
      async (request) =>
        pickResident(deps, getRequestContext(request), {
          session: await openSession(request),
          residentId: request.body.residentId,
        }),
    );

    app.get(`${STATION_PATH}/recipients`, { config: read }, async (request) =>
      listStationRecipients(deps, await openSession(request)),
    );

    app.post(
      `${STATION_PATH}/recordings`,
      {
        schema: { querystring: ZStationRecordingQuery },
        config: { rateLimit: perIpLimit(STATION_LIMITS.save) },
        bodyLimit: STATION_MAX_BYTES,
      },
      async (request, reply) => {
        const open = await openSession(request);
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', STATION_MESSAGES.saveFailed);
        }
        const mimeType = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
        const saved = await saveStationRecording(deps, getRequestContext(request), {
          session: open,
          takeId: request.query.takeId,
          recipientId: request.query.recipientId,
          durationMs: request.query.durationMs,
          mimeType,
          bytes: request.body,
        });
        if (request.query.careTeam === 'yes') {
          await shareAtStation(deps, getRequestContext(request), {
            session: open,
            videoId: request.query.takeId,
          });
        }
        return reply.status(201).send(saved);
      },
    );

    app.post(`${STATION_PATH}/pause`, { config: change }, async (request, reply) => {
      const open = await openSession(request);
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
      const open = await stationSessionOf(deps, request);
      if (open) await finishStationSession(deps, getRequestContext(request), open);
      clearStationCookie(reply);
      return reply.status(204).send();
    });
  };
