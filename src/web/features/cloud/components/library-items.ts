import type { TRelease } from '@shared/domain/legacy';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import type { TLocalVideo } from '@web/lib/videos/local-store';

export interface TLibraryItem {
  id: string;
  title: string;
  recipientId: number;
  createdAt: string;
  durationMs: number;
  promptId: string | null;
  isOnDevice: boolean;
  isInCloud: boolean;
  /** From a phone, sealed there, until the owner's device seals it for the owner: opens for no one. */
  isWaitingToBeSealed?: boolean;
  /** When its recipient may watch: the server's rule, else the one kept on this device. */
  release: TRelease | undefined;
}

/** The account's messages: those on this device and those in the cloud, newest first. */
export function mergeLibrary(
  local: readonly TLocalVideo[],
  index: readonly TVideoIndexEntry[],
): TLibraryItem[] {
  const byId = new Map<string, TLibraryItem>();
  for (const entry of index) {
    if (entry.syncStatus !== 'synced') continue;
    byId.set(entry.id, {
      id: entry.id,
      title: entry.title ?? 'A message',
      recipientId: entry.recipientId,
      createdAt: entry.createdAt,
      durationMs: entry.metadata.durationMs,
      promptId: null,
      isOnDevice: false,
      isInCloud: true,
      isWaitingToBeSealed: entry.isWaitingToBeSealed === true,
      release: entry.release,
    });
  }
  const indexRelease = new Map(index.map((entry) => [entry.id, entry.release]));
  for (const video of local) {
    const inCloud = byId.get(video.id)?.isInCloud ?? video.syncStatus === 'synced';
    byId.set(video.id, {
      id: video.id,
      title: video.title,
      recipientId: video.recipientId,
      createdAt: video.createdAt,
      durationMs: video.durationMs,
      promptId: video.promptId,
      isOnDevice: true,
      isInCloud: inCloud,
      release: indexRelease.get(video.id) ?? video.release,
    });
  }
  return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
