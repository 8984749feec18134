// Playwright's webServer command: the real production app (`node scripts/start.mjs`) on a fresh
// DATA_DIR under .tmp/ (E2E_DATA_DIR, chosen by playwright.config.ts so the tests can read the
// mail outbox) and, when TEST_DATABASE_URL is set, on a brand-new PostgreSQL database.
//
// The database is made here rather than in a Playwright globalSetup because Playwright starts
// its webServer before globalSetup runs, and the server must find its database at start-up.
// On SIGTERM (Playwright's graceful shutdown) the server is stopped first, then the database is
// dropped and the data directory removed, so a run leaves nothing behind.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const runId = randomBytes(4).toString('hex');
const dataDir = process.env.E2E_DATA_DIR ?? path.join(root, '.tmp', `e2e-${runId}`);
const adminUrl = process.env.TEST_DATABASE_URL;
const databaseName = `memento_e2e_${runId}`;

async function withAdminClient(work) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrlFor(name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function createDatabase() {
  await withAdminClient(async (client) => {
    await client.query(`CREATE DATABASE "${databaseName}"`);
    // Commits do not wait for their flush to disk: sessions see the same data, and no test
    // crashes PostgreSQL itself (tests/setup/database.ts).
    await client.query(`ALTER DATABASE "${databaseName}" SET synchronous_commit = off`);
  });
  console.log(`[e2e] created PostgreSQL database ${databaseName}`);
  return databaseUrlFor(databaseName);
}

async function dropDatabase() {
  await withAdminClient((client) =>
    client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
  );
  console.log(`[e2e] dropped PostgreSQL database ${databaseName}`);
}

mkdirSync(dataDir, { recursive: true });
const env = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production' };
delete env.DATABASE_URL;
// Mail goes to DATA_DIR/outbox, where the tests read it.
delete env.SMTP_URL;
if (adminUrl) env.DATABASE_URL = await createDatabase();

const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  env,
  stdio: 'inherit',
});

let isStopping = false;
let isCleaningUp = false;
async function cleanUpAndExit(code) {
  if (isCleaningUp) return;
  isCleaningUp = true;
  try {
    if (adminUrl) await dropDatabase();
  } catch (error) {
    console.error(`[e2e] could not drop database ${databaseName}:`, error);
    code ||= 1;
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}

server.on('exit', (code, signal) => {
  if (!isStopping) console.error(`[e2e] the server exited early (${signal ?? `code ${code}`})`);
  void cleanUpAndExit(isStopping ? 0 : (code ?? 1));
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    isStopping = true;
    // The whole process group usually receives the signal; forwarding it again is harmless.
    if (server.exitCode === null) server.kill(signal);
  });
}
