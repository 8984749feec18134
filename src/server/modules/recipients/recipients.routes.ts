import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import { ZCreateRecipientBody } from '../../../shared/schemas/safety-net';
import type { AppDeps } from '../../app';
import { getRequestContext, requirePrimaryOnPrimaryDevice } from '../../plugins/request-context';
import { createRecipient } from './recipients.service';

export const recipientRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/recipients',
      { schema: { body: ZCreateRecipientBody } },
      async (request, reply) => {
        const owner = requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecipients);
        const { recipient, isNew } = await createRecipient(deps, getRequestContext(request), {
          owner,
          body: request.body,
        });
        return reply.status(isNew ? 201 : 200).send(recipient);
      },
    );
  };
