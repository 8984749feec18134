import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_HEADER, isValidDeviceId } from '../../shared/domain/device';
import type { TLoginMethod } from '../../shared/domain/enums';
import { MESSAGES } from '../../shared/domain/errors';
import type { TConfig } from '../config';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { RequestContext } from '../modules/audit/audit.service';
import { sessionActor, type Actor } from '../modules/access/actor';
import { ResponseCache } from '../modules/auth/response-cache';
import { findRequestContext, type ContextRead } from '../modules/auth/request-context.repository';
import { extendSession } from '../modules/auth/sessions.repository';
import { VerifiedCookies } from '../modules/auth/verified-cookies';
import type { Clock } from '../lib/clock';
import {
  DEVICE_SEEN_RESOLUTION_MS,
  touchDevice,
  type DeviceRow,
} from '../modules/devices/devices.repository';
import type { SessionUser } from '../modules/users/users.repository';

export const SESSION_COOKIE = 'memento_session';

/** Session lifetimes: primary users 30 days sliding; admins 12 hours. */
export const SESSION_LIFETIME_MS = { user: 30 * 24 * 3600_000, admin: 12 * 3600_000 } as const;
const SLIDE_AFTER_MS = 3600_000;
/** Characters of cached answers a server holds: about 600 libraries of 20 videos. */
const CACHED_ANSWERS_BUDGET = 4_000_000;
/** Session cookies whose signature a server remembers having checked. */
const VERIFIED_COOKIES_LIMIT = 5_000;

declare module 'fastify' {
  interface FastifyRequest {
    device: DeviceRow | null;
    user: SessionUser | null;
    sessionIdHash: string | null;
    sessionExpiresAt: Date | null;
    /** How and when this session signed in (the dashboard break-glass reads both). */
    sessionMethod: TLoginMethod | null;
    sessionCreatedAt: Date | null;
    /** When this session's second factor was checked (admins); null until then. */
    sessionSecondFactorAt: Date | null;
    /** The route's `contextRead`, answered by the statement that found `user`. */
    contextReadAnswer: { of: ContextRead<unknown>; value: unknown } | null;
  }
  interface FastifyContextConfig {
    /** Routes reachable without X-Device-ID (device registration, health). */
    isDeviceOptional?: boolean;
    /**
     * Routes another server calls (Stripe's webhooks): no browser, so no Origin, device or
     * session; the route proves the caller itself (a signature).
     */
    isServerToServer?: boolean;
    /** The route's read, answered with the request's own lookups in one statement. */
    contextRead?: ContextRead<unknown>;
  }
}

export function sessionLifetimeFor(user: Pick<SessionUser, 'isAdmin'>): number {
  return user.isAdmin ? SESSION_LIFETIME_MS.admin : SESSION_LIFETIME_MS.user;
}

export function getRequestContext(request: FastifyRequest): RequestContext {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    deviceId: request.device?.id ?? null,
  };
}

export function requireDevice(request: FastifyRequest): DeviceRow {
  if (!request.device) throw new AppError('DEVICE_REQUIRED', MESSAGES.deviceRequired);
  return request.device;
}

/**
 * What the route's `contextRead` answered for `request.user`, read in the same statement that
 * found the user. Only for a route that declares `read` as its `contextRead`, after requireUser.
 */
export function readWithContext<T>(request: FastifyRequest, read: ContextRead<T>): T {
  const answer = request.contextReadAnswer;
  if (!answer || answer.of !== read || answer.value === null) {
    throw new Error('readWithContext: this route did not declare the read as its contextRead');
  }
  return answer.value as T;
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  return request.user;
}

/** Who is asking, for the access rules: the signed-in user on this request's device. */
export function requireActor(request: FastifyRequest): Actor {
  return sessionActor(requireUser(request), requireDevice(request));
}

export function setSessionCookie(
  reply: FastifyReply,
  config: TConfig,
  token: string,
  expiresAt: Date,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.APP_URL.startsWith('https:'),
    signed: true,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** An Origin header's host and port, or null for one that is not an address ('null'). */
function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function isSafeMethod(method: string) {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * For every /api request: refuse foreign origins, resolve the device from X-Device-ID and the
 * session cookie (only valid on the device it was created on).
 */
export function registerRequestContext(
  app: FastifyInstance,
  deps: {
    db: Db;
    config: TConfig;
    allowedOrigins: ReadonlySet<string>;
    /** Where the app is set up to be opened (APP_URL's origin). */
    publicOrigin: string;
    clock: Clock;
  },
) {
  app.decorateRequest('device', null);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionIdHash', null);
  app.decorateRequest('sessionExpiresAt', null);
  app.decorateRequest('sessionMethod', null);
  app.decorateRequest('sessionCreatedAt', null);
  app.decorateRequest('sessionSecondFactorAt', null);
  app.decorateRequest('contextReadAnswer', null);
  const cache = new ResponseCache(CACHED_ANSWERS_BUDGET);
  const verifiedCookies = new VerifiedCookies(VERIFIED_COOKIES_LIMIT, (cookie) =>
    app.unsignCookie(cookie),
  );

  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    if (request.routeOptions.config.isServerToServer) return;

    const origin = request.headers.origin;
    if (!isSafeMethod(request.method) && origin && !deps.allowedOrigins.has(origin)) {
      // This server's own page, reached by another name (an IP address, a second host name):
      // the person is told where Memento lives rather than that another website asked.
      const isOwnPage = hostOf(origin) === request.host;
      throw new AppError(
        'ORIGIN_MISMATCH',
        isOwnPage ? MESSAGES.otherAddress(deps.publicOrigin) : MESSAGES.originMismatch,
      );
    }

    if (request.routeOptions.config.isDeviceOptional) return;

    const header = request.headers[DEVICE_HEADER];
    if (typeof header !== 'string' || !isValidDeviceId(header)) {
      throw new AppError('DEVICE_REQUIRED', MESSAGES.deviceRequired);
    }
    // The session cookie is checked before the one query that finds the device and the session.
    const cookie = request.cookies[SESSION_COOKIE];
    const verified = cookie ? verifiedCookies.verify(cookie) : null;
    if (cookie && !verified) clearSessionCookie(reply);
    const token = verified?.token ?? null;
    const idHash = verified?.idHash ?? null;
    // A route's own read rides along unless its query string does not validate.
    const contextRead = request.routeOptions.config.contextRead;
    const readParams = contextRead?.params(request.query) ?? null;
    const read = contextRead && readParams ? { of: contextRead, params: readParams } : undefined;
    const now = deps.clock.now();
    const found = await findRequestContext(deps.db, header.toLowerCase(), idHash, now, read, cache);
    if (!found) throw new AppError('DEVICE_NOT_FOUND', MESSAGES.deviceNotFound);
    const device = found.device;
    request.device = device;
    // The row is in hand: write lastSeen only when it is stale, not on every request.
    if (now.getTime() - device.lastSeen.getTime() > DEVICE_SEEN_RESOLUTION_MS) {
      await touchDevice(deps.db, device.id, now);
    }

    const { session, user } = found;
    if (!token || !idHash || !session || !user) return;

    request.user = user;
    request.sessionIdHash = idHash;
    request.sessionExpiresAt = session.expiresAt;
    request.sessionMethod = session.method;
    request.sessionCreatedAt = session.createdAt;
    request.sessionSecondFactorAt = session.secondFactorVerifiedAt;
    if (read) request.contextReadAnswer = { of: read.of, value: found.read };

    // Sliding expiry for everyone but admins, written at most once an hour.
    if (!user.isAdmin && now.getTime() - session.lastSeenAt.getTime() > SLIDE_AFTER_MS) {
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS.user);
      await extendSession(deps.db, idHash, expiresAt, now);
      setSessionCookie(reply, deps.config, token, expiresAt);
      request.sessionExpiresAt = expiresAt;
    }
  });
}
