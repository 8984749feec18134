import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
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

/**
 * The sign-in route's per-IP limit, counting proofs and secrets as typed apart: the browser sends
 * a password's (or access code's) proof first and the secret itself only when the account asks
 * for it, so one sign-in of an account without encryption is two requests. Counted
 * together, a care home behind one address could sign in half as many people; counted apart, a
 * stranger still has `limit.max` guesses of each kind. Counted once the body is read, to see it.
 */
export function perIpSignInLimit(limit: RateLimit, message: string) {
  return {
    ...perIpLimit(limit, message),
    hook: 'preValidation' as const,
    keyGenerator: (request: FastifyRequest) =>
      `${normalizeIP(request.ip)}:${sendsSecretAsTyped(request.body) ? 'typed' : 'proof'}`,
  };
}

function sendsSecretAsTyped(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'password' in body;
}
