import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accountKeys, users } from '../../db/schema';

export type AccountKeysRow = typeof accountKeys.$inferSelect;
export type NewAccountKeysRow = typeof accountKeys.$inferInsert;

/**
 * The account's key wraps with the settings its password is split with now, in one read: a reset
 * changes the latter, and the password's wrap is current only while the two agree.
 */
export async function findAccountKeysAndPasswordKdf(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ keys: accountKeys, passwordKdf: users.passwordKdf })
    .from(accountKeys)
    .innerJoin(users, eq(users.id, accountKeys.userId))
    .where(eq(accountKeys.userId, userId));
  return row;
}

/** Whether the account seals its cloud copies (its keys exist). */
export async function hasAccountKeys(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: accountKeys.userId })
    .from(accountKeys)
    .where(eq(accountKeys.userId, userId));
  return row !== undefined;
}

/** Stores the account's first keys; undefined when another request stored them first. */
export async function insertAccountKeys(
  db: DbOrTx,
  values: NewAccountKeysRow,
): Promise<AccountKeysRow | undefined> {
  const [row] = await db.insert(accountKeys).values(values).onConflictDoNothing().returning();
  return row;
}

/** The account key under a new password's key half, with the settings that password is split by. */
export async function updatePasswordWrap(
  db: DbOrTx,
  userId: number,
  values: Pick<NewAccountKeysRow, 'passwordWrap' | 'passwordKdf' | 'updatedAt'>,
): Promise<void> {
  await db.update(accountKeys).set(values).where(eq(accountKeys.userId, userId));
}
