import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mobilePairings } from '../../db/schema';

export type PairingRow = typeof mobilePairings.$inferSelect;

export async function insertPairing(
  db: DbOrTx,
  values: typeof mobilePairings.$inferInsert,
): Promise<PairingRow> {
  const [row] = await db.insert(mobilePairings).values(values).returning();
  return row!;
}

/** A pairing that still works: not cancelled, not expired. */
const isLive = (now: Date) =>
  and(isNull(mobilePairings.cancelledAt), gt(mobilePairings.expiresAt, now));

export async function findLivePairingByTokenHash(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<PairingRow | undefined> {
  const [row] = await db
    .select()
    .from(mobilePairings)
    .where(and(eq(mobilePairings.tokenHash, tokenHash), isLive(now)));
  return row;
}

export async function findLatestLivePairing(
  db: DbOrTx,
  userId: number,
  now: Date,
): Promise<PairingRow | undefined> {
  const [row] = await db
    .select()
    .from(mobilePairings)
    .where(and(eq(mobilePairings.userId, userId), isLive(now)))
    .orderBy(desc(mobilePairings.createdAt))
    .limit(1);
  return row;
}

/** Ends the user's live pairings (a new one replaces them; Cancel ends one). */
export async function cancelPairings(
  db: DbOrTx,
  userId: number,
  now: Date,
  pairingId?: string,
): Promise<number> {
  const ended = await db
    .update(mobilePairings)
    .set({ cancelledAt: now })
    .where(
      and(
        eq(mobilePairings.userId, userId),
        isNull(mobilePairings.cancelledAt),
        pairingId ? eq(mobilePairings.id, pairingId) : undefined,
      ),
    )
    .returning({ id: mobilePairings.id });
  return ended.length;
}

export async function countPairingUpload(db: DbOrTx, pairingId: string): Promise<void> {
  await db
    .update(mobilePairings)
    .set({ uploadsCount: sql`${mobilePairings.uploadsCount} + 1` })
    .where(eq(mobilePairings.id, pairingId));
}
