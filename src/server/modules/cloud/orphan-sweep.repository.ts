import { and, inArray, isNotNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { uploads, videos } from '../../db/schema';
import type { StoreUpload } from './video-store';

/** Uploads whose store copy is still wanted: taking parts, or being joined. */
const UNDER_WAY = ['active', 'completing'] as const;

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
