import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCreateVideoIndexBody,
  ZDeleteVideosBody,
  type TVideosDeleted,
} from '../../../shared/schemas/videos';
import type { AppDeps } from '../../deps';
import {
  getRequestContext,
  readWithContext,
  requireActor,
  requireDevice,
  requireUser,
} from '../../plugins/request-context';
import { toVideoIndexEntry } from './videos.presenter';
import { deleteVideos, indexVideo, noteLibraryRead, OWN_VIDEO_INDEX_READ } from './videos.service';

export const videoRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/api/videos', { schema: { body: ZCreateVideoIndexBody } }, async (request, reply) => {
      const { row, isNew } = await indexVideo(deps, {
        actor: requireActor(request),
        body: request.body,
      });
      return reply.status(isNew ? 201 : 200).send(toVideoIndexEntry(row));
    });

    app.get(
      '/api/videos',
      { config: { contextRead: OWN_VIDEO_INDEX_READ } },
      async (request, reply) => {
        const user = requireUser(request);
        const device = requireDevice(request);
        await noteLibraryRead(deps, user, device);
        // TVideoIndexEntry[], as the database wrote it.
        return reply.type('application/json').send(readWithContext(request, OWN_VIDEO_INDEX_READ));
      },
    );

    app.delete(
      '/api/videos',
      { schema: { body: ZDeleteVideosBody } },
      async (request): Promise<TVideosDeleted> => {
        const deletedIds = await deleteVideos(deps, getRequestContext(request), {
          actor: requireActor(request),
          ids: request.body.ids,
        });
        return { deletedIds };
      },
    );
  };
