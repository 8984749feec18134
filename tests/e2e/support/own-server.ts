import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPgliteDirectory } from '../../../src/server/db/client';

/**
 * A server of the test's own (the real `npm start` on the built app), for a test that must stop
 * and restart it, needs an installation whose first account is its admin, or settings of its
 * own (`extraEnv`). On PostgreSQL when
 * TEST_DATABASE_URL is set (a database of its own), else PGlite under a fresh DATA_DIR.
 */
export interface OwnServer {
  url: string;
  dataDir: string;
  /** SIGKILL, as a crash or a power cut would, then the same server again on the same data. */
  crashAndRestart(): Promise<void>;
  /** Stops the server (as for an update), runs `during`, then starts it again on the same data. */
  whileStopped(during: () => Promise<void>): Promise<void>;
  /** Stops the server, runs one statement on its database (as an older version left it), restarts. */
  writeWhileStopped(sql: string, params: unknown[]): Promise<void>;
  /**
   * Puts an account on a plan straight in the database, as a test's set-up: on PostgreSQL while the
   * server runs; the embedded database has one process at a time, so there the server stops and
   * starts again around the write.
   */
  setTier(username: string, tier: 'free' | 'premium' | 'professional'): Promise<void>;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../../..');

async function waitForHealth(url: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const status = await fetch(`${url}/api/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the test's own server did not start at ${url}`);
}

/**
 * A port nobody listens on, from the operating system. A fixed one per worker collided with
 * another run of the browser tests on the same machine (CI runs one per database engine at once).
 */
export async function findFreePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The port (a free one unless given) is kept across `crashAndRestart`, so the pages open on it
 * reach the restarted server; `env` adds settings of the test's own.
 */
export async function startOwnServer(
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<OwnServer> {
  const port = options.port ?? (await findFreePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'memento-own-e2e-'));
  const url = `http://localhost:${port}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const databaseName = `memento_own_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE "${databaseName}"`);
    // As the run's own server's database (e2e-server.mjs): commits do not wait for the disk.
    await client.query(`ALTER DATABASE "${databaseName}" SET synchronous_commit = off`);
    await client.end();
    const parsed = new URL(adminUrl);
    parsed.pathname = `/${databaseName}`;
    databaseUrl = parsed.toString();
  }

  let child: ChildProcess;
  const launch = async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    };
    delete env.DATABASE_URL;
    delete env.ADMIN_EMAIL;
    delete env.SMTP_URL;
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    Object.assign(env, options.env);
    child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
    try {
      await waitForHealth(url);
    } catch (error) {
      // A server that never answered is not left running after the test.
      child.kill('SIGKILL');
      throw error;
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };

  /** One statement on the server's database (the embedded one only while the server is down). */
  const write = async (sql: string, params: unknown[]) => {
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(sql, params).finally(() => client.end());
    } else {
      const client = await openPgliteDirectory(path.join(dataDir, 'pgdata'));
      await client.query(sql, params).finally(() => client.close());
    }
  };

  const whileStopped = async (during: () => Promise<void>) => {
    await halt('SIGTERM');
    try {
      await during();
    } finally {
      await launch();
    }
  };
  const writeWhileStopped = (sql: string, params: unknown[]) =>
    whileStopped(() => write(sql, params));

  await launch();
  return {
    url,
    dataDir,
    async crashAndRestart() {
      await halt('SIGKILL');
      await launch();
    },
    whileStopped,
    writeWhileStopped,
    async setTier(username, tier) {
      const sql = 'update users set subscription_tier = $1 where username = $2';
      if (databaseUrl) await write(sql, [tier, username]);
      else await writeWhileStopped(sql, [tier, username]);
    },
    async stop() {
      await halt('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
      if (adminUrl) {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
        await client.end();
      }
    },
  };
}
