// The service worker (built by vite.config.ts) precaches the app's own files, so Memento opens
// with no network (docs/decisions/064-installable-and-offline.md). This module loads, and
// registers it, only once the first visit has settled (update-signal.ts). A new version waits for
// the person: the app shows an update prompt, and reloads only on Reload.

const WORKER_URL = '/sw.js';

let waitingWorker: ServiceWorker | null = null;
let onUpdate = () => {};

function setWaitingWorker(worker: ServiceWorker) {
  waitingWorker = worker;
  onUpdate();
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

/** Registers the worker; `announce` is called when a new version is installed and waits. */
export function registerServiceWorker(announce: () => void): void {
  onUpdate = announce;
  navigator.serviceWorker
    .register(WORKER_URL, { scope: '/' })
    .then(watch)
    .catch((error: unknown) => console.warn('The offline app could not be set up', error));
}
