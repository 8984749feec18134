import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { tierDowngrades, videos } from '../../db/schema';

const isSyncedOf = (userId: number) =>
  and(eq(videos.creatorId, userId), eq(videos.syncStatus, 'synced'));

/** How many of the account's messages have a cloud copy. */
export async function countSyncedVideos(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(videos)
    .where(isSyncedOf(userId));
  return row?.count ?? 0;
}

export async function insertDowngrade(
  db: DbOrTx,
  values: typeof tierDowngrades.$inferInsert,
): Promise<void> {
  await db.insert(tierDowngrades).values(values);
}

/**
 * The oldest downgrade whose retention has run out and is not cleaned up, locked for this
 * transaction; SKIP LOCKED, so servers running the job at once each take a different one.
 */
export async function claimDueDowngrade(db: DbOrTx, now: Date) {
  // Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`.
  const result = (await db.execute(sql`
    select id, user_id, metadata from tier_downgrades
     where not cloud_cleanup_completed and cloud_retention_expiry <= ${now.toISOString()}
     order by cloud_retention_expiry
     limit 1
     for update skip locked`)) as unknown as {
    rows: Array<{ id: number; user_id: number; metadata: Record<string, unknown> }>;
  };
  return result.rows[0];
}

/**
 * The account's cloud copies go back to 'local_only' rows without titles (without a cloud copy
 * the server keeps no title); answers the keys of the objects to delete from the store.
 */
export async function returnSyncedToLocal(
  db: DbOrTx,
  input: { userId: number; now: Date },
): Promise<string[]> {
  const synced = await db
    .select({ id: videos.id, key: videos.cloudPath })
    .from(videos)
    .where(isSyncedOf(input.userId));
  if (synced.length > 0) {
    await db
      .update(videos)
      .set({
        storageType: 'local',
        syncStatus: 'local_only',
        cloudPath: null,
        sealedKeyWrap: null,
        pairingKeyWrap: null,
        pairingId: null,
        recipientKeyWrap: null,
        recipientKeyId: null,
        title: null,
        promptId: null,
        updatedAt: input.now,
      })
      .where(isSyncedOf(input.userId));
  }
  return synced.flatMap((row) => (row.key ? [row.key] : []));
}

/** The downgrade is done with: when, how many copies went, and what happened. */
export async function completeDowngradeCleanup(
  db: DbOrTx,
  input: { id: number; now: Date; videosDeleted: number; metadata: Record<string, unknown> },
): Promise<void> {
  await db
    .update(tierDowngrades)
    .set({
      cloudCleanupCompleted: true,
      cleanedUpAt: input.now,
      videosDeleted: input.videosDeleted,
      metadata: input.metadata,
    })
    .where(eq(tierDowngrades.id, input.id));
}
