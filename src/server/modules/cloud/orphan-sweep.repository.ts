import { and, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orphanSweeps, uploads, videos } from '../../db/schema';
import type { StoreUpload } from './video-store';
import { lockForTransaction } from '../../db/locks';

/** Uploads whose store copy is still wanted: taking parts, or being joined. */
const UNDER_WAY = ['active', 'completing'] as const;

/**
 * Starts a sweep unless one started within `everyMs` before `now` (on any app server); answers
 * the new run's id, or undefined when it is not yet due.
 */
export async function claimOrphanSweep(
  db: DbOrTx,
  input: { now: Date; everyMs: number },
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'orphanSweep');
    const [latest] = await tx
      .select({ startedAt: orphanSweeps.startedAt })
      .from(orphanSweeps)
      .orderBy(desc(orphanSweeps.startedAt))
      .limit(1);
    if (latest && latest.startedAt.getTime() > input.now.getTime() - input.everyMs) {
      return undefined;
    }
    const [row] = await tx
      .insert(orphanSweeps)
      .values({ startedAt: input.now })
      .returning({ id: orphanSweeps.id });
    return row?.id;
  });
}

export async function finishOrphanSweep(
  db: DbOrTx,
  id: number,
  values: { finishedAt: Date; objectsRemoved: number; uploadsRemoved: number },
): Promise<void> {
  await db.update(orphanSweeps).set(values).where(eq(orphanSweeps.id, id));
}

/** Of these object keys, those a video or an upload under way still owns. */
export async function findOwnedObjectKeys(
  db: DbOrTx,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const ofVideos = await db
    .select({ key: videos.cloudPath })
    .from(videos)
    .where(and(isNotNull(videos.cloudPath), inArray(videos.cloudPath, [...keys])));
  const ofUploads = await db
    .select({ key: uploads.objectKey })
    .from(uploads)
    .where(and(inArray(uploads.objectKey, [...keys]), inArray(uploads.status, [...UNDER_WAY])));
  return new Set([...ofVideos, ...ofUploads].flatMap((row) => (row.key ? [row.key] : [])));
}

/**
 * Of these unfinished uploads as the store lists them, those with a row under way: by the row's
 * id (file mode) or by the object key and the store's own upload id (S3).
 */
export async function findOwnedUploads(
  db: DbOrTx,
  listed: readonly StoreUpload[],
): Promise<Set<string>> {
  const ids = listed.flatMap((upload) => (upload.id ? [upload.id] : []));
  const keys = listed.flatMap((upload) => (upload.objectKey ? [upload.objectKey] : []));
  if (ids.length === 0 && keys.length === 0) return new Set();
  const rows = await db
    .select({ id: uploads.id, storeUploadId: uploads.storeUploadId })
    .from(uploads)
    .where(
      and(
        inArray(uploads.status, [...UNDER_WAY]),
        or(
          ids.length > 0 ? inArray(uploads.id, ids) : undefined,
          keys.length > 0 ? inArray(uploads.objectKey, keys) : undefined,
        ),
      ),
    );
  return new Set(
    rows.flatMap((row) => [row.id, ...(row.storeUploadId ? [row.storeUploadId] : [])]),
  );
}
