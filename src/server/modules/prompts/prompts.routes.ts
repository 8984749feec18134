import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZPromptsQuery, type TPrompt } from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../deps';
import { requireActor } from '../../plugins/request-context';
import { promptsFor } from './prompts.service';

export const promptRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/prompts',
      { schema: { querystring: ZPromptsQuery } },
      async (request): Promise<TPrompt[]> =>
        promptsFor(deps, requireActor(request), request.query.recipientId),
    );
  };
