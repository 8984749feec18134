import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TRecipientHome } from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../deps';
import { requireActor } from '../../plugins/request-context';
import { getRecipientHome } from './recipient-home.service';

/** What a signed-in recipient sees: whose messages these are and what reached the cloud. */
export const recipientHomeRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/recipient-home', async (request): Promise<TRecipientHome> =>
      getRecipientHome(deps, requireActor(request)),
    );
  };
