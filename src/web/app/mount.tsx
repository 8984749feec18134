import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app';
import { holdRequestsUntil } from '@web/lib/api-client';
import { afterNextPaint } from '@web/lib/after-paint';
import { AfterHydration } from './after-hydration';
import { AppErrorBoundary, ApplicationErrorPage } from './application-error';
import { createAppRouter, preloadFirstPage, preloadSignedInPage } from './router';
import { readPrerenderedPage } from './prerendered-page';
import { reloadOnStaleChunks } from './stale-chunks';
import { registerServiceWorkerWhenSettled } from '@web/features/offline/update-signal';

declare global {
  interface Window {
    /** Set once the app is mounted, so a second execution of this script does nothing. */
    __mementoMounted?: boolean;
  }
}

/** Permission prompts refused and dropped sockets are expected, not crashes. */
function isExpectedRejection(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  return (
    reason.name === 'NotAllowedError' ||
    /permission/i.test(reason.message) ||
    /websocket/i.test(reason.message)
  );
}

function ignoreExpectedRejections() {
  window.addEventListener('unhandledrejection', (event) => {
    if (!isExpectedRejection(event.reason)) return;
    event.preventDefault();
    console.warn('Ignored browser error:', event.reason);
  });
}

/** The longest the first render holds the app's requests back. */
const REQUESTS_HELD_AT_MOST_MS = 2_000;

/**
 * Mounts the app on the root element; on a page rendered at build time, hydrates it. Runs in
 * steps with `nextTask` between them (main.tsx), so no one step holds the browser for long.
 */
export async function mount(
  rootElement: HTMLElement,
  nextTask: () => Promise<void>,
): Promise<void> {
  if (window.__mementoMounted) {
    console.warn('Memento is already mounted; skipping a second mount.');
    return;
  }
  window.__mementoMounted = true;
  ignoreExpectedRejections();
  reloadOnStaleChunks();
  registerServiceWorkerWhenSettled();

  const visitor = readPrerenderedPage(rootElement);
  // `/` holds the sign-in page for a visitor: the address says so before the router starts.
  if (visitor && visitor.path !== window.location.pathname) {
    window.history.replaceState(window.history.state, '', visitor.path + window.location.hash);
  }
  // A page drawn by the app (no prerendered page) is painted before its requests leave: what the
  // browser holds draws it, and the answers fill it in. Released after a while regardless, should
  // the first render never finish.
  let releaseRequests = () => {};
  const firstPainted = new Promise<void>((resolve) => {
    releaseRequests = resolve;
  });
  if (!visitor) {
    holdRequestsUntil(firstPainted);
    window.setTimeout(releaseRequests, REQUESTS_HELD_AT_MOST_MS);
  }
  const onHydrated = () => void afterNextPaint().then(releaseRequests);
  const app = (
    <StrictMode>
      <AfterHydration onHydrated={onHydrated}>
        <AppErrorBoundary>
          <App router={createAppRouter()} visitor={visitor} />
        </AppErrorBoundary>
      </AfterHydration>
    </StrictMode>
  );
  if (visitor) {
    // The page is already on screen: React adopts it once the page's code is here. Should it
    // differ from what the app renders, React renders afresh in the browser and says why here.
    // As a transition, React hydrates in small slices and a tap in between is not held up.
    await preloadFirstPage(visitor.path).catch((error: unknown) =>
      console.warn('Loading the page ahead failed', error),
    );
    await nextTask();
    startTransition(() => {
      hydrateRoot(rootElement, app, {
        onRecoverableError: (error) => console.warn('The rendered page was redrawn', error),
      });
    });
    return;
  }
  await preloadSignedInPage(window.location.pathname).catch((error: unknown) =>
    console.warn('Loading the page ahead failed', error),
  );
  await nextTask();
  const root = createRoot(rootElement);
  try {
    // As a transition, React renders the page in small slices, so no task holds the browser long.
    startTransition(() => root.render(app));
  } catch (error) {
    console.warn('Mounting Memento failed', error);
    root.render(<ApplicationErrorPage />);
  }
}
