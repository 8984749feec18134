import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TPublicConfig } from '../../../shared/schemas/config';
import type { AppDeps } from '../../app';

export const systemRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/health', { config: { isDeviceOptional: true } }, async (request, reply) => {
      try {
        await deps.db.execute(sql`select 1`);
        return { status: 'ok', database: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'error', database: 'unreachable' });
      }
    });

    app.get('/api/config', async (): Promise<TPublicConfig> => ({
      analyticsScriptUrl: deps.config.ANALYTICS_SCRIPT_URL ?? null,
      donationUrl: deps.config.DONATION_URL ?? null,
      sourceCodeUrl: deps.config.SOURCE_CODE_URL ?? null,
      billingEnabled: Boolean(deps.config.STRIPE_SECRET_KEY),
    }));
  };
