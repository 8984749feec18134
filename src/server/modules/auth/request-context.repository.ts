import { and, eq, getTableColumns, gt, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { jsonObject, jsonWholeRow } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { devices, sessions, users } from '../../db/schema';
import type { DeviceRow } from '../devices/devices.repository';
import type { KeptAnswers } from './kept-answers';
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
function requestContextQuery<T>(
  db: DbOrTx,
  read: SQL<T | null>,
  readVersion: SQL<number | null> = sql`null`,
) {
  return db
    .select({
      device: jsonWholeRow('devices', DEVICE_COLUMNS),
      session: jsonObject(SESSION_COLUMNS, sessions.idHash),
      user: jsonObject(SESSION_USER_COLUMNS, users.id),
      read,
      readVersion,
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
  readonly name: string;
  readonly statement: (db: DbOrTx) => TPrepared<T>;
  readonly params: (query: unknown) => Record<string, unknown> | null;
  /** Set for a read whose answer may be sent again while the reader's version stays. */
  readonly kept: TKeptRead<T> | null;
}
/** A kept read (`defineKeptContextRead`): how much an answer counts against the budget. */
interface TKeptRead<T> {
  sizeOf(value: T): number;
}
type TContextRow<T> = TRequestContextRow & { read: T | null; readVersion: number | null };
type TPrepared<T> = {
  execute(params: Record<string, unknown>): Promise<TContextRow<T>[]>;
};

const READER: TContextReader = { userId: sessions.userId, isAdmin: users.isAdmin };

export function defineContextRead<T>(
  name: string,
  value: (db: DbOrTx, reader: TContextReader) => SQL<T | null>,
  params: (query: unknown) => Record<string, unknown> | null = () => ({}),
): TContextRead<T> {
  return {
    name,
    statement: definePrepared((db) =>
      requestContextQuery(db, value(db, READER)).prepare(`request_context_${name}`),
    ),
    params,
    kept: null,
  };
}

const LISTS_VERSION = sql<number | null>`${users.listsVersion}`;

/**
 * The lookups with the reader's lists version alone: one statement, asked instead of any kept
 * read's own when an answer is kept (decision 042).
 */
const requestContextWithListsVersion = definePrepared((db) =>
  requestContextQuery(db, sql<null>`null`, LISTS_VERSION).prepare('request_context_lists_version'),
);

/**
 * A read of one of the owner's lists, whose every change raises their lists version in the
 * database (`users.lists_version`, migration 0011), so that a server may keep what it last sent a
 * session and send it again without reading it (decision 042). With an answer kept, the request's
 * statement reads the lookups and the version alone; only when the user or the version differs is
 * the read asked for, with the version it was read at. `size` says how much an answer counts
 * against the server's budget (`KeptAnswers`), in characters or near enough.
 */
export function defineKeptContextRead<T>(
  name: string,
  value: (db: DbOrTx, reader: TContextReader) => SQL<T>,
  size: (value: T) => number,
): TContextRead<T> {
  return {
    name,
    statement: definePrepared((db) =>
      requestContextQuery(db, value(db, READER), LISTS_VERSION).prepare(`request_context_${name}`),
    ),
    params: () => ({}),
    kept: { sizeOf: size },
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

/**
 * The request's lookups, with `read` (and its placeholders' values) when the route has one. A kept
 * read (`defineKeptContextRead`) is answered from `kept` when the database says it is unchanged,
 * and what it reads is kept there for the session's next request.
 */
export async function findRequestContext<T = null>(
  db: Db,
  deviceId: string,
  sessionIdHash: string | null,
  read?: { of: TContextRead<T>; params: Record<string, unknown> },
  kept?: KeptAnswers,
): Promise<TContextRow<T> | undefined> {
  if (!read) {
    const [row] = await requestContext(db).execute(requestContextParams(deviceId, sessionIdHash));
    return row;
  }
  const keptRead = read.of.kept;
  const keptAnswer =
    keptRead && sessionIdHash ? kept?.find<T>(read.of.name, sessionIdHash) : undefined;
  if (keptRead && keptAnswer) {
    const [current] = await requestContextWithListsVersion(db).execute(
      requestContextParams(deviceId, sessionIdHash),
    );
    // No device, or no live session: nothing is read, and nothing kept is sent.
    if (!current?.user) return current;
    if (current.user.id === keptAnswer.userId && current.readVersion === keptAnswer.version) {
      return { ...current, read: keptAnswer.value };
    }
  }
  const [row] = await read.of
    .statement(db)
    .execute(requestContextParams(deviceId, sessionIdHash, read.params));
  if (!keptRead || !row?.user || row.read === null || row.readVersion === null) return row;
  if (!sessionIdHash || !kept) return row;
  kept.keep(read.of.name, sessionIdHash, {
    userId: row.user.id,
    version: row.readVersion,
    value: row.read,
    size: keptRead.sizeOf(row.read),
  });
  return row;
}
