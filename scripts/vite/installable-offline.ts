import { VitePWA } from 'vite-plugin-pwa';

/**
 * Installable, and it opens with no network
 * (docs/decisions/064-installable-and-offline.md): the web app manifest, and a service worker that
 * precaches the app's own built files only. Pages are still asked of the server first; only when
 * it cannot be reached does a page open from the cached shell. No API answer, no video, no
 * prerendered visitor page is ever cached. The app registers the worker itself, once the first
 * page is interactive (src/web/features/offline/service-worker.ts), and a new version waits for
 * the person. The worker is our own source (src/web/service-worker/sw.ts): it also opens sealed
 * messages as the player reads them (docs/decisions/073-sealed-playback-service-worker.md).
 */
export function installableOffline() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'service-worker',
    // Built into sw.js, the address the app registers.
    filename: 'sw.ts',
    registerType: 'prompt',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    includeManifestIcons: false,
    manifest: {
      id: '/',
      name: 'Memento',
      short_name: 'Memento',
      description: 'Record video messages for the people you love, kept safe on your own device.',
      lang: 'en-GB',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      // As the pages' own theme-color, so the installed app's title bar matches the page.
      theme_color: '#fbf8f3',
      background_color: '#fbf8f3',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        {
          src: '/icons/icon-maskable-512.png',
          sizes: '512x512',
          type: 'image/png',
          purpose: 'maskable',
        },
      ],
    },
    injectManifest: {
      globPatterns: ['index.html', 'favicon.svg', 'icons/*.png', 'assets/*.{js,css,woff2}'],
      // A classic script, as the app registers it.
      rollupFormat: 'iife',
      sourcemap: false,
    },
  });
}
