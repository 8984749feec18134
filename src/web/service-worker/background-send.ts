/// <reference lib="webworker" />
import { syncPendingVideos } from '@web/features/cloud/sync-engine';
import { isServerAway } from '@web/lib/api-client';
import { adoptDeviceId } from '@web/lib/device-id';
import { listVideos } from '@web/lib/videos/local-store';
import { BACKGROUND_SEND_TAG, findSender } from './background-sender';

/**
 * Sending after the tab closes (docs/decisions/076-sending-after-the-tab-closes.md): the browser
 * wakes the worker with a one-off sync once it is online, and the worker runs the page's own
 * upload engine, which resumes part by part. A run that stops for want of a connection tries
 * again a few times within the wake, then fails, so the browser tries again later.
 */

/** The Background Sync event (Chromium's); not in TypeScript's lib. */
export type TSyncEvent = ExtendableEvent & { tag: string; lastChance: boolean };

export class SendLaterError extends Error {}

/** What one run left undone. */
export type TRunOutcome = { wentOffline: boolean; wasBusy: boolean; unindexed: number };

/** Whether the browser should run the sync again: the connection, or another sender, held it up. */
export function needsAnotherTry(run: TRunOutcome): boolean {
  return run.wentOffline || run.wasBusy || run.unindexed > 0;
}

/**
 * Waits before trying again within the same wake: the browser wakes the worker the moment the
 * network comes back, and its first requests may still fail (the Wi-Fi joining, the address not
 * yet given), or a tab being closed may still hold the sending lock. Without these, the
 * browser's own next try comes minutes later. Well inside the few minutes a sync event may last.
 */
const RETRY_DELAYS_MS = [2_000, 5_000, 15_000];

/**
 * Runs `attempt` until nothing waits, trying again after each delay; fails (for the browser to
 * try later) when something still waits at the end.
 */
export async function sendUntilDone(
  attempt: () => Promise<TRunOutcome | null>,
  delays: readonly number[] = RETRY_DELAYS_MS,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  for (const delay of [...delays, null]) {
    const run = await attempt();
    if (!run || !needsAnotherTry(run)) return;
    if (delay === null) break;
    await wait(delay);
  }
  throw new SendLaterError('Some messages wait for a later try');
}

/** One run for the owner handed over; null when nothing is left for the worker to do. */
async function sendOnce(userId: number): Promise<TRunOutcome | null> {
  const run = { wentOffline: false, wasBusy: false, unindexed: 0 };
  try {
    await syncPendingVideos(userId, {
      onOffline: () => (run.wentOffline = true),
      onBusy: () => (run.wasBusy = true),
    });
  } catch (error) {
    // Anything else (signed out, the plan changed) waits for the page, which says what is wrong.
    if (!isServerAway(error)) return null;
    run.wentOffline = true;
  }
  // A message saved offline whose index row did not go yet is not sent: the row goes first.
  run.unindexed = (await listVideos(userId)).filter((video) => video.indexedAt === null).length;
  return run;
}

async function sendForSender(): Promise<void> {
  const sender = await findSender();
  // Signed out, or never a paid owner's primary device here: nothing to send for anyone.
  if (!sender) return;
  adoptDeviceId(sender.deviceId);
  await sendUntilDone(() => sendOnce(sender.userId));
}

export function onSyncEvent(event: TSyncEvent): void {
  if (event.tag !== BACKGROUND_SEND_TAG) return;
  event.waitUntil(sendForSender());
}
