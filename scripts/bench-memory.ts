// `npm run bench:memory`: the built server's resident memory at idle, after one registration and a
// few page loads, on PGlite (a first start on a new DATA_DIR, then a restart on the same one) and
// on PostgreSQL (BENCH_DATABASE_URL or the local server). Goals: PGlite ≤ 200 MB, PostgreSQL
// ≤ 150 MB. The server runs as `npm start` runs it. It also prints how long each start took to
// answer /api/health (goal 1 s on either engine), beside the bare start of Node, Fastify and the
// same engine on the same data in the same run (the median of three;
// scripts/bench-api-baseline.ts): a start's time on this shared machine drifts with the machine,
// and the bare start says how fast the machine was.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, bundleLikeServer } from './build-server.mjs';
import {
  residentMegabytes,
  root,
  signUpOwner,
  startServer,
  stopServer,
  waitForHealth,
  withPostgresDatabase,
} from './bench-support';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IDLE_MS = 5000;
const BARE_STARTS = 3;
const BARE_ENTRY = path.join(root, '.tmp/bench-api-baseline.mjs');
const port = 5700 + (process.pid % 100);
const base = `http://127.0.0.1:${port}`;

/** Starts the server, signs up (first time only), loads a few pages, idles, reads its memory. */
async function idleMemory(options: {
  dataDir: string;
  env?: Record<string, string>;
  signUp: boolean;
}): Promise<{ megabytes: number; answeredMs: number }> {
  const started = performance.now();
  const server = startServer({ port, dataDir: options.dataDir, env: options.env });
  try {
    await waitForHealth(base);
    const answeredMs = Math.round(performance.now() - started);
    if (options.signUp) await signUpOwner(base);
    for (const page of ['/', '/auth', '/features', '/api/health']) await fetch(`${base}${page}`);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { megabytes: residentMegabytes(server.pid!), answeredMs };
  } finally {
    await stopServer(server);
  }
}

/** The median time the bare baseline took to answer, over BARE_STARTS starts on the same data. */
async function bareStartMs(options: { dataDir: string; env?: Record<string, string> }) {
  const env = { PGLITE_DIR: path.join(options.dataDir, 'pgdata'), ...options.env };
  const times: number[] = [];
  for (let i = 0; i < BARE_STARTS; i += 1) {
    const started = performance.now();
    const bare = startServer({ port, dataDir: options.dataDir, env, entry: BARE_ENTRY });
    try {
      await waitForHealth(base);
      times.push(Math.round(performance.now() - started));
    } finally {
      await stopServer(bare);
    }
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function line(
  label: string,
  run: { megabytes: number; answeredMs: number },
  goal: number,
  bareMs: number,
) {
  console.log(
    `${label.padEnd(20)} ${run.megabytes} MB resident at idle (goal <= ${goal} MB), answered ` +
      `${run.answeredMs} ms after start (bare Node, Fastify and the engine: ${bareMs} ms)`,
  );
}

async function main() {
  await buildServer();
  await bundleLikeServer('scripts/bench-api-baseline.ts', BARE_ENTRY);
  const work = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-memory-'));
  try {
    const dataDir = path.join(work, 'pglite');
    const first = await idleMemory({ dataDir, signUp: true });
    const restart = await idleMemory({ dataDir, signUp: false });
    const pgliteBareMs = await bareStartMs({ dataDir });
    line('PGlite, first start:', first, 200, pgliteBareMs);
    line('PGlite, restart:', restart, 200, pgliteBareMs);
    await withPostgresDatabase(POSTGRES_URL, 'bench_memory', async (url) => {
      const options = { dataDir: path.join(work, 'postgres'), env: { DATABASE_URL: url } };
      const postgres = await idleMemory({ ...options, signUp: true });
      line('PostgreSQL:', postgres, 150, await bareStartMs(options));
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
