import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createPrimaryUser, type TestApp } from '../setup/app';
import { createServerTestDatabase, LOCAL_POSTGRES_URL } from '../setup/database';
import { startServerProcess, type ServerProcess } from '../setup/server-process';
import { TcpProxy } from '../setup/tcp-proxy';

// PostgreSQL going away — a restart, a failover, a network blip — must give clean 503s meanwhile
// and recovery by itself after, never a dead server. A proxy of the test's own stands between the
// app and the shared PostgreSQL, which is never stopped.

const postgres = new URL(LOCAL_POSTGRES_URL);
const target = { host: postgres.hostname, port: Number(postgres.port || 5432) };
const DATABASE_UNAVAILABLE = {
  code: 'SERVICE_UNAVAILABLE',
  message:
    'Memento cannot reach its database just now, so nothing was changed. Please try again in a minute.',
};

async function eventually<T>(probe: () => Promise<T>, isDone: (value: T) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the app while PostgreSQL goes away and comes back', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let database: Awaited<ReturnType<typeof createServerTestDatabase>>;

  beforeAll(async () => {
    proxy = await TcpProxy.start(target);
    database = await createServerTestDatabase(LOCAL_POSTGRES_URL, {
      connectPort: proxy.port,
    });
    t = await buildTestApp({ database });
  });
  afterAll(async () => {
    await proxy.restore();
    await t.close();
    await proxy.close();
  });

  it('answers 503 while the link is cut and refused, then recovers with sessions intact', async () => {
    const { device, user } = await createPrimaryUser(t);
    expect((await device.get('/api/user')).statusCode).toBe(200);
    // A page the server keeps for the session is sent only after the database says it stands:
    // without the database, it is not sent either.
    const cachedPage = await device.get('/api/audit-logs');
    expect(cachedPage.statusCode).toBe(200);
    // Idle pooled clients now hold open connections; cutting them is what used to kill the server.
    expect(proxy.openConnections).toBeGreaterThan(0);

    await proxy.refuse();

    const started = Date.now();
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'error', database: 'unreachable' });

    const signedIn = await device.get('/api/user');
    expect(signedIn.statusCode).toBe(503);
    expect(signedIn.json()).toEqual(DATABASE_UNAVAILABLE);
    const cached = await device.get('/api/audit-logs');
    expect(cached.statusCode).toBe(503);
    expect(cached.json()).toEqual(DATABASE_UNAVAILABLE);

    const write = await device.post('/api/recipients', {
      firstName: 'Ann',
      lastName: 'Hale',
      email: 'ann@example.test',
      category: 'family',
    });
    expect(write.statusCode).toBe(503);
    expect(write.json()).toEqual(DATABASE_UNAVAILABLE);
    // Refused connections are answered at once; nothing waits for a time-out.
    expect(Date.now() - started).toBeLessThan(10_000);

    await proxy.restore();

    const recovered = await eventually(
      () => device.get('/api/user'),
      (res) => res.statusCode === 200,
    );
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json()).toMatchObject({ id: user.id, username: user.username });
    const cachedAgain = await device.get('/api/audit-logs');
    expect(cachedAgain.statusCode).toBe(200);
    expect(cachedAgain.body).toBe(cachedPage.body);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  // A client lent out for a transaction is heard by nobody but its user: a connection lost between
  // two of its statements once took the whole process down (an 'error' event nobody listened to).
  it('fails a transaction whose connection is cut between its statements, and goes on', async () => {
    const { device } = await createPrimaryUser(t);
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(transaction).rejects.toThrow();
    const recovered = await eventually(
      () => device.get('/api/user'),
      (res) => res.statusCode === 200,
    );
    expect(recovered.statusCode).toBe(200);
  });

  it('survives connections dropped mid-query and while idle, again and again', async () => {
    const { device } = await createPrimaryUser(t);
    for (let round = 0; round < 3; round += 1) {
      const inFlight = Promise.all(Array.from({ length: 8 }, () => device.get('/api/user')));
      proxy.cut();
      const answers = await inFlight;
      for (const res of answers) expect([200, 503]).toContain(res.statusCode);
      const recovered = await eventually(
        () => device.get('/api/user'),
        (res) => res.statusCode === 200,
      );
      expect(recovered.statusCode).toBe(200);
      proxy.cut();
    }
  });
});

describe('the real server process when PostgreSQL drops its connections', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let closeDatabase: () => Promise<void>;

  beforeAll(async () => {
    proxy = await TcpProxy.start(target);
    const database = await createServerTestDatabase(LOCAL_POSTGRES_URL, {
      connectPort: proxy.port,
    });
    closeDatabase = () => database.close();
    server = await startServerProcess({
      DATABASE_URL: database.url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'memento-faults-')),
    });
  });
  afterAll(async () => {
    await server.stop();
    await proxy.restore();
    await closeDatabase();
    await proxy.close();
  });

  it('keeps running, answers 503, and comes back by itself', async () => {
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect(proxy.openConnections).toBeGreaterThan(0);

    await proxy.refuse();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.exitCode(), server.output()).toBeUndefined();
    const down = await fetch(`${server.baseUrl}/api/health`);
    expect(down.status).toBe(503);

    await proxy.restore();
    const up = await eventually(
      () => fetch(`${server.baseUrl}/api/health`).then((res) => res.status),
      (status) => status === 200,
    );
    expect(up).toBe(200);
    expect(server.exitCode(), server.output()).toBeUndefined();
  });
});
