/// <reference lib="webworker" />
import {
  cleanupOutdatedCaches,
  PrecacheFallbackPlugin,
  precacheAndRoute,
} from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import { answerSealedRequest, onSealedMessage, sealedVideoId } from './sealed-playback';
import { onSyncEvent, type TSyncEvent } from './background-send';

// The service worker (docs/decisions/064-installable-and-offline.md,
// docs/decisions/073-sealed-playback-service-worker.md): the app's own built files precached so
// Memento opens with no network, and sealed messages opened as the player reads them.

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

// A new version waits until the person chooses Reload (never mid-recording): no skipWaiting and
// no clientsClaim of its own.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
  else onSealedMessage(event);
});

// Recordings waiting for the cloud are sent once online, even with Memento closed
// (docs/decisions/076-sending-after-the-tab-closes.md).
self.addEventListener('sync', (event) => onSyncEvent(event as TSyncEvent));

// The build lists the app's own files here (index.html, icons, scripts, styles, the manifest).
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Online, every page comes from the server as before (its rendered first screens, its headers);
// the cached shell answers only when the server cannot be reached.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
  new NetworkOnly({ plugins: [new PrecacheFallbackPlugin({ fallbackURL: 'index.html' })] }),
);

// `/sealed/<videoId>`: the match answers [videoId], which Workbox hands the handler as `params`.
registerRoute(
  ({ request }) => {
    const videoId = sealedVideoId(request, self.location.origin);
    return videoId ? [videoId] : false;
  },
  ({ request, params }) =>
    answerSealedRequest(request, String((params as string[])[0]), self.location.origin),
);
