import { SYNC_REQUEST_EVENT } from '@web/lib/sync-request';

/** While the app is open: every half minute, when the connection returns, and after a save. */
export const SYNC_INTERVAL_MS = 30_000;

/**
 * A phone's sealed videos wait for an unlocked device of the owner, any of them, to seal them
 * for the owner: looked for now, every half minute, when the connection returns and after an
 * unlock. `onSealed` hears of each run that sealed some. Answers the function that stops it.
 */
export function watchPhoneCopies(userId: number, onSealed: () => void): () => void {
  let isActive = true;
  const seal = () =>
    void import('@web/lib/encryption/pairing-key')
      .then((phone) => phone.sealWaitingPhoneCopies(userId))
      .then((sealed) => {
        if (isActive && sealed > 0) onSealed();
      })
      .catch(() => undefined);
  seal();
  const timer = setInterval(seal, SYNC_INTERVAL_MS);
  for (const type of ['online', SYNC_REQUEST_EVENT]) window.addEventListener(type, seal);
  return () => {
    isActive = false;
    clearInterval(timer);
    for (const type of ['online', SYNC_REQUEST_EVENT]) window.removeEventListener(type, seal);
  };
}
