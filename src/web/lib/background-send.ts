import { BACKGROUND_SEND_TAG, keepSender } from '@web/service-worker/background-sender';
import { getDeviceId, initDeviceId } from './device-id';

/**
 * The page's side of sending after the tab closes
 * (docs/decisions/076-sending-after-the-tab-closes.md): where the browser has Background Sync
 * (Chromium), it wakes the service worker to send once online, even with Memento closed.
 */

type TSyncRegistration = ServiceWorkerRegistration & {
  sync?: { register: (tag: string) => Promise<void> };
};

/** Whether this browser sends with Memento closed; Safari and Firefox have no SyncManager. */
export function canSendInBackground(): boolean {
  return (
    typeof ServiceWorkerRegistration !== 'undefined' &&
    'sync' in ServiceWorkerRegistration.prototype
  );
}

/** Tells the worker whom it sends for: this owner, from this device. */
export async function handOverSender(userId: number): Promise<void> {
  if (!canSendInBackground()) return;
  const deviceId = getDeviceId() ?? (await initDeviceId());
  await keepSender({ userId, deviceId });
}

/** Asks the browser to wake the worker once online; nothing where it cannot. */
export async function askToSendInBackground(): Promise<void> {
  if (!canSendInBackground() || !navigator.serviceWorker) return;
  const registration = (await navigator.serviceWorker.getRegistration()) as
    TSyncRegistration | undefined;
  // No active worker yet (a first visit): the open page sends, as before.
  if (!registration?.active) return;
  await registration.sync?.register(BACKGROUND_SEND_TAG);
}
