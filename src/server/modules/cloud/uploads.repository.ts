import { and, count, eq, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { devices, recipientKeys, uploads, videos } from '../../db/schema';

export type UploadRow = typeof uploads.$inferSelect;
export type NewUploadRow = typeof uploads.$inferInsert;

/** The upload under way for a video: still taking parts, or being joined right now. */
export async function findActiveUploadForVideo(
  db: DbOrTx,
  videoId: string,
): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.videoId, videoId), inArray(uploads.status, ['active', 'completing'])));
  return row;
}

/** A join that has not finished after this long was cut off (a restart) and may be taken again. */
const STALE_COMPLETION_MS = 5 * 60_000;

/**
 * Claims an upload for completion, so two completion calls (a retry racing the first, or two app
 * servers) never join the same parts at once. Answers undefined when someone else holds it.
 */
export async function claimUploadForCompletion(
  db: DbOrTx,
  id: string,
  now: Date,
): Promise<UploadRow | undefined> {
  const staleBefore = new Date(now.getTime() - STALE_COMPLETION_MS);
  const [row] = await db
    .update(uploads)
    .set({ status: 'completing', completedAt: now })
    .where(
      and(
        eq(uploads.id, id),
        or(
          eq(uploads.status, 'active'),
          and(eq(uploads.status, 'completing'), lt(uploads.completedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row;
}

export async function releaseUploadClaim(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(uploads)
    .set({ status: 'active', completedAt: null })
    .where(and(eq(uploads.id, id), eq(uploads.status, 'completing')));
}

export async function findUploadById(db: DbOrTx, id: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

/** Inserts an active upload unless another request made one for this video first. */
export async function insertActiveUpload(
  db: DbOrTx,
  values: NewUploadRow,
): Promise<UploadRow | undefined> {
  const [row] = await db.insert(uploads).values(values).onConflictDoNothing().returning();
  return row;
}

/** The upload as it resumes, with the recipient's wrap sent now when it differs from the one kept. */
export async function keepRecipientWrap(
  db: DbOrTx,
  upload: UploadRow,
  wrap: { recipientKeyWrap: string | null; recipientKeyId: string | null },
): Promise<UploadRow> {
  const isSame =
    upload.recipientKeyWrap === wrap.recipientKeyWrap &&
    upload.recipientKeyId === wrap.recipientKeyId;
  if (isSame) return upload;
  const [row] = await db.update(uploads).set(wrap).where(eq(uploads.id, upload.id)).returning();
  return row ?? upload;
}

export async function setUploadStatus(
  db: DbOrTx,
  id: string,
  status: 'completed' | 'aborted',
  now: Date,
): Promise<UploadRow | undefined> {
  const [row] = await db
    .update(uploads)
    .set({ status, completedAt: now })
    .where(and(eq(uploads.id, id), inArray(uploads.status, ['active', 'completing'])))
    .returning();
  return row;
}

/**
 * Cloud storage an account holds (one query): every synced copy plus the declared size of every
 * upload under way, a message's new copy and its old one alike, as the store holds both until the
 * new one is complete.
 */
export async function sumCloudBytes(
  db: DbOrTx,
  userId: number,
): Promise<{ usedBytes: number; syncedCount: number }> {
  // Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`.
  const result = (await db.execute(sql`
    select
      (select coalesce(sum(${videos.byteSize}), 0) from ${videos}
        where ${videos.creatorId} = ${userId} and ${videos.syncStatus} = 'synced')
      + (select coalesce(sum(${uploads.byteSize}), 0) from ${uploads}
        where ${uploads.userId} = ${userId} and ${uploads.status} in ('active', 'completing'))
        as used,
      (select count(*) from ${videos}
        where ${videos.creatorId} = ${userId} and ${videos.syncStatus} = 'synced') as synced
  `)) as unknown as {
    rows: Array<{ used: string | number | null; synced: string | number | null }>;
  };
  const row = result.rows[0];
  return { usedBytes: Number(row?.used ?? 0), syncedCount: Number(row?.synced ?? 0) };
}

export async function markVideoPending(
  db: DbOrTx,
  videoId: string,
  values: { title: string; promptId: string | null },
  now: Date,
): Promise<void> {
  await db
    .update(videos)
    .set({
      syncStatus: 'pending_sync',
      title: values.title,
      promptId: values.promptId,
      updatedAt: now,
    })
    .where(and(eq(videos.id, videoId), ne(videos.syncStatus, 'synced')));
}

export async function markVideoLocalOnly(db: DbOrTx, videoId: string, now: Date): Promise<void> {
  await db
    .update(videos)
    .set({ syncStatus: 'local_only', updatedAt: now })
    .where(and(eq(videos.id, videoId), eq(videos.syncStatus, 'pending_sync')));
}

export async function markVideoSynced(
  db: DbOrTx,
  videoId: string,
  values: {
    objectKey: string;
    sha256: string;
    byteSize: number;
    sealedKeyWrap: string | null;
    recipientKeyWrap: string | null;
    recipientKeyId: string | null;
    /** A phone's sealed copy, until the owner's device wraps its key for the owner. */
    pairingKeyWrap: string | null;
    pairingId: string | null;
  },
  now: Date,
): Promise<typeof videos.$inferSelect | undefined> {
  // A wrap for a card replaced while the copy was on its way opens nothing: it is not kept.
  const isCardCurrent = sql`exists (select 1 from ${recipientKeys}
    where ${recipientKeys.recipientId} = ${videos.recipientId}
      and ${recipientKeys.keyId} = ${values.recipientKeyId}::uuid)`;
  const [row] = await db
    .update(videos)
    .set({
      storageType: 'cloud',
      syncStatus: 'synced',
      cloudPath: values.objectKey,
      sha256: values.sha256,
      byteSize: values.byteSize,
      // The copy's key wraps come with its object, in the same statement: never one without the other.
      sealedKeyWrap: values.sealedKeyWrap,
      pairingKeyWrap: values.pairingKeyWrap,
      pairingId: values.pairingId,
      recipientKeyWrap: sql`case when ${isCardCurrent} then ${values.recipientKeyWrap} end`,
      recipientKeyId: sql`case when ${isCardCurrent} then ${values.recipientKeyId}::uuid end`,
      lastSyncedAt: now,
      updatedAt: now,
    })
    .where(eq(videos.id, videoId))
    .returning();
  return row;
}

export async function touchDeviceSync(db: DbOrTx, deviceId: string, now: Date): Promise<void> {
  await db.update(devices).set({ lastSyncAt: now }).where(eq(devices.id, deviceId));
}

export async function countActiveUploads(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), eq(uploads.status, 'active')));
  return row?.value ?? 0;
}

export interface CloudLeftovers {
  objects: Array<{ videoId: string; key: string }>;
  uploads: UploadRow[];
}

/** Only those of videos that are really gone: a leftover list is narrowed to the deleted ids. */
export function narrowLeftovers(leftovers: CloudLeftovers, deletedIds: readonly string[]) {
  const deleted = new Set(deletedIds);
  return {
    objects: leftovers.objects.filter((object) => deleted.has(object.videoId)),
    uploads: leftovers.uploads.filter((upload) => deleted.has(upload.videoId)),
  };
}

/** What must leave the store when these videos go: their objects and their unfinished uploads. */
export async function findCloudLeftovers(
  db: DbOrTx,
  videoIds: readonly string[],
): Promise<CloudLeftovers> {
  if (videoIds.length === 0) return { objects: [], uploads: [] };
  const ids = sql.join(
    videoIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Locked, so an upload completing meanwhile waits and then finds its message gone.
  const objectRows = await db
    .select({ videoId: videos.id, key: videos.cloudPath })
    .from(videos)
    .where(sql`${videos.id} in (${ids}) and ${videos.cloudPath} is not null`)
    .for('update');
  const uploadRows = await db
    .select()
    .from(uploads)
    .where(sql`${uploads.videoId} in (${ids}) and ${uploads.status} in ('active', 'completing')`);
  return {
    objects: objectRows.flatMap((row) => (row.key ? [{ videoId: row.videoId, key: row.key }] : [])),
    uploads: uploadRows,
  };
}

/** The videos an account owns or receives (all go with the account), for `findCloudLeftovers`. */
export async function findVideoIdsOfUsers(db: DbOrTx, userIds: readonly number[]) {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(or(inArray(videos.creatorId, [...userIds]), inArray(videos.recipientId, [...userIds])));
  return rows.map((row) => row.id);
}
