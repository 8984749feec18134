import { z } from 'zod';
import { zId } from './common';
import { normaliseVideoType, VIDEO_TYPE_MESSAGE } from '../domain/video-types';
import type { TRelease } from '../domain/legacy';
import { ZRelease } from './legacy';

export const VIDEO_SYNC_STATUSES = ['local_only', 'pending_sync', 'synced', 'conflict'] as const;
export type TVideoSyncStatus = (typeof VIDEO_SYNC_STATUSES)[number];

/** Largest single recording the index accepts: 10 minutes of 1080p is far below this. */
export const MAX_VIDEO_BYTES = 2 * 1024 * 1024 * 1024;

const ZVideoId = z.uuid({ error: 'Video id must be a UUID' });

/** A video's type, kept only in its one written form; any other type is refused with `message`. */
export function ZVideoType(message: string) {
  return z.string({ error: message }).transform((raw, ctx) => {
    const type = normaliseVideoType(raw);
    if (type === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return type;
  });
}

/**
 * POST /api/videos: the server's index row for a local video, so missing local data shows. No
 * title, no prompt, no content. The id is made by the client and kept on the local record, so a retried
 * save never makes a second row. The device comes from the X-Device-ID header.
 */
export const ZCreateVideoIndexBody = z.object({
  id: ZVideoId,
  recipientId: zId('Please choose a recipient'),
  storageType: z.literal('local').default('local'),
  syncStatus: z.literal('local_only').default('local_only'),
  metadata: z.object({
    byteSize: z
      .number()
      .int()
      .min(1, 'Invalid video data - no video captured')
      .max(MAX_VIDEO_BYTES, 'This video is too large'),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(24 * 60 * 60 * 1000),
    mimeType: ZVideoType(VIDEO_TYPE_MESSAGE),
  }),
  createdAt: z.iso.datetime().optional(),
  /** When the recipient may watch; 'now' unless the owner chose otherwise. */
  release: ZRelease.optional(),
});
export type TCreateVideoIndexBody = z.input<typeof ZCreateVideoIndexBody>;

/** One row of GET /api/videos (the caller's own rows). */
export interface TVideoIndexEntry {
  id: string;
  recipientId: number;
  /** Set once the message is in (or on its way to) the cloud; local-only titles stay local. */
  title: string | null;
  deviceId: string | null;
  storageType: 'local' | 'cloud';
  syncStatus: TVideoSyncStatus;
  metadata: { byteSize: number; durationMs: number; mimeType: string };
  createdAt: string;
  release: TRelease;
  /**
   * SHA-256 (hex) of the stored cloud copy's bytes (a sealed copy's sealed bytes), so a device
   * that brings it down keeps only what was sent; null until a copy is in the cloud.
   */
  sha256: string | null;
  /**
   * A phone's sealed copy the owner's device has not yet wrapped for the owner: no one can open
   * it until then. Absent from entries written before it was known.
   */
  isWaitingToBeSealed?: boolean;
}

export const ZDeleteVideosBody = z.object({
  ids: z.array(ZVideoId).min(1, 'Please choose at least one video').max(500),
});
export type TDeleteVideosBody = z.input<typeof ZDeleteVideosBody>;

export interface TVideosDeleted {
  deletedIds: string[];
}
