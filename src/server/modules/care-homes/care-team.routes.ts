import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCareTeamShareParams,
  type TCareTeamMine,
  type TCareTeamShared,
} from '../../../shared/schemas/care-team';
import type { AppDeps } from '../../deps';
import { getRequestContext, requireActor } from '../../plugins/request-context';
import { perIpLimit } from '../../plugins/rate-limit';
import {
  getMyCareTeam,
  listSharedWithCareTeam,
  shareWithCareTeam,
  stopSharingWithCareTeam,
} from './care-team.service';

/** Per IP, as the home's other routes: a home's office and lounge share one address. */
const LIMITS = {
  read: { max: 600, timeWindow: 15 * 60_000 },
  change: { max: 120, timeWindow: 15 * 60_000 },
};

/**
 * "Share with the care team": the resident shares a message, or stops; the home's staff and
 * manager list what is shared with them (they watch it through the ordinary playback route).
 */
export const careTeamRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const read = { rateLimit: perIpLimit(LIMITS.read) };
    const change = { rateLimit: perIpLimit(LIMITS.change) };

    app.get(
      '/api/care-home/care-team/mine',
      { config: read },
      async (request): Promise<TCareTeamMine> => getMyCareTeam(deps, requireActor(request)),
    );

    app.put(
      '/api/care-home/care-team/shares/:videoId',
      { schema: { params: ZCareTeamShareParams }, config: change },
      async (request) =>
        shareWithCareTeam(deps, getRequestContext(request), {
          actor: requireActor(request),
          videoId: request.params.videoId,
        }),
    );

    app.delete(
      '/api/care-home/care-team/shares/:videoId',
      { schema: { params: ZCareTeamShareParams }, config: change },
      async (request, reply) => {
        await stopSharingWithCareTeam(deps, getRequestContext(request), {
          actor: requireActor(request),
          videoId: request.params.videoId,
        });
        return reply.status(204).send();
      },
    );

    app.get(
      '/api/care-home/care-team/shared',
      { config: read },
      async (request): Promise<TCareTeamShared> =>
        listSharedWithCareTeam(deps, requireActor(request)),
    );
  };
