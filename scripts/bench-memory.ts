// `npm run bench:memory` (issue 15 item 6): the built server's resident memory at idle, after one
// registration and a few page loads, on PGlite (a first start on a new DATA_DIR, then a restart on
// the same one) and on PostgreSQL (BENCH_DATABASE_URL or the local server). Goals: PGlite ≤ 200 MB,
// PostgreSQL ≤ 150 MB. The server runs as `npm start` runs it (decision 027). It also prints how
// long each start took to answer /api/health (issue 15 item 7: goal 1 s on either engine).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from './build-server.mjs';
import {
  residentMegabytes,
  signUpOwner,
  startServer,
  stopServer,
  waitForHealth,
  withPostgresDatabase,
} from './bench-support';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IDLE_MS = 5000;
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

async function main() {
  await buildServer();
  const work = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-memory-'));
  try {
    const dataDir = path.join(work, 'pglite');
    const first = await idleMemory({ dataDir, signUp: true });
    const restart = await idleMemory({ dataDir, signUp: false });
    const line = (label: string, run: { megabytes: number; answeredMs: number }, goal: number) =>
      console.log(
        `${label.padEnd(20)} ${run.megabytes} MB resident at idle (goal <= ${goal} MB), answered ${run.answeredMs} ms after start`,
      );
    line('PGlite, first start:', first, 200);
    line('PGlite, restart:', restart, 200);
    const postgres = await withPostgresDatabase(POSTGRES_URL, 'bench_memory', (url) =>
      idleMemory({
        dataDir: path.join(work, 'postgres'),
        env: { DATABASE_URL: url },
        signUp: true,
      }),
    );
    line('PostgreSQL:', postgres, 150);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
