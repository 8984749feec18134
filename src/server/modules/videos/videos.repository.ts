import { and, desc, eq, getTableColumns, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { asSubquery, jsonWholeRows } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { videos } from '../../db/schema';
import { defineContextRead } from '../auth/request-context.repository';

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

/** The videos `creatorId` made, newest first, as one JSON array (decision 032). */
function videosOf(db: DbOrTx, creatorId: SQLWrapper) {
  const rows = jsonWholeRows('videos', getTableColumns(videos), sql`${videos.createdAt} desc`);
  return { query: db.select({ rows }).from(videos).where(eq(videos.creatorId, creatorId)), rows };
}

const videosOfCreator = definePrepared((db) =>
  videosOf(db, sql.placeholder('creatorId')).query.prepare('videos_of_creator'),
);

export async function findVideosOfCreator(db: DbOrTx, creatorId: number): Promise<VideoRow[]> {
  const [result] = await videosOfCreator(db).execute({ creatorId });
  return result?.rows ?? [];
}

/** The library's index of the signed-in user's videos, read with the request (decision 033). */
export const OWN_VIDEOS_READ = defineContextRead('videos', (db, reader) => {
  const { query, rows } = videosOf(db, reader.userId);
  return asSubquery(query, rows);
});

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
