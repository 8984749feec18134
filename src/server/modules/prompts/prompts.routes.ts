import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZPromptsQuery, type TPrompt } from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { requirePrimaryOnPrimaryDevice } from '../../plugins/request-context';
import { findRecipientOf } from '../recipients/recipients.repository';
import { PROMPT_CATALOGUE } from './prompts.catalogue';

export const promptRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/prompts',
      { schema: { querystring: ZPromptsQuery } },
      async (request): Promise<TPrompt[]> => {
        const owner = requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecord);
        const recipient = await findRecipientOf(deps.db, owner.id, request.query.recipientId);
        if (!recipient) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);
        return PROMPT_CATALOGUE[recipient.category as TPrompt['category']];
      },
    );
  };
