import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recoveryCodes, sessions, users } from '../../db/schema';

export async function replaceRecoveryCodes(
  db: DbOrTx,
  userId: number,
  codeHashes: readonly string[],
): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Forgets the authenticator and the recovery codes; the next /admin visit enrols afresh. */
export async function clearSecondFactor(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ twoFactorSecret: null, twoFactorEnrolledAt: null, twoFactorLastStep: null })
    .where(eq(users.id, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.value ?? 0;
}

/** Marks an unused code used; false when there was none (wrong, or used by a parallel request). */
export async function useRecoveryCode(
  db: DbOrTx,
  userId: number,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/** Accepts a TOTP time step only once: false when it (or a later one) was already used. */
export async function claimTotpStep(db: DbOrTx, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set({ twoFactorLastStep: step })
    .where(
      and(
        eq(users.id, userId),
        or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step)),
      ),
    )
    .returning({ id: users.id });
  return claimed.length > 0;
}

export async function markSessionSecondFactor(
  db: DbOrTx,
  idHash: string,
  now: Date,
): Promise<void> {
  await db.update(sessions).set({ secondFactorVerifiedAt: now }).where(eq(sessions.idHash, idHash));
}
