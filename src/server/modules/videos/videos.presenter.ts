import type { TVideoIndexEntry } from '../../../shared/schemas/videos';
import { SYNC_STATUSES_WITH_TITLE, type VideoIndexRow } from './videos.repository';

const hasTitle = (status: string) =>
  (SYNC_STATUSES_WITH_TITLE as readonly string[]).includes(status);

/**
 * One entry of the library's index; GET /api/videos has the database write the same (the trigger
 * of migration 0008, as migration 0033 last replaced it).
 */
export function toVideoIndexEntry(row: VideoIndexRow): TVideoIndexEntry {
  return {
    id: row.id,
    recipientId: row.recipientId,
    title: hasTitle(row.syncStatus) ? row.title : null,
    deviceId: row.deviceId,
    storageType: row.storageType,
    syncStatus: row.syncStatus,
    metadata: { byteSize: row.byteSize, durationMs: row.durationMs, mimeType: row.mimeType },
    createdAt: row.createdAt.toISOString(),
    release: { rule: row.releaseRule, at: row.releaseAt?.toISOString() ?? null },
    sha256: row.sha256,
    isWaitingToBeSealed: (row.pairingKeyWrap ?? null) !== null,
  };
}
