import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { keyRecoveries } from '../../db/schema';

export type KeyRecoveryRow = typeof keyRecoveries.$inferSelect;

/** The owner's key recovery that has not ended: waiting, or open since its day. */
export async function findLiveRecovery(
  db: DbOrTx,
  ownerId: number,
): Promise<KeyRecoveryRow | undefined> {
  const [row] = await db
    .select()
    .from(keyRecoveries)
    .where(and(eq(keyRecoveries.ownerId, ownerId), eq(keyRecoveries.status, 'waiting')))
    .limit(1);
  return row;
}

/** Starts one; a second at the same moment meets the one-waiting index and inserts nothing. */
export async function insertRecovery(
  db: DbOrTx,
  values: Omit<typeof keyRecoveries.$inferInsert, 'id' | 'status' | 'endedAt'>,
): Promise<KeyRecoveryRow | undefined> {
  const [row] = await db
    .insert(keyRecoveries)
    .values({ ...values, status: 'waiting' })
    .onConflictDoNothing()
    .returning();
  return row;
}

/**
 * Ends the owner's live recovery (or the one the link's token names): cancelled by the owner, or
 * closed because they got back in another way. Answers it, or undefined when none was live.
 */
export async function endRecovery(
  db: DbOrTx,
  input: ({ ownerId: number } | { cancelTokenHash: string }) & {
    status: 'cancelled' | 'closed';
    now: Date;
  },
): Promise<KeyRecoveryRow | undefined> {
  const which =
    'ownerId' in input
      ? eq(keyRecoveries.ownerId, input.ownerId)
      : eq(keyRecoveries.cancelTokenHash, input.cancelTokenHash);
  const [row] = await db
    .update(keyRecoveries)
    .set({ status: input.status, endedAt: input.now })
    .where(and(which, eq(keyRecoveries.status, 'waiting')))
    .returning();
  return row;
}
