import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
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

/**
 * Every /api request's lookups in one prepared statement (issue 15 item 1): the device by its id
 * and, when the cookie names one, the live session on that device with its user. Prepared once
 * per database handle, so neither the SQL nor PostgreSQL's plan is made again on each request.
 * Each of the three comes back as one JSON value rather than a field per column (decision 032).
 */
const requestContext = definePrepared((db) =>
  db
    .select({
      device: jsonWholeRow('devices', DEVICE_COLUMNS),
      session: jsonObject(SESSION_COLUMNS, sessions.idHash),
      user: jsonObject(SESSION_USER_COLUMNS, users.id),
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
    .where(eq(devices.id, sql.placeholder('deviceId')))
    .prepare('request_context'),
);

export async function findRequestContext(
  db: Db,
  deviceId: string,
  sessionIdHash: string | null,
): Promise<TRequestContextRow | undefined> {
  const [row] = await requestContext(db).execute({
    deviceId,
    idHash: sessionIdHash ?? '',
    now: new Date(),
  });
  return row;
}
