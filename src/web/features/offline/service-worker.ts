// The service worker (built by vite.config.ts) precaches the app's own files, so Memento opens
// with no network (docs/decisions/064-installable-and-offline.md). Registered once the first page
// is interactive and the browser is idle: the precache never competes with a first visit.
// A new version waits for the person: the app shows an update prompt, and reloads only on Reload.

const WORKER_URL = '/sw.js';
/** The longest the registration waits for an idle moment after the page has loaded. */
const IDLE_TIMEOUT_MS = 5_000;

let waitingWorker: ServiceWorker | null = null;
const listeners = new Set<() => void>();

function setWaitingWorker(worker: ServiceWorker | null) {
  waitingWorker = worker;
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: whether a new version is installed and waits. */
export function subscribeToUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isUpdateWaiting(): boolean {
  return waitingWorker !== null;
}

/** Hands over to the new version and reloads once it controls the page. */
export function applyUpdate(): void {
  const worker = waitingWorker;
  if (!worker) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  worker.postMessage({ type: 'SKIP_WAITING' });
}

function watch(registration: ServiceWorkerRegistration) {
  // Only an update waits: the first install has no page version to replace.
  if (registration.waiting && navigator.serviceWorker.controller) {
    setWaitingWorker(registration.waiting);
  }
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && navigator.serviceWorker.controller) {
        setWaitingWorker(installing);
      }
    });
  });
  // A tablet left open for days still hears of a new version when it is picked up again.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && navigator.onLine) {
      registration.update().catch(() => undefined);
    }
  });
}

function whenIdle(run: () => void) {
  if (typeof window.requestIdleCallback === 'function')
    window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else window.setTimeout(run, 1);
}

/** Registers the service worker after the page's load and an idle moment; production builds only. */
export function registerServiceWorkerWhenIdle(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () =>
    whenIdle(() => {
      navigator.serviceWorker
        .register(WORKER_URL, { scope: '/' })
        .then(watch)
        .catch((error: unknown) => console.warn('The offline app could not be set up', error));
    });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
