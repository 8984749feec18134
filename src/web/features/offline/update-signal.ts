// What the first page carries of the offline app: when to load it, and whether a new version
// waits (for the update prompt). The rest loads later (service-worker.ts).

const UPDATE_EVENT = 'memento:update-ready';
/**
 * After the page's load, the worker waits this long and for an idle moment: it downloads the
 * whole app, which must never compete with a first visit on a slow connection.
 */
const SETTLE_MS = 3_000;

let isWaiting = false;

export function announceUpdate(): void {
  isWaiting = true;
  window.dispatchEvent(new Event(UPDATE_EVENT));
}

/** For useSyncExternalStore: whether a new version is installed and waits. */
export function subscribeToUpdate(listener: () => void): () => void {
  window.addEventListener(UPDATE_EVENT, listener);
  return () => window.removeEventListener(UPDATE_EVENT, listener);
}

export const isUpdateWaiting = (): boolean => isWaiting;

/** Registers the service worker once the first visit has settled; production builds only. */
export function registerServiceWorkerWhenSettled(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () =>
    window.setTimeout(() => {
      const load = () =>
        void import('./service-worker').then((module) =>
          module.registerServiceWorker(announceUpdate),
        );
      if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(load);
      else load();
    }, SETTLE_MS);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
