import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { copyPrivateTree } from '../lib/data-dir';
import { PROJECT_ROOT } from '../lib/paths';
import { preparedPgliteQuery } from './pglite-statements';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle: repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Where connection failures that belong to no request are reported (a dropped idle client). */
  onBackgroundError(listener: (error: Error) => void): void;
}

const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, 'drizzle');

const ARRAY_ROWS = { rowMode: 'array' } as const;
const OBJECT_ROWS = { rowMode: 'object' } as const;

/**
 * The PGlite instance as Drizzle sees it:
 * - Drizzle hands PGlite its own parsers with every query (timestamps, dates and intervals as
 *   text, which Drizzle then reads itself), and PGlite merges them into its table of several
 *   hundred parsers each time, a cost on every query. The same parsers go into the
 *   instance's own table instead, and the query goes without; nothing but Drizzle queries this
 *   instance, so every answer is read as before.
 * - A query text asked again runs as a named prepared statement (pglite-statements.ts): parsed
 *   and planned once, then one exchange with PostgreSQL a call.
 */
function forDrizzle(client: PGlite): PGlite {
  const query = preparedPgliteQuery(client);
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') {
        return (text: string, params?: unknown[], options?: QueryOptions) => {
          if (!options?.parsers) return query(text, params, options);
          Object.assign(target.parsers, options.parsers);
          return query(text, params, options.rowMode === 'array' ? ARRAY_ROWS : OBJECT_ROWS);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Wraps an open PGlite instance (tests pass one made from a migrated template). */
export function createPgliteDatabase(client: PGlite): Database {
  const db = drizzlePglite(forDrizzle(client), { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
    onBackgroundError: () => undefined,
  };
}

/**
 * How long a request may wait for a connection, and for one query's answer, before it is told
 * the database is unavailable: a cut network must give a prompt 503, never a hanging request.
 */
const CONNECT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 15_000;

function ignoreLentClientError() {}

export function createPostgresDatabase(connectionString: string): Database {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  // node-postgres emits 'error' on the pool when an idle client loses its connection (a database
  // restart, a failover, a network blip). Unheard, that event ends the process; heard, the pool
  // drops the client and opens a fresh one for the next query.
  let report: (error: Error) => void = (error) =>
    console.warn(`database connection lost: ${error.message}`);
  pool.on('error', (error) => report(error));
  // The pool listens to a client only while it is idle. A client lent out (a transaction, between
  // two of its statements or during one) that loses its connection emits 'error' too, and
  // unheard that ends the process. Its own query already fails with the error, and the pool drops
  // the client when it comes back unqueryable, so the listener has nothing more to do.
  pool.on('connect', (client) => client.on('error', ignoreLentClientError));
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => pool.end(),
    onBackgroundError: (listener) => {
      report = listener;
    },
  };
}

/**
 * PGlite runs PostgreSQL in this one process for one user at a time, so the server defaults sized
 * for a shared machine (128 MB of shared buffers) only hold memory: these fit a family's or a
 * care home's data and keep the whole server near 200 MB.
 */
const PGLITE_SETTINGS = {
  shared_buffers: '16MB',
  work_mem: '4MB',
  maintenance_work_mem: '16MB',
  temp_buffers: '1MB',
  wal_buffers: '1MB',
};
/** PostgreSQL extensions the migrations create; PGlite loads them only when told to. */
export const PGLITE_EXTENSIONS = { pg_trgm };

export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

/**
 * A new cluster made smaller for copying: the app uses the `postgres` database
 * only, so `template0` (a pristine copy kept for CREATE DATABASE … TEMPLATE template0, 300 files)
 * goes; `template1` stays, as PostgreSQL's tools expect it. The write-ahead log then moves to a
 * new segment and a checkpoint deletes the old one (`wal_recycle` off: recycled, it would keep its
 * old records), so the one segment left is zeros past the checkpoint's page. Used for the
 * build's template (a first start copies it, leaving those zeros as a hole) and the API tests'.
 */
export async function shrinkNewCluster(client: PGlite): Promise<void> {
  // One statement a call: DROP DATABASE refuses to run inside a string of several.
  await client.exec("UPDATE pg_database SET datistemplate = false WHERE datname = 'template0'");
  await client.exec('DROP DATABASE template0');
  await client.exec('SET wal_recycle = off');
  await client.query('SELECT pg_switch_wal()');
  await client.exec('CHECKPOINT');
}

/**
 * A new, migrated PGlite cluster that the server build makes (scripts/build-server.mjs): a first
 * start copies it rather than running initdb and every migration.
 */
const DATABASE_TEMPLATE = path.join(PROJECT_ROOT, 'dist/pgdata-template');

/**
 * Creates a new PGlite data directory in a short-lived child process. initdb grows PGlite's
 * WebAssembly memory to several hundred megabytes, which a process never gives back; done in a
 * child, the server itself only ever opens an existing directory.
 */
export async function createPgliteDirectory(directory: string): Promise<void> {
  const script = [
    "const { PGlite } = await import('@electric-sql/pglite');",
    'const client = new PGlite(process.argv[1]);',
    'await client.waitReady;',
    'await client.close();',
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, directory], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`Could not create the database in ${directory}: ${stderr}`);
}

/**
 * A data directory for a first start: a copy of the build's template when there is one (the
 * migrations still run after, for any the template predates), else a new cluster. The copy is
 * made beside the directory and moved into place whole, so a start cut short never leaves a
 * half-copied cluster that the next start would take for a database.
 */
async function initialisePgliteDirectory(directory: string): Promise<void> {
  if (existsSync(path.join(directory, 'PG_VERSION'))) return;
  if (!existsSync(path.join(DATABASE_TEMPLATE, 'PG_VERSION'))) {
    await createPgliteDirectory(directory);
    return;
  }
  const partial = `${directory}.partial`;
  rmSync(partial, { recursive: true, force: true });
  copyPrivateTree(DATABASE_TEMPLATE, partial);
  rmSync(directory, { recursive: true, force: true });
  renameSync(partial, directory);
}

/**
 * V8 compiles PGlite's WebAssembly twice: at once with its baseline compiler (Liftoff), then the
 * busy functions again with its optimising one, keeping both. Liftoff alone holds much less
 * compiled code at no loss of throughput (docs/benchmarks.md, 'Embedded database memory'):
 * the time goes to the server's
 * JavaScript and the socket, not to PostgreSQL's own code. Set
 * before the module is compiled, so only PGlite's server process is affected.
 */
function keepWasmCodeSmall() {
  v8.setFlagsFromString('--liftoff-only');
}

/** PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<Database> {
  if (options.databaseUrl) return createPostgresDatabase(options.databaseUrl);
  const directory = path.resolve(options.dataDir, 'pgdata');
  mkdirSync(directory, { recursive: true });
  await initialisePgliteDirectory(directory);
  return createPgliteDatabase(await openPgliteDirectory(directory));
}

/** An existing PGlite data directory, opened as the server opens it (bench:api's baseline too). */
export async function openPgliteDirectory(directory: string): Promise<PGlite> {
  keepWasmCodeSmall();
  const client = new PGlite(directory, {
    startParams: PGLITE_START_PARAMS,
    extensions: PGLITE_EXTENSIONS,
  });
  await client.waitReady;
  return client;
}
