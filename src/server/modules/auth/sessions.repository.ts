import { and, eq, lt, ne } from 'drizzle-orm';
import type { TLoginMethod } from '../../../shared/domain/enums';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';

export async function insertSession(
  db: DbOrTx,
  values: {
    idHash: string;
    userId: number;
    deviceId: string;
    expiresAt: Date;
    method?: TLoginMethod;
  },
): Promise<void> {
  await db.insert(sessions).values(values);
}

export async function extendSession(
  db: DbOrTx,
  idHash: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await db.update(sessions).set({ expiresAt, lastSeenAt: now }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(db: DbOrTx, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

export async function deleteSessionsOfUser(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

/** Ends every session of a user but the one given (a password change keeps the changer in). */
export async function deleteOtherSessionsOfUser(
  db: DbOrTx,
  userId: number,
  keepIdHash: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)));
}
