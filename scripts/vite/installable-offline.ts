import { VitePWA } from 'vite-plugin-pwa';

/**
 * Installable, and it opens with no network
 * (docs/decisions/064-installable-and-offline.md): the web app manifest, and a service worker that
 * precaches the app's own built files only. Pages are still asked of the server first; only when
 * it cannot be reached does a page open from the cached shell. No API answer, no video, no
 * prerendered visitor page is ever cached. The app registers the worker itself, once the first
 * page is interactive (src/web/lib/service-worker.ts), and a new version waits for the person.
 */
export function installableOffline() {
  return VitePWA({
    strategies: 'generateSW',
    registerType: 'prompt',
    injectRegister: false,
    filename: 'sw.js',
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
    workbox: {
      globPatterns: ['index.html', 'favicon.svg', 'icons/*.png', 'assets/*.{js,css,woff2}'],
      // Online, every page comes from the server as before (its rendered first screens, its
      // headers); the cached shell answers only when the server cannot be reached.
      navigateFallback: null,
      runtimeCaching: [
        {
          urlPattern: ({ request, url }) =>
            request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
          handler: 'NetworkOnly',
          options: { precacheFallback: { fallbackURL: 'index.html' } },
        },
      ],
      cleanupOutdatedCaches: true,
      // A new version waits until the person chooses Reload (never mid-recording).
      skipWaiting: false,
      clientsClaim: false,
      sourcemap: false,
    },
  });
}
