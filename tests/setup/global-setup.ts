import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { buildServerUnlessCurrent } from '../../scripts/build-server.mjs';
import {
  createPgliteDatabase,
  PGLITE_EXTENSIONS,
  shrinkNewCluster,
} from '../../src/server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
  }
}

/**
 * Migrates one PGlite database and saves it as a template, so that every test file opens its own
 * fresh, migrated database without migrating again.
 */
export default async function setup(project: TestProject) {
  // Tests that start a whole server run the built one, as `npm start` does: built now unless
  // dist/server is the build of these very sources.
  await buildServerUnlessCurrent();
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplatePath', '');
    return;
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
