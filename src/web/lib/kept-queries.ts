/**
 * The owner's own lists kept in this browser for use with no network (the offline feature's
 * use-kept-queries.ts), each under the signed-in user's id, beside the cached user.
 */
export const KEPT_KEY_PREFIX = 'memento:offline:';

/** On sign-out: nothing of the person's stays behind. */
export function forgetKeptQueries(): void {
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith(KEPT_KEY_PREFIX)) localStorage.removeItem(key);
    }
  } catch {
    // Storage blocked: nothing was kept.
  }
}
