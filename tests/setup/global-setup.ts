import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildServerUnlessCurrent } from '../../scripts/build-server.mjs';
import {
  createPgliteDatabase,
  createPostgresDatabase,
  PGLITE_EXTENSIONS,
  shrinkNewCluster,
} from '../../src/server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    /** A migrated database on TEST_DATABASE_URL's server that test databases are copied from. */
    postgresTemplateName: string;
  }
}

async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Migrates one PostgreSQL database to copy each test database from: a copy (CREATE DATABASE …
 * TEMPLATE) takes a fraction of a second, running the migrations again several seconds, and
 * the PostgreSQL run makes a database for nearly every test file (docs/benchmarks.md, 'CI time').
 */
async function createPostgresTemplate(serverUrl: string) {
  const name = `memento_template_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = createPostgresDatabase(url.toString());
  try {
    await database.migrate();
  } finally {
    // A template is copied only while nobody is connected to it.
    await database.close();
  }
  return {
    name,
    remove: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * Migrates one PGlite database and saves it as a template, so that every test file opens its own
 * fresh, migrated database without migrating again.
 */
export default async function setup(project: TestProject) {
  // Tests that start a whole server run the built one, as `npm start` does: built now unless
  // dist/server is the build of these very sources.
  await buildServerUnlessCurrent();
  project.provide('postgresTemplateName', '');
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplatePath', '');
    const template = await createPostgresTemplate(process.env.TEST_DATABASE_URL);
    project.provide('postgresTemplateName', template.name);
    return template.remove;
  }
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const database = createPgliteDatabase(client);
  await database.migrate();
  // As the build's template is made: each file's copy then loads about a sixth faster.
  await shrinkNewCluster(client);
  const template = await client.dumpDataDir('none');
  await database.close();

  const directory = path.resolve('.tmp', `pglite-template-${process.pid}`);
  const removeTemplate = () => rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, 'template.tar');
  writeFileSync(file, Buffer.from(await template.arrayBuffer()));
  project.provide('pgliteTemplatePath', file);
  return removeTemplate;
}
