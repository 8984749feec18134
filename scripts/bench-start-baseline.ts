// The bare start of `npm run bench:memory`: Node, Fastify and the database engine opened as the
// server opens it (PGlite on DATA_DIR's data with the server's settings, or a PostgreSQL pool at
// DATABASE_URL), answering /api/health once a query has come back. Bundled as the server is
// (bundleLikeServer), so that its start is the least any start of the server can take on this
// machine at that moment: the server's own start reads against it.
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { openPgliteDirectory } from '../src/server/db/client';

async function openEngine(): Promise<{ close(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
    await pool.query('select 1');
    return { close: () => pool.end() };
  }
  const client = await openPgliteDirectory(path.resolve(process.env.DATA_DIR!, 'pgdata'));
  await client.query('select 1');
  return client;
}

const engine = await openEngine();
const app = Fastify();
app.get('/api/health', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => engine.close())
    .then(() => process.exit(0));
});
