import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { oneTimeCodes } from '../../db/schema';

export type OneTimeCodeRow = typeof oneTimeCodes.$inferSelect;
type Purpose = OneTimeCodeRow['purpose'];

/** A code to store: only its hash, whom and what it is for, and until when. */
export interface NewOneTimeCode {
  userId: number;
  purpose: Purpose;
  codeHash: string;
  expiresAt: Date;
  deviceId?: string;
}

/** Issuing a new code retires the user's earlier unused ones for the same purpose. */
export async function replaceOneTimeCode(
  db: DbOrTx,
  values: NewOneTimeCode,
  now: Date,
): Promise<void> {
  await retireOneTimeCodes(db, values.userId, values.purpose, now);
  await addOneTimeCode(db, values);
}

/**
 * Adds a code without retiring the earlier ones: a reset code already mailed keeps working, so a
 * stranger asking again cannot make the owner's fresh code stop working.
 */
export async function addOneTimeCode(db: DbOrTx, values: NewOneTimeCode): Promise<void> {
  await db.insert(oneTimeCodes).values(values);
}

/** Every live code, newest first: unused, unexpired, fewer than `maxAttempts` wrong tries. */
export function findLiveOneTimeCodes(
  db: DbOrTx,
  userId: number,
  purpose: Purpose,
  maxAttempts: number,
  now: Date,
): Promise<OneTimeCodeRow[]> {
  return db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, now),
        sql`${oneTimeCodes.attempts} < ${maxAttempts}`,
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt));
}

/** Ends every unused code of this purpose (after one was used). */
export async function retireOneTimeCodes(
  db: DbOrTx,
  userId: number,
  purpose: Purpose,
  now: Date,
): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.usedAt),
      ),
    );
}

/** The newest live code: unused, unexpired, fewer than `maxAttempts` wrong tries. */
export async function findLiveOneTimeCode(
  db: DbOrTx,
  userId: number,
  purpose: Purpose,
  maxAttempts: number,
  now: Date,
): Promise<OneTimeCodeRow | undefined> {
  const [newest] = await findLiveOneTimeCodes(db, userId, purpose, maxAttempts, now);
  return newest;
}

/**
 * Spends one try of each code at once, before it is checked, so parallel guesses cannot all see
 * tries left; answers the ids that still had one.
 */
export async function spendTries(
  db: DbOrTx,
  ids: readonly number[],
  maxAttempts: number,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const spent = await db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(
      and(
        inArray(oneTimeCodes.id, [...ids]),
        isNull(oneTimeCodes.usedAt),
        sql`${oneTimeCodes.attempts} < ${maxAttempts}`,
      ),
    )
    .returning({ id: oneTimeCodes.id });
  return spent.map((row) => row.id);
}

export async function countWrongTry(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(eq(oneTimeCodes.id, id));
}

export async function markOneTimeCodeUsed(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db.update(oneTimeCodes).set({ usedAt: now }).where(eq(oneTimeCodes.id, id));
}
