/** Asks the cloud sync (if it runs in this tab) to look for new recordings now. */
export const SYNC_REQUEST_EVENT = 'memento:sync-request';

export function requestCloudSync(): void {
  window.dispatchEvent(new Event(SYNC_REQUEST_EVENT));
}
