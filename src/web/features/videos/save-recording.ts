import type { TRelease } from '@shared/domain/legacy';
import { isValidDeviceId } from '@shared/domain/device';
import { getDeviceId } from '@web/lib/device-id';
import { normaliseVideoType } from '@web/lib/video-format';
import { markIndexed, saveVideo, type TLocalVideo } from '@web/lib/videos/local-store';
import { toIndexBody } from '@web/lib/videos/index-rows';
import { repairForPlayback } from '@web/lib/videos/repair-for-playback';
import { requestCloudSync } from '@web/lib/sync-request';
import { indexVideo } from '@web/lib/videos/videos-api';

/** What a save refuses before anything is written. */
export const SAVE_MESSAGES = {
  empty: 'Invalid video data - no video captured',
  tooShortOnMobile: 'Video recording appears incomplete. Please record for at least 1 second.',
  noDevice: 'Device not properly initialized - please refresh and try again',
} as const;

const MIN_MOBILE_BYTES = 1000;

export class SaveRecordingError extends Error {
  override name = 'SaveRecordingError';
}

export interface TSaveRecordingInput {
  id: string;
  creatorId: number;
  recipientId: number;
  title: string;
  promptId: string | null;
  blob: Blob;
  durationMs: number;
  isMobile: boolean;
  /** When the recipient may watch; 'now' unless the owner chose otherwise. */
  release?: TRelease;
}

export interface TSavedRecording {
  video: TLocalVideo;
  /** False when the server's index could not be told yet (it is retried later). */
  isIndexed: boolean;
}

/**
 * Keeps a recording: repairs WebM so the player knows its length and can seek,
 * writes it to the local store first — the one step that must not fail silently — then tells the
 * server's index (no title, no content). If the index call fails the video is still safe here
 * and `indexPendingVideos` (index-rows.ts) sends it later.
 */
export async function saveRecording(input: TSaveRecordingInput): Promise<TSavedRecording> {
  if (input.blob.size === 0) throw new SaveRecordingError(SAVE_MESSAGES.empty);
  if (input.isMobile && input.blob.size < MIN_MOBILE_BYTES) {
    throw new SaveRecordingError(SAVE_MESSAGES.tooShortOnMobile);
  }
  if (!isValidDeviceId(getDeviceId())) throw new SaveRecordingError(SAVE_MESSAGES.noDevice);

  const type = normaliseVideoType(input.blob.type);
  const typed = input.blob.type === type ? input.blob : new Blob([input.blob], { type });
  const blob = await repairForPlayback(typed, input.durationMs);

  let video: TLocalVideo;
  try {
    video = await saveVideo({ ...input, blob });
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : 'Transaction failed';
    throw new SaveRecordingError(`Failed to save video: ${reason}`);
  }

  try {
    await indexVideo(toIndexBody(video));
    await markIndexed(video.id);
    // Paid plans send it to the cloud now (the sync listens only where it runs).
    requestCloudSync();
    return { video, isIndexed: true };
  } catch {
    return { video, isIndexed: false };
  }
}
