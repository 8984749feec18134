// A page chunk that does not arrive is either gone (a redeploy replaced it; the server answers)
// or the server is away for a moment (a restart). Either way the tab reloads once, but only when
// the server answers: a reload while it is away would leave the browser's own error page on the
// screen for good. Meanwhile the import fails as any request does, and the page says it waits.
import { readItem, removeItem, writeItem } from '@web/lib/browser-storage';

const RELOADED_FOR_NEW_VERSION = 'memento:reloadedForNewVersion';

/** How long the wait between two asks grows to while the server does not answer. */
const SERVER_ASKED_AT_MOST_EVERY_MS = 15_000;

/** How long after a start a missing chunk counts as a second failure, not a new redeploy. */
const RELOAD_REMEMBERED_MS = 30_000;

/** Resolves once the server answers again (at once when it already does). */
async function untilServerAnswers(): Promise<void> {
  for (let wait = 1_000; ; wait = Math.min(wait * 2, SERVER_ASKED_AT_MOST_EVERY_MS)) {
    const answered = await fetch('/', { method: 'HEAD', cache: 'no-store' }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => window.setTimeout(resolve, wait));
  }
}

/**
 * Whether a chunk that fails now brings a reload: not when this tab reloaded for one moments ago,
 * as a chunk still missing after that will not come by reloading again.
 */
export function reloadsByItself(): boolean {
  return readItem(RELOADED_FOR_NEW_VERSION, 'session') === null;
}

export function reloadOnStaleChunks(): void {
  let reloading = false;
  window.addEventListener('vite:preloadError', () => {
    if (reloading || !reloadsByItself()) return;
    reloading = true;
    void untilServerAnswers().then(() => {
      writeItem(RELOADED_FOR_NEW_VERSION, '1', 'session');
      // A tab that cannot note the reload (site data blocked) could reload for ever: it stays.
      if (readItem(RELOADED_FOR_NEW_VERSION, 'session') === '1') window.location.reload();
    });
  });
  // Forget the reload once this version has run for a while, so a later redeploy reloads too.
  window.setTimeout(() => removeItem(RELOADED_FOR_NEW_VERSION, 'session'), RELOAD_REMEMBERED_MS);
}
