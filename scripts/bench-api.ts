// `npm run bench:api` (issue 15 item 1): the app's signed-in reads against a bare Fastify doing
// the same two indexed lookups with prepared statements on the same engine, in the same run
// (absolute numbers drift on a shared machine, the ratio much less). For each engine (PGlite, and
// PostgreSQL at BENCH_DATABASE_URL or the local server; BENCH_ENGINE=pglite|postgres picks one)
// it starts the built server on a fresh DATA_DIR or database, signs an owner up with a next of
// kin, a recipient and 20 messages, runs autocannon (50 connections, BENCH_SECONDS each, 10 by
// default) on each route, then the baseline, and prints throughput, p99 and their ratios, and
// the app's resident memory at idle after the run.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer } from './build-server.mjs';
import {
  root,
  residentMegabytes,
  signUpOwner,
  startServer,
  stopServer,
  waitForHealth,
  withPostgresDatabase,
} from './bench-support';

const ROUTES = ['/api/user', '/api/recipients', '/api/videos', '/api/audit-logs'];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const engines = process.env.BENCH_ENGINE
  ? [process.env.BENCH_ENGINE as 'pglite' | 'postgres']
  : (['pglite', 'postgres'] as const);
const port = 5800 + (process.pid % 100);
const base = `http://127.0.0.1:${port}`;

interface TRun {
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

async function cannon(url: string, headers: Record<string, string>, seconds = SECONDS) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, errors };
}

async function seed() {
  const { client, recipientId } = await signUpOwner(base);
  const added = await client.call('POST', '/api/recipients', {
    firstName: 'Tom',
    lastName: 'Hill',
    email: 'tom@example.test',
    category: 'family',
  });
  if (!added.ok) throw new Error(`recipient: ${await added.text()}`);
  for (let i = 0; i < 20; i += 1) {
    const video = await client.call('POST', '/api/videos', {
      id: randomUUID(),
      recipientId,
      metadata: { byteSize: 1_000_000 + i, durationMs: 30_000, mimeType: 'video/webm' },
    });
    if (!video.ok) throw new Error(`video: ${await video.text()}`);
  }
  return { 'x-device-id': client.deviceId, cookie: client.cookie };
}

async function measureEngine(engine: 'pglite' | 'postgres', databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-api-'));
  const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  try {
    const app = startServer({ port, dataDir, env });
    await waitForHealth(base);
    const headers = await seed();
    const app_: Record<string, TRun> = {};
    await cannon(`${base}/api/user`, headers, 3); // warm-up
    for (const route of ROUTES) app_[route] = await cannon(`${base}${route}`, headers);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const memory = residentMegabytes(app.pid!);
    await stopServer(app);

    const baseline = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts/bench-api-baseline.ts')],
      {
        env: {
          ...process.env,
          PORT: String(port),
          PGLITE_DIR: path.join(dataDir, 'pgdata'),
          ...env,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    await waitForHealth(base);
    await cannon(`${base}/api/user`, headers, 3); // warm-up
    const bare = await cannon(`${base}/api/user`, headers);
    await stopServer(baseline);
    return { app: app_, bare, memory };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await buildServer();
for (const engine of engines) {
  const { app, bare, memory } =
    engine === 'postgres'
      ? await withPostgresDatabase(POSTGRES_URL, 'memento_bench', (url) =>
          measureEngine(engine, url),
        )
      : await measureEngine(engine);
  console.log(`\n${engine}: ${CONNECTIONS} connections, ${SECONDS} s per route`);
  console.log(
    `  bare lookups   ${bare.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${bare.p99} ms`,
  );
  for (const [route, run] of Object.entries(app)) {
    const ratio = run.requestsPerSecond / bare.requestsPerSecond;
    const p99Ratio = run.p99 / Math.max(bare.p99, 1);
    console.log(
      `  ${route.padEnd(15)}${run.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${run.p99} ms  ` +
        `→ ${ratio.toFixed(2)}× throughput, ${p99Ratio.toFixed(2)}× p99` +
        (run.errors ? `  (${run.errors} errors!)` : ''),
    );
  }
  console.log(`  app resident memory after the run: ${memory} MB`);
}
