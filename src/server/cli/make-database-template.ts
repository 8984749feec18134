// `node dist/server/make-database-template.js <directory>`: run by the server build. Makes a new
// PGlite cluster at <directory> with every migration applied, for a first start to copy instead
// of running initdb and the migrations itself.
import { rmSync } from 'node:fs';
import {
  createPgliteDatabase,
  createPgliteDirectory,
  openPgliteDirectory,
  shrinkNewCluster,
} from '../db/client';

const directory = process.argv[2];
if (!directory) {
  console.error('Usage: node dist/server/make-database-template.js <directory>');
  process.exit(2);
}
rmSync(directory, { recursive: true, force: true });
await createPgliteDirectory(directory);
const client = await openPgliteDirectory(directory);
const database = createPgliteDatabase(client);
await database.migrate();
await shrinkNewCluster(client);
await database.close();
