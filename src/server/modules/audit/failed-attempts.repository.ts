import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { failedAttempts } from '../../db/schema';
import { lockForTransaction } from '../../db/locks';

/**
 * Counts and records in one step, under a lock on this kind and key, so parallel requests cannot
 * all see room and all go through. Answers whether this attempt fitted and,
 * when it did not, when the oldest attempt in the window ages out.
 */
export async function consumeAttempt(
  db: DbOrTx,
  input: { kind: string; key: string; max: number; windowMs: number; now: Date },
): Promise<{ isAllowed: boolean; retryAt: Date | null }> {
  const since = new Date(input.now.getTime() - input.windowMs);
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'failedAttempt', `${input.kind}:${input.key}`);
    const recent = await tx
      .select({ at: failedAttempts.at })
      .from(failedAttempts)
      .where(
        and(
          eq(failedAttempts.kind, input.kind),
          eq(failedAttempts.key, input.key),
          gt(failedAttempts.at, since),
        ),
      )
      .orderBy(asc(failedAttempts.at));
    if (recent.length >= input.max) {
      const oldest = recent[recent.length - input.max]!.at;
      return { isAllowed: false, retryAt: new Date(oldest.getTime() + input.windowMs) };
    }
    await tx.insert(failedAttempts).values({ kind: input.kind, key: input.key, at: input.now });
    return { isAllowed: true, retryAt: null };
  });
}

/** Failures of any of these kinds and keys since a moment, oldest first. */
export function findFailedAttempts(
  db: DbOrTx,
  input: { kinds: string[]; keys: string[]; since: Date },
) {
  return db
    .select({ kind: failedAttempts.kind, key: failedAttempts.key, at: failedAttempts.at })
    .from(failedAttempts)
    .where(
      and(
        inArray(failedAttempts.kind, input.kinds),
        inArray(failedAttempts.key, input.keys),
        gt(failedAttempts.at, input.since),
      ),
    )
    .orderBy(asc(failedAttempts.at));
}

/** Records failures; answers their ids, so a check that succeeds can withdraw them. */
export async function insertFailedAttempts(
  db: DbOrTx,
  rows: Array<{ kind: string; key: string; at: Date }>,
): Promise<number[]> {
  const inserted = await db
    .insert(failedAttempts)
    .values(rows)
    .returning({ id: failedAttempts.id });
  return inserted.map((row) => row.id);
}

export async function deleteFailedAttempts(db: DbOrTx, ids: number[]): Promise<void> {
  await db.delete(failedAttempts).where(inArray(failedAttempts.id, ids));
}
