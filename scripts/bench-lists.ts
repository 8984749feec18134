// `npm run bench:lists`: lists stay fast at scale. Seeds a fresh PostgreSQL database
// (BENCH_DATABASE_URL's server, else the local one) with 100,000 users (25,000 owners with 3
// recipients each), 25,000 devices, 1,000,000 video rows and 5,000,000 audit rows, then times the
// app's own statements for the owner's lists and the admin's lists as the routes run them, in the
// request's own statement (docs/decisions/033-one-statement-a-request.md), 200 runs each, one at a
// time, and prints p50/p95 against the goal (p95 ≤ 50 ms), with each list's plan (EXPLAIN ANALYZE)
// so index use can be seen: for a list read with the request, the plan of the route's own statement
// as PostgreSQL keeps it (generic); for the lookups and the admin's lists, of a query written here
// as theirs are. BENCH_SCALE=0.1 seeds a tenth for a quick run.
import { fillPlaceholders } from 'drizzle-orm';
import pg from 'pg';
import { createPostgresDatabase, type Db } from '../src/server/db/client';
import { AUDIT_PAGE_READ, AUDIT_PAGE_SIZE } from '../src/server/modules/audit/audit.repository';
import { ResponseCache } from '../src/server/modules/auth/response-cache';
import {
  findRequestContext,
  requestContextParams,
  type ContextRead,
} from '../src/server/modules/auth/request-context.repository';
import { RECIPIENTS_WITH_VIDEO_COUNTS_READ } from '../src/server/modules/recipients/recipients.repository';
import { OWN_VIDEO_INDEX_READ } from '../src/server/modules/videos/videos.repository';
import { withPostgresDatabase } from './bench-support';
import {
  listDeviceAssociationsPage,
  listUsersPage,
} from '../src/server/modules/admin/admin.repository';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const OWNERS = Math.round(25_000 * SCALE);
const VIDEOS_PER_OWNER = 40;
const AUDIT_ROWS_PER_OWNER = 200;
const RUNS = 200;
const GOAL_MS = 50;

const SEED = [
  `insert into users (username, first_name, last_name, email, is_primary, category, tos_accepted,
     onboarding_completed_at, created_at)
   select 'owner' || g, 'Owner', 'Number ' || g, 'owner' || g || '@example.test', true, 'primary',
     true, now(), now() - make_interval(mins => g)
   from generate_series(1, ${OWNERS}) g`,
  `insert into users (username, first_name, last_name, email, category, created_by_id)
   select 'r' || o.id || '_' || k, 'Recipient', 'Number ' || k, 'r' || o.id || '_' || k || '@example.test',
     (array['next_of_kin', 'family', 'friend'])[k], o.id
   from users o cross join generate_series(1, 3) k where o.category = 'primary'`,
  `insert into devices (user_id, fingerprint_hash, is_primary, device_name)
   select id, md5(id::text), true, 'Chrome on Linux' from users where category = 'primary'`,
  `create temp table owner_recipients as
   select created_by_id as owner_id, array_agg(id order by id) as ids
   from users where created_by_id is not null group by created_by_id`,
  // A million videos counted as migration 0009 counts an installation's existing ones, in one
  // statement, rather than by the trigger a million times over.
  'alter table videos disable trigger videos_recipient_count',
  `insert into videos (id, creator_id, recipient_id, byte_size, duration_ms, mime_type, created_at)
   select gen_random_uuid(), owner_id, ids[1 + n % 3], 25000000, 60000, 'video/webm',
     now() - make_interval(hours => n)
   from owner_recipients cross join generate_series(1, ${VIDEOS_PER_OWNER}) n`,
  `update users set video_count = counted.n
   from (select recipient_id, count(*)::int as n from videos group by recipient_id) as counted
   where users.id = counted.recipient_id`,
  'alter table videos enable trigger videos_recipient_count',
  'vacuum users',
  // Worded as insertAuditRow words a sign-in; the trigger of migration 0010 makes each entry.
  `insert into audit_logs (event_type, user_id, username, timestamp, ip_address, successful, details, summary)
   select 'login', o.id, o.username, now() - make_interval(mins => n * 37, secs => o.id),
     '203.0.113.7', true,
     '{"method":"username_password","userAgent":"Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36"}',
     'with username and password · Chrome on Linux'
   from users o cross join generate_series(1, ${AUDIT_ROWS_PER_OWNER}) n
   where o.category = 'primary'`,
  'analyze',
];

/**
 * The part of a plan that reads the list: in a route's own statement, whose top is the request's
 * lookups, each InitPlan or SubPlan with what is under it; otherwise the top lines.
 */
function listPart(plan: string[]): string[] {
  const indent = (line: string) => line.length - line.trimStart().length;
  const part: string[] = [];
  let depth = -1;
  for (const line of plan) {
    if (/^\s*(InitPlan|SubPlan)/.test(line)) depth = indent(line);
    else if (depth >= 0 && indent(line) <= depth) depth = -1;
    if (depth >= 0) part.push(line);
  }
  return part.length > 0 ? part : plan.slice(0, 10);
}

async function timed<T>(work: () => Promise<T>) {
  const durations: number[] = [];
  let result: T | undefined;
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    result = await work();
    durations.push(performance.now() - started);
  }
  durations.sort((a, b) => a - b);
  const at = (q: number) =>
    durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!;
  return { p50: at(0.5), p95: at(0.95), result };
}

interface TBenchUser {
  id: number;
  device_id: string;
}

/** A list's name, the read as the route makes it, and the plan of its statement. */
type TTimedList = [string, () => Promise<unknown[]>, () => Promise<string[]>];

/** Seeds the database, then signs in an owner, and owner1 made an admin, each on their device. */
async function seedAndSignIn(client: pg.Client): Promise<{ owner: TBenchUser; admin: TBenchUser }> {
  const seeded = performance.now();
  for (const statement of SEED) await client.query(statement);
  const counts = await client.query(
    `select (select count(*) from users) users, (select count(*) from videos) videos,
          (select count(*) from audit_logs) audit_rows`,
  );
  console.log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s:`, counts.rows[0]);

  const { rows } = await client.query(
    `select u.id, d.id as device_id from users u join devices d on d.user_id = u.id
   where u.username = $1`,
    [`owner${Math.ceil(OWNERS / 2)}`],
  );
  const owner = rows[0] as TBenchUser;
  // The routes read their lists in the request's own statement, for a session: the owner's, and
  // an admin's on another owner's device.
  const admin = (
    await client.query(
      `update users set is_admin = true where username = 'owner1'
       returning id, (select id from devices where user_id = users.id) as device_id`,
    )
  ).rows[0] as TBenchUser;
  for (const [who, idHash] of [
    [owner, 'bench-owner-session'],
    [admin, 'bench-admin-session'],
  ] as const) {
    await client.query(
      `insert into sessions (id_hash, user_id, device_id, expires_at)
       values ($1, $2, $3, now() + interval '1 day')`,
      [idHash, who.id, who.device_id],
    );
  }
  return { owner, admin };
}

/** A list read in the request's own statement, for a session, as the route reads it. */
function routeReader(db: Db) {
  // A read the database writes as JSON text is counted as the client reads it.
  return async (
    who: { device_id: string },
    idHash: string,
    of: ContextRead<unknown>,
    params: Record<string, unknown> = of.params({})!,
    kept?: ResponseCache,
  ): Promise<unknown[]> => {
    const read = (
      await findRequestContext(db, who.device_id, idHash, new Date(), { of, params }, kept)
    )?.read;
    return typeof read === 'string' ? (JSON.parse(read) as unknown[]) : ((read ?? []) as unknown[]);
  };
}

/** The plans of a query written here and of a route's own statement. */
function planReaders(db: Db, client: pg.Client, admin: TBenchUser) {
  /** The plan of a statement: a query written here, or the EXECUTE of a prepared one. */
  const explainSql = (text: string, params: unknown[]) => async (): Promise<string[]> => {
    const plan = await client.query(`explain (analyze, costs off, timing off) ${text}`, params);
    return plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']!);
  };
  /**
   * The plan PostgreSQL keeps for a route's own statement, as the app runs it: the statement's
   * SQL, prepared, with a generic plan, executed with the request's values. With `check`, of the
   * statement asked instead while an answer is kept, for an answer kept at a snapshot taken now.
   */
  const explainRead =
    (
      who: { device_id: string },
      idHash: string,
      of: ContextRead<unknown>,
      params = of.params({})!,
      check = false,
    ) =>
    async (): Promise<string[]> => {
      const prepared = check
        ? of.cached!.check(db, { isAdmin: who === admin, params })
        : of.statement(db);
      const statement = prepared as unknown as { queryString: string; params: unknown[] };
      const cachedVersion = check
        ? (await client.query<{ now: string }>('select pg_current_snapshot()::text as now'))
            .rows[0]!.now
        : undefined;
      const values = requestContextParams(who.device_id, idHash, new Date(), {
        ...params,
        cachedVersion,
      });
      const literals = fillPlaceholders(statement.params, values).map((value) =>
        value === null
          ? 'null'
          : client.escapeLiteral(value instanceof Date ? value.toISOString() : String(value)),
      );
      await client.query('set plan_cache_mode = force_generic_plan');
      await client.query(`prepare bench_route as ${statement.queryString}`);
      try {
        return await explainSql(`execute bench_route(${literals.join(', ')})`, [])();
      } finally {
        await client.query('deallocate bench_route');
        await client.query('reset plan_cache_mode');
      }
    };
  return { explainSql, explainRead };
}

/** The owner's lists and the admin's, each as the route reads it and with its plan. */
function listsToTime(
  db: Db,
  owner: TBenchUser,
  admin: TBenchUser,
  reads: ReturnType<typeof planReaders>,
): TTimedList[] {
  const auditPage = { filterUserId: null, limit: AUDIT_PAGE_SIZE };
  const kept = new ResponseCache(10_000_000);
  const asRouteReads = routeReader(db);
  const { explainSql, explainRead } = reads;
  const lists: TTimedList[] = [
    [
      'owner: request lookups',
      async () => [await findRequestContext(db, owner.device_id, 'no-such-session', new Date())],
      explainSql(
        'select * from devices d left join sessions s on s.id_hash = $2 and s.device_id = d.id left join users u on u.id = s.user_id where d.id = $1',
        [owner.device_id, 'no-such-session'],
      ),
    ],
    [
      'owner: videos',
      () => asRouteReads(owner, 'bench-owner-session', OWN_VIDEO_INDEX_READ),
      explainRead(owner, 'bench-owner-session', OWN_VIDEO_INDEX_READ),
    ],
    [
      'owner: recipients',
      () => asRouteReads(owner, 'bench-owner-session', RECIPIENTS_WITH_VIDEO_COUNTS_READ),
      explainRead(owner, 'bench-owner-session', RECIPIENTS_WITH_VIDEO_COUNTS_READ),
    ],
    [
      'owner: audit log',
      () => asRouteReads(owner, 'bench-owner-session', AUDIT_PAGE_READ, auditPage),
      explainRead(owner, 'bench-owner-session', AUDIT_PAGE_READ, auditPage),
    ],
    [
      'admin: audit log, all',
      () => asRouteReads(admin, 'bench-admin-session', AUDIT_PAGE_READ, auditPage),
      explainRead(admin, 'bench-admin-session', AUDIT_PAGE_READ, auditPage),
    ],
    // The same pages sent again while kept: the statement asked is the lookups and whether an
    // entry in the page's scope was written since.
    [
      'owner: audit log, kept',
      () => asRouteReads(owner, 'bench-owner-session', AUDIT_PAGE_READ, auditPage, kept),
      explainRead(owner, 'bench-owner-session', AUDIT_PAGE_READ, auditPage, true),
    ],
    [
      'admin: audit log, kept',
      () => asRouteReads(admin, 'bench-admin-session', AUDIT_PAGE_READ, auditPage, kept),
      explainRead(admin, 'bench-admin-session', AUDIT_PAGE_READ, auditPage, true),
    ],
    [
      'admin: users, a page',
      async () => (await listUsersPage(db, { limit: 50, afterId: Math.floor(OWNERS * 2) })).rows,
      explainSql(
        `select u.*, (select count(*) from users d where d.created_by_id = u.id) from users u
       where u.id > $1 order by u.id limit 51`,
        [Math.floor(OWNERS * 2)],
      ),
    ],
    [
      'admin: devices, page 1',
      async () => (await listDeviceAssociationsPage(db, { limit: 50, now: new Date() })).rows,
      explainSql(
        `select d.id from devices d order by d.created_at desc nulls last, d.id limit 52`,
        [],
      ),
    ],
    [
      'admin: users, a search',
      async () => (await listUsersPage(db, { limit: 50, search: 'number 1249' })).rows,
      explainSql(
        `select u.* from users u
         where (u.username || ' ' || u.email || ' ' || u.first_name || ' ' || u.last_name) ilike $1
           and (u.username || ' ' || u.email || ' ' || u.first_name || ' ' || u.last_name) ilike $2
         order by u.id limit 51`,
        ['%number%', '%1249%'],
      ),
    ],
  ];
  return lists;
}

/** Times each list, one run at a time, and prints it against the goal with its plan. */
async function timeEach(lists: TTimedList[]) {
  console.log(`\n${RUNS} runs each, one at a time; goal p95 ≤ ${GOAL_MS} ms`);
  for (const [label, work, explain] of lists) {
    const { p50, p95, result } = await timed(work);
    const verdict = p95 <= GOAL_MS ? 'ok' : 'OVER';
    console.log(
      `${label.padEnd(24)} p50 ${p50.toFixed(2).padStart(6)} ms  p95 ${p95.toFixed(2).padStart(6)} ms  ${String(result?.length ?? 0).padStart(4)} rows  ${verdict}`,
    );
    for (const line of listPart(await explain())) console.log(`    ${line}`);
  }
}

await withPostgresDatabase(SERVER_URL, 'memento_scale', async (url) => {
  const database = createPostgresDatabase(url);
  const client = new pg.Client({ connectionString: url });
  try {
    await database.migrate();
    await client.connect();
    const { owner, admin } = await seedAndSignIn(client);
    const db: Db = database.db;
    await timeEach(listsToTime(db, owner, admin, planReaders(db, client, admin)));
  } finally {
    await client.end().catch(() => undefined);
    await database.close();
  }
});
