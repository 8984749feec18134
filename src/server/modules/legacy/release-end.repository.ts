import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { legacyReleases, messageWatches, users, videos } from '../../db/schema';
import type { LegacyReleaseRow } from './legacy.repository';

/** A recipient's first watch of a message; later watches change nothing. */
export async function noteFirstWatch(
  db: DbOrTx,
  input: { videoId: string; recipientId: number; now: Date },
): Promise<void> {
  await db
    .insert(messageWatches)
    .values({ videoId: input.videoId, recipientId: input.recipientId, firstWatchedAt: input.now })
    .onConflictDoNothing();
}

/**
 * The owner's released legacy, locked for this transaction so two ends at once do the work
 * once: when it was released, or undefined when it is not.
 */
export async function lockReleasedLegacy(db: DbOrTx, ownerId: number): Promise<Date | undefined> {
  const [row] = await db
    .select({ releasedAt: users.legacyReleasedAt })
    .from(users)
    .where(eq(users.id, ownerId))
    .for('update');
  return row?.releasedAt ?? undefined;
}

/**
 * The owner's 'after my legacy' cloud messages, each with its recipient and whether that
 * recipient watched it since the release (a watch from before, when it was open for another
 * reason, does not count).
 */
export async function findOpenedLegacyMessages(
  db: DbOrTx,
  input: { ownerId: number; releasedAt: Date },
) {
  return db
    .select({
      id: videos.id,
      title: videos.title,
      recipientId: videos.recipientId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      watchedAt: messageWatches.firstWatchedAt,
    })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.recipientId))
    .leftJoin(
      messageWatches,
      and(
        eq(messageWatches.videoId, videos.id),
        eq(messageWatches.recipientId, videos.recipientId),
        sql`${messageWatches.firstWatchedAt} >= ${input.releasedAt.toISOString()}::timestamptz`,
      ),
    )
    .where(
      and(
        eq(videos.creatorId, input.ownerId),
        eq(videos.releaseRule, 'legacy'),
        eq(videos.syncStatus, 'synced'),
      ),
    );
}

/** Messages their recipient has watched stay open to them when the release ends. */
export async function keepOpen(db: DbOrTx, videoIds: string[], now: Date): Promise<void> {
  if (videoIds.length === 0) return;
  await db
    .update(videos)
    .set({ releaseRule: 'now', releaseAt: null, updatedAt: now })
    .where(inArray(videos.id, videoIds));
}

/** Ends the release: the history row says so, and 'after my legacy' messages are sealed again. */
export async function markReleaseEnded(
  db: DbOrTx,
  input: { ownerId: number; now: Date },
): Promise<LegacyReleaseRow | undefined> {
  await db.update(users).set({ legacyReleasedAt: null }).where(eq(users.id, input.ownerId));
  const [row] = await db
    .update(legacyReleases)
    .set({ status: 'ended', endedAt: input.now })
    .where(and(eq(legacyReleases.ownerId, input.ownerId), eq(legacyReleases.status, 'released')))
    .returning();
  return row;
}

/** When the owner last ended a release, if ever. */
export async function findLastEndedAt(db: DbOrTx, ownerId: number): Promise<Date | undefined> {
  const [row] = await db
    .select({ endedAt: sql<Date | string>`max(${legacyReleases.endedAt})` })
    .from(legacyReleases)
    .where(and(eq(legacyReleases.ownerId, ownerId), isNotNull(legacyReleases.endedAt)));
  return row?.endedAt ? new Date(row.endedAt) : undefined;
}
