import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TDeviceCursor } from '../../../shared/schemas/admin';
import type { DbOrTx } from '../../db/client';
import { devices, emailVerifications, sessions, userSearchText, users } from '../../db/schema';

/** `%`, `_` and `\` in what the admin typed match themselves, not any text. */
const escapeLike = (word: string) => word.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Every word appears in the username, email, first or last name (the trigram index answers). */
function matchesSearch(search: string | undefined): SQL | undefined {
  const words = search?.split(/\s+/).filter(Boolean) ?? [];
  if (words.length === 0) return undefined;
  const text = userSearchText(users);
  return and(...words.map((word) => ilike(text, `%${escapeLike(word)}%`)));
}

/** A page of a list, and whether another page follows it. */
export interface Page<TRow> {
  rows: TRow[];
  hasMore: boolean;
}

/** `limit + 1` rows were read so one query also tells whether another page follows. */
async function toPage<TRow>(query: Promise<TRow[]>, limit: number): Promise<Page<TRow>> {
  const rows = await query;
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** One page of accounts by id, each with how many rows depend on it (its recipients). */
export function listUsersPage(
  db: DbOrTx,
  options: { limit: number; afterId?: number; search?: string },
) {
  const query = db
    .select({
      user: users,
      // Written out in full: Drizzle leaves columns unqualified in a one-table select.
      dependentCount: sql<number>`(select count(*)::int from users as dependents where dependents.created_by_id = users.id)`,
    })
    .from(users)
    .where(
      and(
        options.afterId === undefined ? undefined : gt(users.id, options.afterId),
        matchesSearch(options.search),
      ),
    )
    .orderBy(asc(users.id))
    .limit(options.limit + 1);
  return toPage(query, options.limit);
}

export function listPrimaryUsers(db: DbOrTx) {
  return db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(eq(users.category, 'primary'))
    .orderBy(asc(users.id));
}

export function findUsersByIds(db: DbOrTx, ids: readonly number[]) {
  return db
    .select()
    .from(users)
    .where(inArray(users.id, [...ids]));
}

/** The recipients of these accounts (uses users_created_by_idx). */
export function findRecipientsOfMany(db: DbOrTx, ownerIds: readonly number[]) {
  return db
    .select()
    .from(users)
    .where(inArray(users.createdById, [...ownerIds]))
    .orderBy(asc(users.id));
}

export async function countAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.isAdmin, true));
  return row?.value ?? 0;
}

/** Devices lose their binding first, so no device is left marked primary for nobody. */
export async function deleteUsersAndUnbindDevices(db: DbOrTx, ids: readonly number[]) {
  await db
    .update(devices)
    .set({ userId: null, isPrimary: false })
    .where(inArray(devices.userId, [...ids]));
  await db.delete(users).where(inArray(users.id, [...ids]));
}

/** Admin sessions last 12 hours: a newly granted admin's longer sessions are cut short. */
export async function capSessionsOfUser(db: DbOrTx, userId: number, expiresAt: Date) {
  await db
    .update(sessions)
    .set({ expiresAt })
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, expiresAt)));
}

/** The people linked to a device, looked up apart from the users the outer query joins. */
const linkedUsers = alias(users, 'linked_users');

/** Where a page ends: the device's creation time as Postgres keeps it (microseconds, UTC). */
const cursorTime = sql<string>`to_char(${devices.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Device associations: a device bound to an account, and a device where another account is
 * signed in (a secondary device on a paid tier, a recipient's phone), newest device first.
 *
 * A page's devices are chosen first, on their own, and only those few are then joined to the
 * people linked to them, so a page never sorts every association of every device. Each chosen
 * device has at least one association, so `limit + 2` devices (the cursor's own device may have
 * none left) always fill `limit + 1` rows.
 */
function selectAssociations(
  db: DbOrTx,
  options: { deviceId?: string; limit?: number; after?: TDeviceCursor; now: Date },
) {
  const { after, now } = options;
  const afterTime = after ? sql`${after.createdAt}::timestamptz` : undefined;
  const hasLiveSession = inArray(
    devices.id,
    db.select({ deviceId: sessions.deviceId }).from(sessions).where(gt(sessions.expiresAt, now)),
  );
  const chosen = db
    .select({
      id: devices.id,
      userId: devices.userId,
      isPrimary: devices.isPrimary,
      deviceName: devices.deviceName,
      createdAt: devices.createdAt,
      lastSyncAt: devices.lastSyncAt,
      lastSeen: devices.lastSeen,
      cursorTime: cursorTime.as('cursor_time'),
    })
    .from(devices)
    .where(
      and(
        or(isNotNull(devices.userId), hasLiveSession),
        options.deviceId ? eq(devices.id, options.deviceId) : undefined,
        after && afterTime
          ? or(
              lt(devices.createdAt, afterTime),
              and(eq(devices.createdAt, afterTime), gte(devices.id, after.deviceId)),
            )
          : undefined,
      ),
    )
    // As devices_created_idx is ordered (created_at DESC NULLS LAST, id): a plain DESC means
    // NULLS FIRST, which that index cannot give, and the list fell back to sorting every device.
    .orderBy(sql`${devices.createdAt} desc nulls last`, asc(devices.id))
    .$dynamic();
  const chosenDevices = (options.limit === undefined ? chosen : chosen.limit(options.limit + 2)).as(
    'chosen_devices',
  );

  // The owner, and whoever else has a live session there; each person once.
  const signedInThere = db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.deviceId, chosenDevices.id), gt(sessions.expiresAt, now)));
  const linked = db
    .select({ userId: sql<number>`${linkedUsers.id}`.as('linked_user_id') })
    .from(linkedUsers)
    .where(
      or(
        eq(linkedUsers.id, chosenDevices.userId),
        sql`${linkedUsers.id} = any(array(${signedInThere}))`,
      ),
    )
    .as('linked');

  return db
    .select({
      deviceId: chosenDevices.id,
      deviceName: chosenDevices.deviceName,
      createdAt: chosenDevices.createdAt,
      lastSyncAt: chosenDevices.lastSyncAt,
      lastSeen: chosenDevices.lastSeen,
      userId: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      isPrimaryUser: users.isPrimary,
      // Only the owner's binding can be a primary device; someone else signed in there is not.
      isPrimary: sql<boolean>`(${users.id} = ${chosenDevices.userId} and ${chosenDevices.isPrimary}) is true`,
      cursorTime: chosenDevices.cursorTime,
    })
    .from(chosenDevices)
    .innerJoinLateral(linked, sql`true`)
    .innerJoin(users, eq(users.id, linked.userId))
    .where(
      after && afterTime
        ? or(
            lt(chosenDevices.createdAt, afterTime),
            and(
              eq(chosenDevices.createdAt, afterTime),
              or(
                gt(chosenDevices.id, after.deviceId),
                and(eq(chosenDevices.id, after.deviceId), gt(users.id, after.userId)),
              ),
            ),
          )
        : undefined,
    )
    .orderBy(desc(chosenDevices.createdAt), asc(chosenDevices.id), asc(users.id))
    .$dynamic();
}

/** One page of device associations, newest device first. */
export function listDeviceAssociationsPage(
  db: DbOrTx,
  options: { limit: number; after?: TDeviceCursor; now: Date },
) {
  const query = selectAssociations(db, options).limit(options.limit + 1);
  return toPage(query, options.limit);
}

/** Everyone linked to one device, for removing its associations. */
export function findAssociationsOfDevice(db: DbOrTx, deviceId: string, now: Date) {
  return selectAssociations(db, { deviceId, now });
}

export async function deleteSessionsOnDevice(db: DbOrTx, deviceId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.deviceId, deviceId));
}

export async function insertEmailVerification(
  db: DbOrTx,
  values: typeof emailVerifications.$inferInsert,
): Promise<void> {
  await db.insert(emailVerifications).values(values);
}

export async function findEmailVerificationByToken(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select()
    .from(emailVerifications)
    .where(eq(emailVerifications.tokenHash, tokenHash));
  return row;
}

export async function markEmailVerified(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(emailVerifications).set({ verifiedAt: now }).where(eq(emailVerifications.id, id));
}

export function listRecentEmailVerifications(db: DbOrTx, limit: number) {
  return db
    .select({
      email: emailVerifications.email,
      requestedAt: emailVerifications.createdAt,
      verifiedAt: emailVerifications.verifiedAt,
    })
    .from(emailVerifications)
    .orderBy(desc(emailVerifications.createdAt), desc(emailVerifications.id))
    .limit(limit);
}
