/// <reference lib="webworker" />
import { syncPendingVideos } from '@web/features/cloud/sync-engine';
import { NetworkError } from '@web/lib/api-client';
import { adoptDeviceId } from '@web/lib/device-id';
import { listVideos } from '@web/lib/videos/local-store';
import { BACKGROUND_SEND_TAG, findSender } from './background-sender';

/**
 * Sending after the tab closes (docs/decisions/076-sending-after-the-tab-closes.md): the browser
 * wakes the worker with a one-off sync once it is online, and the worker runs the page's own
 * upload engine, which resumes part by part. A run that stops for want of a connection fails, so
 * the browser tries again later.
 */

/** The Background Sync event (Chromium's); not in TypeScript's lib. */
export type TSyncEvent = ExtendableEvent & { tag: string; lastChance: boolean };

export class SendLaterError extends Error {}

/** Whether the browser should run the sync again: the connection, or another sender, held it up. */
export function needsAnotherTry(run: {
  wentOffline: boolean;
  wasBusy: boolean;
  unindexed: number;
}): boolean {
  return run.wentOffline || run.wasBusy || run.unindexed > 0;
}

async function sendForSender(): Promise<void> {
  const sender = await findSender();
  // Signed out, or never a paid owner's primary device here: nothing to send for anyone.
  if (!sender) return;
  adoptDeviceId(sender.deviceId);
  const run = { wentOffline: false, wasBusy: false, unindexed: 0 };
  try {
    await syncPendingVideos(sender.userId, {
      onOffline: () => (run.wentOffline = true),
      onBusy: () => (run.wasBusy = true),
    });
  } catch (error) {
    if (error instanceof NetworkError) throw error;
    // Anything else (signed out, the plan changed) waits for the page, which says what is wrong.
    return;
  }
  // A message saved offline whose index row did not go yet is not sent: the row goes first.
  run.unindexed = (await listVideos(sender.userId)).filter(
    (video) => video.indexedAt === null,
  ).length;
  if (needsAnotherTry(run)) throw new SendLaterError('Some messages wait for a later try');
}

export function onSyncEvent(event: TSyncEvent): void {
  if (event.tag !== BACKGROUND_SEND_TAG) return;
  event.waitUntil(sendForSender());
}
