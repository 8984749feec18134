import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { joinedJsonTexts } from '../../db/json-rows';
import { videos } from '../../db/schema';
import { sharedWith, watchableBy } from '../access/watch';
import { defineCachedContextRead } from '../auth/request-context.repository';
import type { SessionUser } from '../users/users.repository';

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

/**
 * What the library's index shows of a video (videos.presenter.ts): no storage keys; the stored
 * copy's SHA-256, for the owner's device that brings the copy down to check it.
 */
export type VideoIndexRow = Pick<
  VideoRow,
  | 'id'
  | 'recipientId'
  | 'title'
  | 'deviceId'
  | 'storageType'
  | 'syncStatus'
  | 'byteSize'
  | 'durationMs'
  | 'mimeType'
  | 'createdAt'
  | 'releaseRule'
  | 'releaseAt'
  | 'sha256'
> &
  Partial<Pick<VideoRow, 'pairingKeyWrap'>>;

/**
 * Titles reach the server only with a cloud copy: these states show one.
 * The trigger of migration 0008 writes the same rule into `index_entry`.
 */
export const SYNC_STATUSES_WITH_TITLE = ['synced', 'pending_sync'] as const;

/**
 * The library's index of the signed-in user's videos, newest first, read with the request:
 * each row's entry as the database keeps it (`index_entry`), joined
 * into the response's JSON text. Read only when the owner's lists version is not
 * the one this server last sent the session the list with.
 */
export const OWN_VIDEO_INDEX_READ = defineCachedContextRead(
  'videos',
  (db, reader) =>
    joinedJsonTexts(
      db
        .select({ entry: videos.indexEntry })
        .from(videos)
        .where(eq(videos.creatorId, reader.userId))
        .orderBy(desc(videos.createdAt)),
    ),
  (text) => text.length,
);

/** The messages in the cloud that are shared with a recipient (access/watch.ts), newest first. */
export function findSharedVideosFor(
  db: DbOrTx,
  recipient: Pick<SessionUser, 'id' | 'createdById'>,
): Promise<VideoRow[]> {
  return db
    .select()
    .from(videos)
    .where(
      and(sharedWith(recipient), eq(videos.storageType, 'cloud'), eq(videos.syncStatus, 'synced')),
    )
    .orderBy(desc(videos.createdAt));
}

/** The video if this account may ask for it (access/watch.ts); release is checked after. */
export async function findVideoWatchableBy(
  db: DbOrTx,
  user: Pick<SessionUser, 'id' | 'createdById'>,
  id: string,
): Promise<VideoRow | undefined> {
  const [row] = await db
    .select()
    .from(videos)
    .where(and(eq(videos.id, id), watchableBy(user)));
  return row;
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
