import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Clock } from './clock';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * One fixed window per key in Redis: the first hit sets the expiry, every hit counts. Atomic, so
 * several app servers share one count.
 */
const INCREMENT = `
  local current = redis.call('INCR', KEYS[1])
  if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  local ttl = redis.call('PTTL', KEYS[1])
  return {current, ttl}
`;

interface LocalEntry {
  current: number;
  resetAt: number;
}

/** The in-process fallback: the same fixed windows in a Map, trimmed as it grows. */
class LocalWindows {
  private readonly entries = new Map<string, LocalEntry>();

  constructor(private readonly clock: Clock) {}

  increment(key: string, timeWindow: number): { current: number; ttl: number } {
    const now = this.clock.now().getTime();
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.entries.size > 50_000) this.trim(now);
      entry = { current: 0, resetAt: now + timeWindow };
      this.entries.set(key, entry);
    }
    entry.current += 1;
    return { current: entry.current, ttl: entry.resetAt - now };
  }

  private trim(now: number) {
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
  }
}

/**
 * The per-IP rate-limit store (@fastify/rate-limit's `store` option). With REDIS_URL the counts
 * live in Redis and so count across every app server; without it, or while Redis is away, they
 * live in this process — the fall-back is logged once per outage and never fails a request.
 */
export function createRateLimitStore(options: {
  redis: Redis | null;
  log: FastifyBaseLogger;
  clock: Clock;
}) {
  const local = new LocalWindows(options.clock);
  let isFallingBack = false;

  const fallBack = (error: unknown) => {
    if (isFallingBack) return;
    isFallingBack = true;
    options.log.warn(
      { err: error },
      'Redis is unreachable: rate limits now count in this process only until it returns',
    );
  };

  class SharedRateLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    // The plugin constructs the store with its options; children pass their key prefix.
    constructor(_options?: unknown, prefix = 'memento:rate:') {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const { redis } = options;
      const fullKey = `${this.prefix}${key}`;
      if (!redis || redis.status !== 'ready') {
        if (redis) fallBack(new Error(`Redis connection is ${redis.status}`));
        callback(null, local.increment(fullKey, timeWindow));
        return;
      }
      redis
        .eval(INCREMENT, 1, fullKey, String(timeWindow))
        .then((result) => {
          if (isFallingBack) {
            isFallingBack = false;
            options.log.info('Redis is back: rate limits are shared again');
          }
          const [current, ttl] = result as [number, number];
          callback(null, { current, ttl });
        })
        .catch((error: unknown) => {
          fallBack(error);
          callback(null, local.increment(fullKey, timeWindow));
        });
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // At run time the plugin passes the route as `routeInfo` (as its own Redis store reads it).
      const { routeInfo } = routeOptions as unknown as {
        routeInfo: { method: string; url: string };
      };
      return new SharedRateLimitStore(
        undefined,
        `${this.prefix}${routeInfo.method}${routeInfo.url}:`,
      );
    }
  }

  return SharedRateLimitStore satisfies FastifyRateLimitStoreCtor;
}
