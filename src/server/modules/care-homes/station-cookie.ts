import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps';
import { requireDevice } from '../../plugins/request-context';
import { findStationSession } from './station-sign-in.service';

/** The station's own cookie: sent only to station routes, so no other route ever sees it. */
export const STATION_COOKIE = 'memento_station';
export const STATION_PATH = '/api/station';

export const STATION_LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
  pin: { max: 20, timeWindow: 15 * 60_000 },
  save: { max: 60, timeWindow: 15 * 60_000 },
};

/** The open session this tablet's cookie names, or null. */
export async function stationSessionOf(deps: AppDeps, request: FastifyRequest) {
  const cookie = request.cookies[STATION_COOKIE];
  return findStationSession(deps, requireDevice(request).id, cookie ?? null);
}

export const clearStationCookie = (reply: FastifyReply) =>
  reply.clearCookie(STATION_COOKIE, { path: STATION_PATH });
