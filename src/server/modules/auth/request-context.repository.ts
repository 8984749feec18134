import { and, eq, getTableColumns, gt, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { jsonObject, jsonWholeRow } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { devices, sessions, users } from '../../db/schema';
import type { DeviceRow } from '../devices/devices.repository';
import type { ResponseCache } from './response-cache';
import { SESSION_USER_COLUMNS, type SessionUser } from '../users/users.repository';

const SESSION_COLUMNS = {
  method: sessions.method,
  secondFactorVerifiedAt: sessions.secondFactorVerifiedAt,
  createdAt: sessions.createdAt,
  lastSeenAt: sessions.lastSeenAt,
  expiresAt: sessions.expiresAt,
};
type SessionFields = Pick<typeof sessions.$inferSelect, keyof typeof SESSION_COLUMNS>;

export interface RequestContextRow {
  device: DeviceRow;
  session: SessionFields | null;
  user: SessionUser | null;
}

const DEVICE_COLUMNS = getTableColumns(devices);

/** Who a request's statement reads for: the session's user, both NULL without a live session. */
export interface ContextReader {
  userId: typeof sessions.userId;
  isAdmin: typeof users.isAdmin;
}

/**
 * Every /api request's lookups in one prepared statement: the device by its id
 * and, when the cookie names one, the live session on that device with its user. Prepared once
 * per database handle, so neither the SQL nor PostgreSQL's plan is made again on each request.
 * Each of the three comes back as one JSON value rather than a field per column.
 * `read` is a route's own read for the session's user, answered by the same statement, so a
 * request costs one round trip; NULL for every other route.
 */
function requestContextQuery<T>(
  db: DbOrTx,
  read: SQL<T | null>,
  readVersion: SQL<number | string | null> = sql`null`,
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
 * A route's read answered with the request's own lookups, in one statement.
 * `value` reads for `reader`; `params` gives its placeholders' values from the request's query
 * string, or null when that does not validate (the route's own validation then answers).
 */
export interface ContextRead<T> {
  readonly name: string;
  readonly statement: (db: DbOrTx) => PreparedStatement<T>;
  readonly params: (query: unknown) => Record<string, unknown> | null;
  /** Set for a read whose answer may be sent again while the reader's version stays. */
  readonly cached: CachedRead<T> | null;
}
/** A cached read (`defineCachedContextRead`): how much an answer counts, how it is checked. */
interface CachedRead<T> extends Pick<CachedVersion, 'check' | 'unchangedAtAll'> {
  sizeOf(value: T): number;
}
/** What a cached read's answer is read at, and how a server asks whether it still stands. */
export interface CachedVersion {
  /** Read with the answer: the version it stands at. */
  readonly version: SQL<number | string>;
  /**
   * The prepared lookups whose `readVersion` equals the cached version while the answer stands, for
   * an answer cached for a reader with that admin flag and the read's placeholders.
   */
  readonly check: (
    db: DbOrTx,
    cached: { isAdmin: boolean; params: Record<string, unknown> },
  ) => PreparedStatement<null>;
  /**
   * A cheaper statement asked before `check`: the lookups with `cachedVersion` answered back only
   * while nothing at all has changed in the database, else NULL, and `check` is asked after it.
   */
  readonly unchangedAtAll?: (db: DbOrTx) => PreparedStatement<null>;
}
type ContextRow<T> = RequestContextRow & { read: T | null; readVersion: number | string | null };
type PreparedStatement<T> = {
  execute(params: Record<string, unknown>): Promise<ContextRow<T>[]>;
};

const READER: ContextReader = { userId: sessions.userId, isAdmin: users.isAdmin };

export function defineContextRead<T>(
  name: string,
  value: (db: DbOrTx, reader: ContextReader) => SQL<T | null>,
  params: (query: unknown) => Record<string, unknown> | null = () => ({}),
): ContextRead<T> {
  return {
    name,
    statement: definePrepared((db) =>
      requestContextQuery(db, value(db, READER)).prepare(`request_context_${name}`),
    ),
    params,
    cached: null,
  };
}

/**
 * The lookups with `version` as the reader's version: the statement a cached read asks instead of
 * its own while an answer is cached, prepared as `request_context_${name}`.
 */
export function defineCachedVersionCheck(
  name: string,
  version: (db: DbOrTx, reader: ContextReader) => SQL<number | string | null>,
): (db: DbOrTx) => PreparedStatement<null> {
  return definePrepared((db) =>
    requestContextQuery(db, sql<null>`null`, version(db, READER)).prepare(
      `request_context_${name}`,
    ),
  );
}

/**
 * The owner's lists version (`users.lists_version`, migration 0011), raised by the database on
 * every change to their videos or recipients lists. One shared statement checks it.
 */
const listsVersion = sql<number>`${users.listsVersion}`;
const LISTS_VERSION: CachedVersion = {
  version: listsVersion,
  check: defineCachedVersionCheck('lists_version', () => listsVersion),
};

/**
 * A read a server may keep and send a session again without reading it, while the version read
 * with the request says it is unchanged: by default one of the owner's lists,
 * whose every change raises their lists version. With an answer cached, the request's statement is
 * `versioned.check`, the lookups and the version alone (after `versioned.unchangedAtAll`, where
 * there is one); only when the user, their admin flag or the version differs is the read asked
 * for, with the version it was read at. `size` says how much an answer counts against the
 * server's budget (`ResponseCache`), in characters or near enough.
 */
export function defineCachedContextRead<T>(
  name: string,
  value: (db: DbOrTx, reader: ContextReader) => SQL<T>,
  size: (value: T) => number,
  versioned: CachedVersion = LISTS_VERSION,
  params: (query: unknown) => Record<string, unknown> | null = () => ({}),
): ContextRead<T> {
  return {
    name,
    statement: definePrepared((db) =>
      requestContextQuery(db, value(db, READER), versioned.version).prepare(
        `request_context_${name}`,
      ),
    ),
    params,
    cached: { sizeOf: size, check: versioned.check, unchangedAtAll: versioned.unchangedAtAll },
  };
}

/** The values of the lookups' placeholders, after those of a route's read (`readParams`). */
export function requestContextParams(
  deviceId: string,
  sessionIdHash: string | null,
  now: Date,
  readParams?: Record<string, unknown>,
): Record<string, unknown> {
  const params = { deviceId, idHash: sessionIdHash ?? '', now };
  return readParams ? Object.assign({}, readParams, params) : params;
}

/**
 * The request's lookups, with `read` (and its placeholders' values) when the route has one. A
 * cached read (`defineCachedContextRead`) is answered from `cache` when the database says it is
 * unchanged, and what it reads is cached there for the session's next request.
 */
export async function findRequestContext<T = null>(
  db: Db,
  deviceId: string,
  sessionIdHash: string | null,
  now: Date,
  read?: { of: ContextRead<T>; params: Record<string, unknown> },
  cache?: ResponseCache,
): Promise<ContextRow<T> | undefined> {
  if (!read) {
    const [row] = await requestContext(db).execute(
      requestContextParams(deviceId, sessionIdHash, now),
    );
    return row;
  }
  const cachedRead = read.of.cached;
  // An answer is cached for the read's own placeholders: an admin's page of one account is not
  // their page of another.
  const cacheKey = cachedRead ? `${read.of.name} ${JSON.stringify(read.params)}` : '';
  const cachedAnswer =
    cachedRead && sessionIdHash ? cache?.find<T>(cacheKey, sessionIdHash) : undefined;
  if (cachedRead && cachedAnswer) {
    const checkParams = requestContextParams(deviceId, sessionIdHash, now, {
      ...read.params,
      cachedVersion: cachedAnswer.version,
    });
    // The cheaper question first, where the read has one.
    let [current] = cachedRead.unchangedAtAll
      ? await cachedRead.unchangedAtAll(db).execute(checkParams)
      : [];
    if (!current || (current.user && current.readVersion !== cachedAnswer.version)) {
      const check = cachedRead.check(db, { isAdmin: cachedAnswer.isAdmin, params: read.params });
      [current] = await check.execute(checkParams);
    }
    // No device, or no live session: nothing is read, and nothing cached is sent.
    if (!current?.user) return current;
    if (
      current.user.id === cachedAnswer.userId &&
      current.user.isAdmin === cachedAnswer.isAdmin &&
      current.readVersion === cachedAnswer.version
    ) {
      return { ...current, read: cachedAnswer.value };
    }
  }
  const [row] = await read.of
    .statement(db)
    .execute(requestContextParams(deviceId, sessionIdHash, now, read.params));
  if (!cachedRead || !row?.user || row.read === null || row.readVersion === null) return row;
  if (!sessionIdHash || !cache) return row;
  cache.keep(cacheKey, sessionIdHash, {
    userId: row.user.id,
    isAdmin: row.user.isAdmin,
    version: row.readVersion,
    value: row.read,
    size: cachedRead.sizeOf(row.read),
  });
  return row;
}
