import { and, eq, getTableColumns, gt, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { jsonObject, jsonWholeRow } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { devices, sessions, users } from '../../db/schema';
import type { DeviceRow } from '../devices/devices.repository';
import { SESSION_USER_COLUMNS, type SessionUser } from '../users/users.repository';

const SESSION_COLUMNS = {
  method: sessions.method,
  secondFactorVerifiedAt: sessions.secondFactorVerifiedAt,
  createdAt: sessions.createdAt,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
};
type SessionFields = Pick<typeof sessions.$inferSelect, keyof typeof SESSION_COLUMNS>;

export interface TRequestContextRow {
  device: DeviceRow;
  session: SessionFields | null;
  user: SessionUser | null;
}

const DEVICE_COLUMNS = getTableColumns(devices);

/** Who a request's statement reads for: the session's user, both NULL without a live session. */
export interface TContextReader {
  userId: typeof sessions.userId;
  isAdmin: typeof users.isAdmin;
}

/**
 * Every /api request's lookups in one prepared statement (issue 15 item 1): the device by its id
 * and, when the cookie names one, the live session on that device with its user. Prepared once
 * per database handle, so neither the SQL nor PostgreSQL's plan is made again on each request.
 * Each of the three comes back as one JSON value rather than a field per column (decision 032).
 * `read` is a route's own read for the session's user, answered by the same statement (decision
 * 033); NULL for every other route.
 */
function requestContextQuery<T>(db: DbOrTx, read: SQL<T | null>) {
  return db
    .select({
      device: jsonWholeRow('devices', DEVICE_COLUMNS),
      session: jsonObject(SESSION_COLUMNS, sessions.idHash),
      user: jsonObject(SESSION_USER_COLUMNS, users.id),
      read,
    })
    .from(devices)
    .leftJoin(
      sessions,
      and(
        eq(sessions.idHash, sql.placeholder('idHash')),
        eq(sessions.deviceId, devices.id),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(eq(devices.id, sql.placeholder('deviceId')));
}

const requestContext = definePrepared((db) =>
  requestContextQuery(db, sql<null>`null`).prepare('request_context'),
);

/**
 * A route's read answered with the request's own lookups, in one statement (decision 033).
 * `value` reads for `reader`; `params` gives its placeholders' values from the request's query
 * string, or null when that does not validate (the route's own validation then answers).
 */
export interface TContextRead<T> {
  readonly statement: (db: DbOrTx) => TPrepared<T>;
  readonly params: (query: unknown) => Record<string, unknown> | null;
}
type TPrepared<T> = {
  execute(params: Record<string, unknown>): Promise<(TRequestContextRow & { read: T | null })[]>;
};

export function defineContextRead<T>(
  name: string,
  value: (db: DbOrTx, reader: TContextReader) => SQL<T | null>,
  params: (query: unknown) => Record<string, unknown> | null = () => ({}),
): TContextRead<T> {
  const reader = { userId: sessions.userId, isAdmin: users.isAdmin };
  return {
    statement: definePrepared((db) =>
      requestContextQuery(db, value(db, reader)).prepare(`request_context_${name}`),
    ),
    params,
  };
}

/** The values of the lookups' placeholders, after those of a route's read (`readParams`). */
export function requestContextParams(
  deviceId: string,
  sessionIdHash: string | null,
  readParams?: Record<string, unknown>,
): Record<string, unknown> {
  const params = { deviceId, idHash: sessionIdHash ?? '', now: new Date() };
  return readParams ? Object.assign({}, readParams, params) : params;
}

/** The request's lookups, with `read` (and its placeholders' values) when the route has one. */
export async function findRequestContext<T = null>(
  db: Db,
  deviceId: string,
  sessionIdHash: string | null,
  read?: { of: TContextRead<T>; params: Record<string, unknown> },
): Promise<(TRequestContextRow & { read: T | null }) | undefined> {
  const [row] = read
    ? await read.of
        .statement(db)
        .execute(requestContextParams(deviceId, sessionIdHash, read.params))
    : await requestContext(db).execute(requestContextParams(deviceId, sessionIdHash));
  return row;
}
