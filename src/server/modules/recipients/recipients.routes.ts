import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES } from '../../../shared/domain/errors';
import {
  ZCreateRecipientBody,
  ZRecipientIdParams,
  type TRecipientList,
} from '../../../shared/schemas/recipients';
import type { AppDeps } from '../../deps';
import { getRequestContext, readWithContext } from '../../plugins/request-context';
import { requirePrimaryOnPrimaryDevice } from '../access/primary-device';
import {
  createRecipient,
  deleteRecipient,
  presentRecipients,
  reshareAccessCode,
  RECIPIENTS_WITH_VIDEO_COUNTS_READ,
} from './recipients.service';

export const recipientRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/recipients',
      { config: { contextRead: RECIPIENTS_WITH_VIDEO_COUNTS_READ } },
      async (request): Promise<TRecipientList> => {
        const owner = requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecipients);
        return presentRecipients(
          owner,
          readWithContext(request, RECIPIENTS_WITH_VIDEO_COUNTS_READ),
        );
      },
    );

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

    app.delete('/api/recipients/:id', { schema: { params: ZRecipientIdParams } }, (request) =>
      deleteRecipient(deps, getRequestContext(request), {
        owner: requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecipients),
        recipientId: request.params.id,
      }),
    );

    app.post(
      '/api/recipients/:id/reshare-code',
      { schema: { params: ZRecipientIdParams } },
      (request) =>
        reshareAccessCode(deps, getRequestContext(request), {
          owner: requirePrimaryOnPrimaryDevice(request, MESSAGES.primaryOnlyRecipients),
          recipientId: request.params.id,
        }),
    );
  };
