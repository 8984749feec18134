import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { definePrepared } from '../../db/prepared';
import { videos } from '../../db/schema';

export type VideoRow = typeof videos.$inferSelect;
export type NewVideoRow = typeof videos.$inferInsert;

/** Inserts the row unless one with this id exists; answers the stored row either way. */
export async function insertVideoOnce(
  db: DbOrTx,
  values: NewVideoRow,
): Promise<{ row: VideoRow | undefined; isNew: boolean }> {
  const inserted = await db.insert(videos).values(values).onConflictDoNothing().returning();
  if (inserted[0]) return { row: inserted[0], isNew: true };
  const [existing] = await db.select().from(videos).where(eq(videos.id, values.id));
  return { row: existing, isNew: false };
}

export async function findVideoById(db: DbOrTx, id: string): Promise<VideoRow | undefined> {
  const [row] = await db.select().from(videos).where(eq(videos.id, id));
  return row;
}

const videosOfCreator = definePrepared((db) =>
  db
    .select()
    .from(videos)
    .where(eq(videos.creatorId, sql.placeholder('creatorId')))
    .orderBy(desc(videos.createdAt))
    .prepare('videos_of_creator'),
);

export function findVideosOfCreator(db: DbOrTx, creatorId: number): Promise<VideoRow[]> {
  return videosOfCreator(db).execute({ creatorId });
}

export function findSharedVideosFor(db: DbOrTx, recipientId: number): Promise<VideoRow[]> {
  return db
    .select()
    .from(videos)
    .where(
      and(
        eq(videos.recipientId, recipientId),
        eq(videos.storageType, 'cloud'),
        eq(videos.syncStatus, 'synced'),
      ),
    )
    .orderBy(desc(videos.createdAt));
}

/** Deletes only rows the creator owns; answers the ids actually removed. */
export async function deleteVideosOfCreator(
  db: DbOrTx,
  creatorId: number,
  ids: readonly string[],
): Promise<string[]> {
  const removed = await db
    .delete(videos)
    .where(and(eq(videos.creatorId, creatorId), inArray(videos.id, [...ids])))
    .returning({ id: videos.id });
  return removed.map((row) => row.id);
}

export async function findVideoIdsForRecipient(
  db: DbOrTx,
  creatorId: number,
  recipientId: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.creatorId, creatorId), eq(videos.recipientId, recipientId)));
  return rows.map((row) => row.id);
}

export async function deleteVideosForRecipient(
  db: DbOrTx,
  creatorId: number,
  recipientId: number,
): Promise<string[]> {
  const removed = await db
    .delete(videos)
    .where(and(eq(videos.creatorId, creatorId), eq(videos.recipientId, recipientId)))
    .returning({ id: videos.id });
  return removed.map((row) => row.id);
}
