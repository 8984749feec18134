// The bare baseline of `npm run bench:api`: Fastify and nothing else, doing the two indexed
// lookups every signed-in request needs (the device by id; the live session joined to its user)
// with prepared statements on the same engine as the app, and answering with the user as JSON.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { openPgliteDirectory } from '../src/server/db/client';
import { preparedPgliteQuery } from '../src/server/db/pglite-statements';

const DEVICE_SQL = 'select * from devices where id = $1';
const SESSION_SQL = `select s.expires_at, u.id, u.username, u.first_name, u.last_name, u.email, u.role
  from sessions s join users u on u.id = s.user_id
  where s.id_hash = $1 and s.device_id = $2 and s.expires_at > now()`;

type Query = (name: string, text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

async function connect(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return async (name, text, values) => (await pool.query({ name, text, values })).rows;
  }
  // The engine as the app runs it: the same settings, V8's baseline compiler only, and named
  // prepared statements as the app's.
  const prepared = preparedPgliteQuery(await openPgliteDirectory(process.env.PGLITE_DIR!));
  return async (_name, text, values) =>
    (await prepared<Record<string, unknown>>(text, values)).rows;
}

const query = await connect();
await query('ready', 'select 1', []);
const app = Fastify();
app.get('/api/health', async () => ({ ok: true }));
app.get('/api/user', async (request, reply) => {
  const [device] = await query('device', DEVICE_SQL, [request.headers['x-device-id']]);
  const cookie = /memento_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1] ?? '';
  const token = decodeURIComponent(cookie).replace(/\.[^.]*$/, '');
  const idHash = createHash('sha256').update(token).digest('hex');
  const [user] = await query('session', SESSION_SQL, [idHash, device?.id]);
  if (!user) return reply.code(401).send({ message: 'Not signed in' });
  return user;
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// A clean exit on SIGTERM, so that a CPU profile (BENCH_PROFILE_DIR) is written.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
