import { statfs } from 'node:fs/promises';
import type { Clock } from './clock';

/** Below this much free space DATA_DIR counts as full: PGlite needs room for its next WAL page. */
const FULL_BELOW_BYTES = 4 * 1024 * 1024;
/** After a failure, DATA_DIR counts as full until this much is free again (no flapping). */
const ROOM_AGAIN_BYTES = 16 * 1024 * 1024;
/** A disk-full error this recent still counts (PostgreSQL's own disk cannot be measured here). */
const RECENT_MS = 30_000;

/** What one server knows of its disks: each server (two share a process in tests) its own. */
export class DiskSpace {
  private lastFullAt = 0;

  constructor(
    private readonly dataDir: string,
    private readonly options: { hasExternalDatabase: boolean; clock: Clock },
  ) {}

  /** Called when a write failed for want of space anywhere (DATA_DIR or PostgreSQL's disk). */
  noteFull(): void {
    this.lastFullAt = this.options.clock.now().getTime();
  }

  /**
   * Whether the server can write just now, for /api/health: DATA_DIR's free space, and a recent
   * write that failed for want of space (on PostgreSQL's server, only that can tell). Space coming
   * back ends it by itself.
   */
  async isFullNow(): Promise<boolean> {
    const isRecent = this.options.clock.now().getTime() - this.lastFullAt < RECENT_MS;
    let free: number;
    try {
      const stats = await statfs(this.dataDir);
      free = stats.bavail * stats.bsize;
    } catch {
      return isRecent;
    }
    if (free < FULL_BELOW_BYTES) return true;
    if (!isRecent) return false;
    return this.options.hasExternalDatabase || free < ROOM_AGAIN_BYTES;
  }
}
