import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { MESSAGES } from '../../shared/domain/errors';
import { AppError } from '../errors';
import type { Clock } from '../lib/clock';
import { createRateLimitStore } from '../lib/rate-limit-store';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

/**
 * Per-IP limits. Generous, because a care home puts dozens of residents behind one address;
 * the per-account limits in the audit module do the real protecting.
 */
export const DEFAULT_LIMITS = {
  deviceRegistration: { max: 200, timeWindow: 3600_000 },
  registration: { max: 30, timeWindow: 3600_000 },
  login: { max: 100, timeWindow: 15 * 60_000 },
  deviceReset: { max: 30, timeWindow: 15 * 60_000 },
  emergency: { max: 60, timeWindow: 15 * 60_000 },
  passwordReset: { max: 60, timeWindow: 15 * 60_000 },
  secondFactor: { max: 30, timeWindow: 15 * 60_000 },
  adminMail: { max: 30, timeWindow: 15 * 60_000 },
  emailConfirm: { max: 30, timeWindow: 15 * 60_000 },
  // Stripe sends from a few addresses, in bursts when a plan changes.
  billingWebhook: { max: 300, timeWindow: 60_000 },
} satisfies Record<string, RateLimit>;

export type Limits = typeof DEFAULT_LIMITS;

/** Route-level limiting only: a route opts in with `config: { rateLimit: perIpLimit(...) }`. */
export async function registerRateLimit(
  app: FastifyInstance,
  options: { redis: Redis | null; log: FastifyBaseLogger; clock: Clock },
): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    store: createRateLimitStore(options),
    errorResponseBuilder: () => new AppError('RATE_LIMITED', MESSAGES.rateLimited),
  });
}

/**
 * A route's per-IP limit, for `config: { rateLimit: perIpLimit(...) }`; the refusal carries
 * `message` (a sentence from MESSAGES that tells the person how long to wait).
 */
export function perIpLimit(limit: RateLimit, message: string = MESSAGES.rateLimited) {
  return {
    max: limit.max,
    timeWindow: limit.timeWindow,
    errorResponseBuilder: () => new AppError('RATE_LIMITED', message),
  };
}
