import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

const FIRST_CONNECTION_WAIT_MS = 2_000;

/**
 * A server just started counts with the others from its first request: it waits for its first
 * connection, for as long as a connection may take, and starts without Redis when none comes
 * (limits then count in the process until it does).
 */
function firstConnection(redis: Redis): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONNECTION_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The Redis connection for shared rate limits. Commands fail at once while it is away (no
 * offline queue), so a request never waits on Redis; it reconnects by itself, and errors are
 * logged once per outage rather than on every retry.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  // Loaded only when REDIS_URL is set: a single server does not carry the client in memory.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    lazyConnect: false,
  });
  let isDown = false;
  redis.on('error', (error) => {
    if (isDown) return;
    isDown = true;
    log.warn({ err: error }, 'Redis connection lost; reconnecting');
  });
  redis.on('ready', () => {
    if (isDown) log.info('Redis connection restored');
    isDown = false;
  });
  await firstConnection(redis);
  return redis;
}
