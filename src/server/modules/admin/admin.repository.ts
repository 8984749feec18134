import { and, asc, desc, eq, gt, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { devices, emailVerifications, sessions, users } from '../../db/schema';

/** Every account with how many rows depend on it (its recipients), in one query. */
export function listUsersWithDependentCounts(db: DbOrTx) {
  return db
    .select({
      user: users,
      // Written out in full: Drizzle leaves columns unqualified in a one-table select.
      dependentCount: sql<number>`(select count(*)::int from users as dependents where dependents.created_by_id = users.id)`,
    })
    .from(users)
    .orderBy(asc(users.id));
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

/** Admin sessions last 12 hours (D26): a newly granted admin's longer sessions are cut short. */
export async function capSessionsOfUser(db: DbOrTx, userId: number, expiresAt: Date) {
  await db
    .update(sessions)
    .set({ expiresAt })
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, expiresAt)));
}

const associationColumns = {
  deviceId: devices.id,
  deviceName: devices.deviceName,
  createdAt: devices.createdAt,
  lastSyncAt: devices.lastSyncAt,
  lastSeen: devices.lastSeen,
  userId: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  isPrimaryUser: users.isPrimary,
};

/**
 * Device associations: a device bound to an account, and a device where another account is
 * signed in (a secondary device on a paid tier, a recipient's phone).
 */
export async function listDeviceAssociations(db: DbOrTx, options: { deviceId?: string } = {}) {
  const byDevice = options.deviceId ? eq(devices.id, options.deviceId) : undefined;
  const [bound, signedIn] = await Promise.all([
    db
      .select({ ...associationColumns, isPrimary: devices.isPrimary })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(and(isNotNull(devices.userId), byDevice)),
    db
      .selectDistinct({ ...associationColumns, isPrimary: sql<boolean>`false` })
      .from(sessions)
      .innerJoin(devices, eq(devices.id, sessions.deviceId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          gt(sessions.expiresAt, new Date()),
          or(sql`${devices.userId} is null`, ne(devices.userId, sessions.userId)),
          byDevice,
        ),
      ),
  ]);
  return [...bound, ...signedIn].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.userId - b.userId,
  );
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

export async function markEmailVerified(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(emailVerifications)
    .set({ verifiedAt: new Date() })
    .where(eq(emailVerifications.id, id));
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
