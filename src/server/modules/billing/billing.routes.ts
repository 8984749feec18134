import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BILLING_MESSAGES,
  ZCheckoutBody,
  type TBillingRedirect,
  type TBillingStatus,
} from '../../../shared/schemas/billing';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { getRequestContext, requireUser } from '../../plugins/request-context';
import type { SessionUser } from '../users/users.repository';
import { getBillingStatus } from './billing.service';
import { openPortal, startCheckout } from './checkout.service';
import { receiveWebhook } from './webhook.service';
import { perIpLimit } from '../../plugins/rate-limit';

/** Stripe's events are small; an invoice with many lines stays well under this. */
const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024;

/** The plan belongs to the account holder; the people they record for have none to manage. */
function requireAccountHolder(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.isPrimary) throw new AppError('FORBIDDEN', BILLING_MESSAGES.primaryOnly);
  return user;
}

export const billingRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const provider = deps.payments;
    app.get('/api/billing', async (request): Promise<TBillingStatus> => {
      const user = requireAccountHolder(request);
      return getBillingStatus(deps, provider, user.id);
    });

    app.post(
      '/api/billing/checkout',
      { schema: { body: ZCheckoutBody } },
      async (request): Promise<TBillingRedirect> => {
        const user = requireAccountHolder(request);
        return startCheckout(deps, provider, { userId: user.id, tier: request.body.tier });
      },
    );

    app.post('/api/billing/portal', async (request): Promise<TBillingRedirect> => {
      const user = requireAccountHolder(request);
      return openPortal(deps, provider, user.id);
    });

    // Stripe calls this one: the signature is checked over the exact bytes sent, so this route
    // alone reads its body raw; the rest of the app keeps its JSON parsing.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES },
        (_request, body, done) => done(null, body),
      );
      raw.post(
        '/api/billing/webhook',
        { config: { isServerToServer: true, rateLimit: perIpLimit(deps.limits.billingWebhook) } },
        async (request) => {
          const signature = request.headers['stripe-signature'];
          return receiveWebhook(deps, provider, getRequestContext(request), {
            payload: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            signature: typeof signature === 'string' ? signature : undefined,
          });
        },
      );
    });
  };
