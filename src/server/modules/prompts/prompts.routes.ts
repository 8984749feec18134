import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZPromptsQuery, type TPrompt } from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../deps';
import { requirePrimaryOnPrimaryDevice } from '../access/primary-device';
import { promptsFor } from './prompts.service';

export const promptRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/prompts',
      { schema: { querystring: ZPromptsQuery } },
      async (request): Promise<TPrompt[]> =>
        promptsFor(
          deps,
          requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecord),
          request.query.recipientId,
        ),
    );
  };
