import type { TVideoIndexEntry } from '../../../shared/schemas/videos';
import type { TVideoIndexRow } from './videos.repository';

export function toVideoIndexEntry(row: TVideoIndexRow): TVideoIndexEntry {
  return {
    id: row.id,
    recipientId: row.recipientId,
    // Titles reach the server only with a cloud copy (DESIGN.md principle 1).
    title: row.syncStatus === 'synced' || row.syncStatus === 'pending_sync' ? row.title : null,
    deviceId: row.deviceId,
    storageType: row.storageType,
    syncStatus: row.syncStatus,
    metadata: { byteSize: row.byteSize, durationMs: row.durationMs, mimeType: row.mimeType },
    createdAt: row.createdAt.toISOString(),
  };
}
