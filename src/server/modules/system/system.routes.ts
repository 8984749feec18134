import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TPublicConfig } from '../../../shared/schemas/config';
import type { AppDeps } from '../../deps';
import { toPublicConfig } from './public-config';
import { pingDatabase } from './system.repository';

/** A health probe must answer promptly even when the database's network hangs. */
const HEALTH_TIMEOUT_MS = 3_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const systemRoutes =
  (deps: AppDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/health', { config: { isDeviceOptional: true } }, async (request, reply) => {
      // Redis going away is not an outage: limits fall back to this process (say so, stay 200).
      const redis = deps.redis
        ? { redis: deps.redis.status === 'ready' ? 'ok' : 'unreachable (limits in this process)' }
        : {};
      if (await deps.diskSpace.isFullNow()) {
        return reply.status(503).send({ status: 'error', database: 'ok', disk: 'full', ...redis });
      }
      try {
        await withTimeout(pingDatabase(deps.db), HEALTH_TIMEOUT_MS);
        return { status: 'ok', database: 'ok', ...redis };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply.status(503).send({ status: 'error', database: 'unreachable', ...redis });
      }
    });

    app.get('/api/config', async (): Promise<TPublicConfig> =>
      toPublicConfig(deps.config, deps.externalProviders.list()),
    );
  };
