import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/server/db/client';
import { buildTestApp, createPrimaryUser, TestDevice, type TestApp } from '../setup/app';
import { createServerTestDatabase, LOCAL_POSTGRES_URL } from '../setup/database';
import { TcpProxy } from '../setup/tcp-proxy';

// REDIS_URL is real. Two app servers on one PostgreSQL and one Redis (the ones every machine here
// runs) share their per-IP limits, and a sign-out on one is honoured by the other at once. With
// Redis gone, limits fall back to each process and nothing else changes.

const REDIS = { host: '127.0.0.1', port: 6379 };
const LOGIN_LIMIT = 5;

/** An address of its own per run, so counts left in the shared Redis by another run never meet. */
const freshIp = () => `198.18.${randomInt(0, 255)}.${randomInt(1, 255)}`;

async function wrongLogin(device: TestDevice) {
  return device.post('/api/login', {
    username: 'nobody-at-all',
    password: 'Wrong&Password-1',
    deviceId: device.deviceId,
  });
}

describe('two app servers sharing PostgreSQL and Redis', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const database = await createServerTestDatabase(LOCAL_POSTGRES_URL);
    const env = { REDIS_URL: `redis://${REDIS.host}:${REDIS.port}` };
    const limits = { login: { max: LOGIN_LIMIT, timeWindow: 60_000 } };
    a = await buildTestApp({ database, env, limits });
    b = await buildTestApp({ database: createPostgresDatabase(database.url), env, limits });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts the per-IP sign-in limit across both servers', async () => {
    const onA = await TestDevice.create(a.app, { ip: freshIp() });
    const onB = onA.onApp(b.app);
    for (let i = 0; i < 3; i += 1) expect((await wrongLogin(onA)).statusCode).toBe(401);
    for (let i = 0; i < 2; i += 1) expect((await wrongLogin(onB)).statusCode).toBe(401);
    const sixth = await wrongLogin(onB);
    expect(sixth.statusCode).toBe(429);
    expect((await wrongLogin(onA)).statusCode).toBe(429);
  });

  it('honours a sign-out on one server at once on the other', async () => {
    const { device } = await createPrimaryUser(a, {}, { ip: freshIp() });
    const sameBrowserOnB = device.onApp(b.app);
    expect((await sameBrowserOnB.get('/api/user')).statusCode).toBe(200);
    expect((await device.post('/api/logout')).statusCode).toBe(200);
    expect((await sameBrowserOnB.get('/api/user')).statusCode).toBe(401);
  });
});

describe('an app server whose Redis goes away', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    proxy = await TcpProxy.start(REDIS);
    t = await buildTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}` },
      limits: { login: { max: LOGIN_LIMIT, timeWindow: 60_000 } },
    });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it('keeps limiting in the process, answers everything else as before, and shares again after', async () => {
    const { device } = await createPrimaryUser(t, {}, { ip: freshIp() });
    await proxy.refuse();

    // Everything else carries on.
    expect((await device.get('/api/user')).statusCode).toBe(200);
    const stranger = await TestDevice.create(t.app, { ip: freshIp() });
    const started = Date.now();
    for (let i = 0; i < LOGIN_LIMIT; i += 1)
      expect((await wrongLogin(stranger)).statusCode).toBe(401);
    // The limit still holds, counted in this process, and nothing waited on Redis.
    expect((await wrongLogin(stranger)).statusCode).toBe(429);
    expect(Date.now() - started).toBeLessThan(5_000);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({
      status: 'ok',
      database: 'ok',
      redis: 'unreachable (limits in this process)',
    });

    await proxy.restore();
    const deadlineForRedis = Date.now() + 10_000;
    while (Date.now() < deadlineForRedis) {
      const body = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
      if (body.redis === 'ok') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Once Redis is back the counts live there again: the next address's count of passwords as
    // typed appears in Redis.
    const ip = freshIp();
    const another = await TestDevice.create(t.app, { ip });
    const redis = new Redis(REDIS.port, REDIS.host);
    try {
      const deadline = Date.now() + 10_000;
      let keys: string[] = [];
      while (keys.length === 0 && Date.now() < deadline) {
        expect((await wrongLogin(another)).statusCode).toBe(401);
        keys = await redis.keys(`memento:rate:POST/api/login:${ip}:typed`);
      }
      expect(keys).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});
