import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCreateRecipientBody,
  ZRecipientIdParams,
  type TRecipientList,
} from '../../../shared/schemas/recipients';
import { ZCardWrapsBody, ZSealedCard } from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { getRequestContext, readWithContext, requireActor } from '../../plugins/request-context';
import { Permission, requireAccess } from '../access/access';
import {
  createRecipient,
  deleteRecipient,
  presentRecipients,
  reshareAccessCode,
  RECIPIENTS_WITH_VIDEO_COUNTS_READ,
} from './recipients.service';
import { listSealedMessages, replaceSealedCard, storeCardWraps } from './recipient-cards.service';

export const recipientRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/recipients',
      { config: { contextRead: RECIPIENTS_WITH_VIDEO_COUNTS_READ } },
      async (request): Promise<TRecipientList> => {
        // The list was read with the request's own lookups: asked for only once allowed.
        const actor = requireActor(request);
        requireAccess(actor, Permission.RecipientsManage);
        return presentRecipients(
          actor.user,
          readWithContext(request, RECIPIENTS_WITH_VIDEO_COUNTS_READ),
        );
      },
    );

    app.post(
      '/api/recipients',
      { schema: { body: ZCreateRecipientBody } },
      async (request, reply) => {
        const { recipient, isNew } = await createRecipient(deps, getRequestContext(request), {
          actor: requireActor(request),
          body: request.body,
        });
        return reply.status(isNew ? 201 : 200).send(recipient);
      },
    );

    app.delete('/api/recipients/:id', { schema: { params: ZRecipientIdParams } }, (request) =>
      deleteRecipient(deps, getRequestContext(request), {
        actor: requireActor(request),
        recipientId: request.params.id,
      }),
    );

    app.post(
      '/api/recipients/:id/reshare-code',
      { schema: { params: ZRecipientIdParams } },
      (request) =>
        reshareAccessCode(deps, getRequestContext(request), {
          actor: requireActor(request),
          recipientId: request.params.id,
        }),
    );

    // Sealed cards: made on the owner's device once enhanced encryption is on.
    app.post(
      '/api/recipients/:id/sealed-card',
      { schema: { params: ZRecipientIdParams, body: ZSealedCard } },
      (request) =>
        replaceSealedCard(deps, getRequestContext(request), {
          actor: requireActor(request),
          recipientId: request.params.id,
          card: request.body,
        }),
    );

    app.get(
      '/api/recipients/:id/sealed-messages',
      { schema: { params: ZRecipientIdParams } },
      (request) =>
        listSealedMessages(deps, { actor: requireActor(request), recipientId: request.params.id }),
    );

    app.put(
      '/api/recipients/:id/sealed-messages',
      { schema: { params: ZRecipientIdParams, body: ZCardWrapsBody } },
      (request) =>
        storeCardWraps(deps, {
          actor: requireActor(request),
          recipientId: request.params.id,
          body: request.body,
        }),
    );
  };
