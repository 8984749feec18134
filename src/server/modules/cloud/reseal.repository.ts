import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recipientKeys, users, videos } from '../../db/schema';

/** A video's cloud copy as it stands before a new copy replaces it, locked until the swap commits. */
export type CopyBefore = {
  cloudPath: string | null;
  sealedKeyWrap: string | null;
  creatorId: number;
  recipientId: number;
};

export async function lockCopyBefore(db: DbOrTx, videoId: string): Promise<CopyBefore | undefined> {
  const [row] = await db
    .select({
      cloudPath: videos.cloudPath,
      sealedKeyWrap: videos.sealedKeyWrap,
      creatorId: videos.creatorId,
      recipientId: videos.recipientId,
    })
    .from(videos)
    .where(eq(videos.id, videoId))
    .for('update');
  return row;
}

/** The owner's plain cloud copies, by recipient, with whether each recipient has a card. */
export async function countPlainCopies(db: DbOrTx, ownerId: number) {
  return db
    .select({
      recipientId: videos.recipientId,
      firstName: users.firstName,
      hasCard: sql<boolean>`${recipientKeys.recipientId} is not null`,
      count: count(),
    })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.recipientId))
    .leftJoin(recipientKeys, eq(recipientKeys.recipientId, videos.recipientId))
    .where(
      and(
        eq(videos.creatorId, ownerId),
        eq(videos.syncStatus, 'synced'),
        isNotNull(videos.cloudPath),
        isNull(videos.sealedKeyWrap),
        // A phone's sealed copy waits for the owner's device: it is not plain.
        isNull(videos.pairingKeyWrap),
      ),
    )
    .groupBy(videos.recipientId, users.firstName, recipientKeys.recipientId);
}

/** The plain cloud copies that can be sealed now: for the owner, or for someone with a card. */
export async function findSealableIds(db: DbOrTx, ownerId: number): Promise<string[]> {
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .leftJoin(recipientKeys, eq(recipientKeys.recipientId, videos.recipientId))
    .where(
      and(
        eq(videos.creatorId, ownerId),
        eq(videos.syncStatus, 'synced'),
        isNotNull(videos.cloudPath),
        isNull(videos.sealedKeyWrap),
        // A phone's sealed copy waits for the owner's device: it is not plain.
        isNull(videos.pairingKeyWrap),
        sql`(${videos.recipientId} = ${ownerId} or ${recipientKeys.recipientId} is not null)`,
      ),
    )
    .orderBy(videos.createdAt);
  return rows.map((row) => row.id);
}
