import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import {
  createPgliteDatabase,
  createPostgresDatabase,
  PGLITE_EXTENSIONS,
  type Database,
} from '../../src/server/db/client';

/**
 * A fresh, migrated database for one test file: a PGlite copy of the migrated template, or,
 * when TEST_DATABASE_URL is set, a new database on that PostgreSQL server, dropped afterwards.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const template = readFileSync(inject('pgliteTemplatePath'));
    const client = new PGlite({ loadDataDir: new Blob([template]), extensions: PGLITE_EXTENSIONS });
    await client.waitReady;
    return createPgliteDatabase(client);
  }

  return createServerTestDatabase(serverUrl);
}

/** The PostgreSQL server every machine here runs, for tests that need it. */
export const LOCAL_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A new, migrated database on a PostgreSQL server, dropped on close. `connectPort` lets the app
 * reach it through another port (a test's TCP proxy) while set-up and clean-up go direct;
 * `migrate` replaces the full migration (an upgrade test's older schema).
 */
export async function createServerTestDatabase(
  serverUrl: string,
  options: { connectPort?: number; migrate?: (database: Database) => Promise<void> } = {},
): Promise<Database & { url: string }> {
  const name = `memento_test_${randomBytes(6).toString('hex')}`;
  // A copy of the run's migrated template when it is on this server (global-setup.ts); the
  // migrations themselves otherwise, or the test's own (an upgrade from an older schema).
  const template = inject('postgresTemplateName');
  const copy = !options.migrate && template && serverUrl === process.env.TEST_DATABASE_URL;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(
    copy ? `create database ${name} template ${template}` : `create database ${name}`,
  );
  // A commit returns without waiting for its flush to disk: what every session sees is the same,
  // only a crash of PostgreSQL itself could lose the last moments, and none of the tests crashes
  // it. Each flush cost a few milliseconds a commit (docs/benchmarks.md, 'CI time').
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  if (!copy) {
    const direct = createPostgresDatabase(url.toString());
    await (options.migrate ? options.migrate(direct) : direct.migrate());
    await direct.close();
  }
  if (options.connectPort) url.port = String(options.connectPort);
  const database = createPostgresDatabase(url.toString());
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
