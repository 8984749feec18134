// `npm run bench:api`: the app's signed-in reads against a bare Fastify doing the same two indexed
// lookups with prepared statements on the same engine, in the same run (absolute numbers drift on a
// shared machine, the ratio much less). For each engine (PGlite, and PostgreSQL at
// BENCH_DATABASE_URL or the local server; BENCH_ENGINE=pglite|postgres picks one;
// BENCH_ROUTES=/api/user,… picks routes) it starts the built server on a fresh DATA_DIR or
// database, signs up the installation's admin and then an ordinary owner with a next of kin, a
// recipient and 20 messages (the owner reads each route; a route ending in `#admin` is read by the
// admin), starts the baseline beside it (on PGlite, on a copy of the seeded data), and runs
// autocannon (50 connections, BENCH_SECONDS per route, 10 by default, in BENCH_ROUNDS rounds, 3 by
// default) on each route, each round paired with a round of the baseline. It prints throughput, p99
// and their ratios, and the app's resident memory at idle after the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer } from './build-server.mjs';
import {
  cpuMicroseconds,
  machineBusyMicroseconds,
  postgresMicroseconds,
  profileFlags,
  root,
  residentMegabytes,
  signUpOwner,
  startServer,
  stopServer,
  waitForHealth,
  withPostgresDatabase,
} from './bench-support';

/**
 * Read by an ordinary owner; `#admin` reads as the installation's admin instead (the audit log
 * without `userId`: every account's events, as the Admin Panel reads it).
 */
const ROUTES = process.env.BENCH_ROUTES?.split(',') ?? [
  '/api/user',
  '/api/recipients',
  '/api/videos',
  '/api/audit-logs',
  '/api/audit-logs#admin',
];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Math.max(2, Math.round(SECONDS / ROUNDS));
const CONNECTIONS = 50;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const engines = process.env.BENCH_ENGINE
  ? [process.env.BENCH_ENGINE as 'pglite' | 'postgres']
  : (['pglite', 'postgres'] as const);
const port = 5800 + (process.pid % 100);
const base = `http://127.0.0.1:${port}`;
const baselinePort = port + 100;
const baselineBase = `http://127.0.0.1:${baselinePort}`;

interface TRun {
  requestsPerSecond: number;
  p99: number;
  errors: number;
  /** The server process's CPU time per answer, in µs: steadier than throughput on a busy machine. */
  cpuPerRequest: number;
  /** The whole machine's busy CPU per answer, in µs: the server, the database and autocannon. */
  machinePerRequest: number;
  /** PostgreSQL's server processes' CPU per answer, in µs (0 on PGlite, which runs in the app). */
  databasePerRequest: number;
  /** autocannon's CPU per answer (this process), in µs. */
  loadPerRequest: number;
}

/**
 * Each run first opens its connections and lets them settle for SETTLE_SECONDS, unmeasured, then
 * measures `seconds` on those same connections. A Node server under load accepts one new connection
 * per turn of its event loop, so 50 connections opened at once reach a busy server one by one over
 * a second or more, and their first answers wait that long: counted, they made a short round's p99
 * the time to open the connections, not the route's.
 */
const SETTLE_SECONDS = 1;

interface TAutocannonClient {
  on(event: 'response', listener: (status: number, bytes: number, ms: number) => void): void;
}

async function cannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  pid: number,
): Promise<TRun> {
  const latencies: number[] = [];
  let failed = 0;
  let measuring = false;
  // CPU time so far, in µs: the server's, the whole machine's, PostgreSQL's, autocannon's.
  const meters = () => [
    cpuMicroseconds(pid),
    machineBusyMicroseconds(),
    postgresMicroseconds(),
    ownCpuMicroseconds(),
  ];
  let before = [0, 0, 0, 0];
  let startedAt = 0;
  const run = autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: SETTLE_SECONDS + seconds,
    setupClient: (client: TAutocannonClient) =>
      client.on('response', (status, _bytes, ms) => {
        if (!measuring) return;
        latencies.push(ms);
        if (status < 200 || status > 299) failed += 1;
      }),
  } as autocannon.Options);
  const settled = setTimeout(() => {
    measuring = true;
    before = meters();
    startedAt = performance.now();
  }, SETTLE_SECONDS * 1000);
  const result = await run;
  clearTimeout(settled);
  measuring = false;
  const measuredSeconds = (performance.now() - startedAt) / 1000;
  const [cpu, machine, database, load] = meters().map(
    (now, i) => (now - before[i]!) / Math.max(latencies.length, 1),
  );
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / measuredSeconds,
    p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    errors: result.errors + result.timeouts + failed,
    cpuPerRequest: cpu!,
    machinePerRequest: machine!,
    databasePerRequest: database!,
    loadPerRequest: load!,
  };
}

/** The admin (the first account) and an ordinary owner with a recipient and 20 messages. */
async function seed() {
  const admin = (await signUpOwner(base, 'admin')).client;
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
  return {
    owner: { 'x-device-id': client.deviceId, cookie: client.cookie },
    admin: { 'x-device-id': admin.deviceId, cookie: admin.cookie },
  };
}

/** Throughput and p99 of one route over several rounds, each paired with a baseline round. */
interface TPaired {
  app: TRun;
  bare: TRun;
}

function average(runs: TRun[], key: keyof TRun): number {
  return runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
}

function ownCpuMicroseconds(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function combine(runs: TRun[]): TRun {
  const sorted = runs.map((run) => run.p99).sort((a, b) => a - b);
  return {
    requestsPerSecond: runs.reduce((sum, run) => sum + run.requestsPerSecond, 0) / runs.length,
    p99: sorted[Math.floor(sorted.length / 2)]!,
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    cpuPerRequest: average(runs, 'cpuPerRequest'),
    machinePerRequest: average(runs, 'machinePerRequest'),
    databasePerRequest: average(runs, 'databasePerRequest'),
    loadPerRequest: average(runs, 'loadPerRequest'),
  };
}

/**
 * The app and the baseline run side by side, each idle while the other is measured: every round
 * of an app route comes right before or after a round of the baseline (the order alternates), so
 * a machine that gets busier or quieter during the run moves both alike.
 */
async function measureEngine(engine: 'pglite' | 'postgres', databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-api-'));
  const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  let app = startServer({ port, dataDir, env });
  let baseline: ChildProcess | undefined;
  try {
    await waitForHealth(base);
    const accounts = await seed();
    const headers = accounts.owner;
    // PGlite's directory is one process's: the baseline gets a copy of the seeded data.
    const baselineDir = path.join(dataDir, 'baseline-pgdata');
    if (engine === 'pglite') {
      await stopServer(app);
      cpSync(path.join(dataDir, 'pgdata'), baselineDir, { recursive: true });
      app = startServer({ port, dataDir, env });
      await waitForHealth(base);
    }
    baseline = spawn(
      process.execPath,
      [...profileFlags(), '--import', 'tsx', path.join(root, 'scripts/bench-api-baseline.ts')],
      {
        env: { ...process.env, PORT: String(baselinePort), PGLITE_DIR: baselineDir, ...env },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    await waitForHealth(baselineBase);
    await cannon(`${base}/api/user`, headers, 3, app.pid!); // warm-up
    await cannon(`${baselineBase}/api/user`, headers, 3, baseline.pid!);

    const rounds: Record<string, { app: TRun[]; bare: TRun[] }> = {};
    for (const route of ROUTES) rounds[route] = { app: [], bare: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const route of ROUTES) {
        const [path, reader] = route.split('#');
        const measureApp = async () =>
          rounds[route]!.app.push(
            await cannon(
              `${base}${path}`,
              accounts[reader === 'admin' ? 'admin' : 'owner'],
              ROUND_SECONDS,
              app.pid!,
            ),
          );
        const measureBare = async () =>
          rounds[route]!.bare.push(
            await cannon(`${baselineBase}/api/user`, headers, ROUND_SECONDS, baseline!.pid!),
          );
        if (round % 2 === 0) {
          await measureApp();
          await measureBare();
        } else {
          await measureBare();
          await measureApp();
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const memory = residentMegabytes(app.pid!);
    const paired: Record<string, TPaired> = {};
    for (const route of ROUTES) {
      paired[route] = { app: combine(rounds[route]!.app), bare: combine(rounds[route]!.bare) };
    }
    return { paired, memory };
  } finally {
    await stopServer(app);
    if (baseline) await stopServer(baseline);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where one answer's CPU went, in µs: the whole machine (database + autocannon + the rest). */
function cpuShares(run: TRun): string {
  const rest =
    run.machinePerRequest - run.cpuPerRequest - run.databasePerRequest - run.loadPerRequest;
  return (
    `${run.machinePerRequest.toFixed(0)} (db ${run.databasePerRequest.toFixed(0)}` +
    ` + load ${run.loadPerRequest.toFixed(0)} + other ${rest.toFixed(0)})`
  );
}

await buildServer();
for (const engine of engines) {
  const { paired, memory } =
    engine === 'postgres'
      ? await withPostgresDatabase(POSTGRES_URL, 'memento_bench', (url) =>
          measureEngine(engine, url),
        )
      : await measureEngine(engine);
  console.log(
    `\n${engine}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s per route, ` +
      'each paired with a round of the bare lookups',
  );
  for (const [route, { app, bare }] of Object.entries(paired)) {
    const ratio = app.requestsPerSecond / bare.requestsPerSecond;
    const p99Ratio = app.p99 / Math.max(bare.p99, 1);
    console.log(
      `  ${route.padEnd(22)}${app.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${app.p99} ms` +
        `  | bare ${bare.requestsPerSecond.toFixed(0).padStart(6)} req/s  p99 ${bare.p99} ms` +
        `  → ${ratio.toFixed(2)}× throughput, ${p99Ratio.toFixed(2)}× p99` +
        `; CPU ${app.cpuPerRequest.toFixed(0)} vs ${bare.cpuPerRequest.toFixed(0)} µs an answer` +
        `; machine ${cpuShares(app)} vs ${cpuShares(bare)}` +
        (app.errors || bare.errors ? `  (${app.errors + bare.errors} errors!)` : ''),
    );
  }
  console.log(`  app resident memory after the run: ${memory} MB`);
}
