import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Where the page lists each signed-in page's code (read by src/web/main.tsx). */
const PAGE_CODE_ELEMENT_ID = 'memento-page-code';

/** Beside the web build; the server reads it (src/shared/domain/first-paint.ts). */
const PRERENDER_DIR = 'prerendered';

/**
 * After the browser build, renders the first screens a visitor meets to static HTML (decision
 * 030): a server-side build of src/web/prerender.tsx, run once in Node, then thrown away.
 */
function prerenderFirstPages(): Plugin {
  let resolved: ResolvedConfig;
  return {
    name: 'memento:prerender-first-pages',
    apply: 'build',
    configResolved(config) {
      resolved = config;
    },
    async closeBundle(error?: Error) {
      const outDir = resolved.build.outDir;
      // A build that failed has no index.html to render into: its own error is the one to read.
      if (error || resolved.build.ssr || !existsSync(path.join(outDir, 'index.html'))) return;
      const renderDir = path.join(outDir, '..', '.prerender');
      await build({
        configFile: resolved.configFile,
        mode: resolved.mode,
        logLevel: 'warn',
        build: {
          ssr: fromRoot('./src/web/prerender.tsx'),
          outDir: renderDir,
          emptyOutDir: true,
          copyPublicDir: false,
          minify: false,
        },
      });
      try {
        const { renderFirstPages } = (await import(
          pathToFileURL(path.join(renderDir, 'prerender.js')).href
        )) as {
          renderFirstPages: (
            shell: string,
            readAsset: (address: string) => string,
          ) => Promise<Map<string, string>>;
        };
        const files = await renderFirstPages(
          readFileSync(path.join(outDir, 'index.html'), 'utf8'),
          (address) => readFileSync(path.join(outDir, address), 'utf8'),
        );
        mkdirSync(path.join(outDir, PRERENDER_DIR), { recursive: true });
        for (const [name, content] of files) {
          writeFileSync(path.join(outDir, PRERENDER_DIR, name), content);
        }
      } finally {
        rmSync(renderDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Writes each script and stylesheet compressed as far as it goes (Brotli 11, gzip 9) beside the
 * original, for the server to send as they are (@fastify/static's preCompressed): about a sixth
 * smaller than compressing on the fly at a speed fit for each request.
 */
function precompressAssets(): Plugin {
  let resolved: ResolvedConfig;
  return {
    name: 'memento:precompress-assets',
    apply: 'build',
    configResolved(config) {
      resolved = config;
    },
    closeBundle(error?: Error) {
      const assetsDir = path.join(resolved.build.outDir, resolved.build.assetsDir);
      if (error || resolved.build.ssr || !existsSync(assetsDir)) return;
      for (const name of readdirSync(assetsDir)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const content = readFileSync(path.join(assetsDir, name));
        const brotli = brotliCompressSync(content, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        });
        writeFileSync(path.join(assetsDir, `${name}.br`), brotli);
        writeFileSync(path.join(assetsDir, `${name}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * Installable, and it opens with no network
 * (docs/decisions/064-installable-and-offline.md): the web app manifest, and a service worker that
 * precaches the app's own built files only. Pages are still asked of the server first; only when
 * it cannot be reached does a page open from the cached shell. No API answer, no video, no
 * prerendered visitor page is ever cached. The app registers the worker itself, once the first
 * page is interactive (src/web/lib/service-worker.ts), and a new version waits for the person.
 */
function installableOffline() {
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

/** The pages a signed-in owner opens most, by address: their code is fetched with the start's. */
const SIGNED_IN_PAGE_MODULES: Record<string, string> = {
  '/': 'src/web/pages/home/home-page.tsx',
  '/recipients': 'src/web/pages/recipients/recipients-page.tsx',
  '/record': 'src/web/pages/record/record-page.tsx',
  '/audit-logs': 'src/web/pages/audit-logs/audit-logs-page.tsx',
};

/**
 * The app starts in steps that each import the next one's code (src/web/main.tsx): the page
 * preloads all of it, so no step waits for a request the one before it made. The code of each
 * signed-in page is listed in the page too (PAGE_CODE_ELEMENT_ID), for the start to fetch
 * alongside the app's when the browser holds a signed-in user, rather than after it.
 */
function preloadStartSteps(): Plugin {
  return {
    name: 'memento:preload-start-steps',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return [];
        // A step the entry also imports statically would run in the entry's own task, and a
        // failure to fetch it would leave the page without its message (main.tsx).
        const eager = chunk.imports.filter((fileName) => chunk.dynamicImports.includes(fileName));
        if (eager.length > 0) {
          throw new Error(`The entry imports its start steps at once: ${eager.join(', ')}`);
        }
        // What the entry imports statically, Vite preloads already.
        const seen = new Set(chunk.imports);
        const files: string[] = [];
        const visit = (fileName: string) => {
          const imported = bundle[fileName];
          if (seen.has(fileName) || imported?.type !== 'chunk') return;
          seen.add(fileName);
          files.push(fileName);
          imported.imports.forEach(visit);
        };
        chunk.dynamicImports.forEach(visit);
        const pageCode: Record<string, string[]> = {};
        for (const [address, modulePath] of Object.entries(SIGNED_IN_PAGE_MODULES)) {
          const page = Object.values(bundle).find(
            (output) => output.type === 'chunk' && output.facadeModuleId === fromRoot(modulePath),
          );
          if (!page) throw new Error(`No chunk holds ${modulePath}`);
          const pageFiles: string[] = [];
          const collect = (fileName: string) => {
            const imported = bundle[fileName];
            if (seen.has(fileName) || pageFiles.includes(fileName)) return;
            if (imported?.type !== 'chunk') return;
            pageFiles.push(fileName);
            imported.imports.forEach(collect);
          };
          collect(page.fileName);
          pageCode[address] = pageFiles.map((fileName) => `/${fileName}`);
        }
        return [
          ...files.map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          })),
          {
            tag: 'script',
            attrs: { type: 'application/json', id: PAGE_CODE_ELEMENT_ID },
            children: JSON.stringify(pageCode),
            injectTo: 'body' as const,
          },
        ];
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  root: fromRoot('./src/web'),
  publicDir: fromRoot('./src/web/public'),
  plugins: [
    react(),
    tailwindcss(),
    preloadStartSteps(),
    prerenderFirstPages(),
    precompressAssets(),
    installableOffline(),
  ],
  resolve: {
    alias: [
      { find: '@shared', replacement: fromRoot('./src/shared') },
      { find: '@web', replacement: fromRoot('./src/web') },
      // react-router's package exports name only its development build (remix-run/react-router
      // #12532, #14102): more code, and its warnings. Builds take the production one.
      ...(command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fromRoot('./node_modules/react-router/dist/production/index.mjs'),
            },
          ]
        : []),
    ],
  },
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
    modulePreload: {
      // What a page loads after its first paint (background work, a dialog on its first opening)
      // fetches its few files as the browser finds them: a preload link added for each, as it
      // rendered, made the first seconds' longest tasks on a slow tablet. A page reached by a
      // link still asks for all its files at once.
      resolveDependencies: (filename, deps, { hostType }) =>
        hostType === 'html' || /-page-[\w-]+\.js$/.test(filename) ? deps : [],
    },
    rolldownOptions: {
      // A feature's index.ts only names what other features may use: importing one name from it
      // must not load (and run) every module it names, a dialog and the form library with them.
      treeshake: {
        moduleSideEffects: (id: string) =>
          /src[\\/]web[\\/]features[\\/][^\\/]+[\\/]index\.ts$/.test(id) ? false : undefined,
      },
      output: {
        // The first screen needs the shared messages, not the validation library they once
        // shared a chunk with: zod loads with the first form.
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'shared-domain', test: /src[\\/]shared[\\/]domain[\\/]/ },
            // The start's steps (main.tsx), each one file evaluated in a task of its own: React,
            // then the app (mount.tsx and everything it imports), rather than a dozen small files
            // (each response costs its headers and a request).
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // Vite's loader of split code and the wait for a paint, which the start itself needs
            // before the app.
            {
              name: 'preload',
              test: /vite[\\/]preload-helper|src[\\/]web[\\/]lib[\\/]after-paint\.ts$/,
            },
            // Radix's own building blocks, which nearly every screen's controls share, go with it:
            // in the forms file, they made each dialog load the whole form library.
            {
              name: 'app',
              test: /src[\\/]web[\\/]app[\\/]mount\.tsx$|node_modules[\\/]@radix-ui[\\/]react-(primitive|slot|compose-refs|context)[\\/]/,
            },
            // The icons, one file for all: a file per 300-byte icon cost more than it saved.
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
            // The form parts of the sign-in screen, which most other forms share too.
            {
              name: 'forms',
              test: /components[\\/]ui[\\/](form-field|input|label)\.tsx$|node_modules[\\/](react-hook-form|@radix-ui[\\/]react-label)[\\/]/,
            },
            // The few Radix parts a dialog and a checkbox share (showing and hiding, a controlled
            // value, event handlers): in the dialog's file, they made the recipients list load
            // the whole dialog for its checkboxes.
            {
              name: 'radix-parts',
              test: /node_modules[\\/](@radix-ui[\\/]react-(presence|use-[a-z-]+)|@radix-ui[\\/]primitive)[\\/]/,
            },
            // The dialog and its building blocks (focus trap, scroll lock, layers), one file
            // rather than five, loaded with the first dialog; the public pages hold none.
            {
              name: 'dialog',
              test: /components[\\/]ui[\\/]dialog\.tsx$|node_modules[\\/](@radix-ui[\\/]react-(dialog|focus-scope|focus-guards|dismissable-layer|portal|id)|react-remove-scroll[a-z-]*|use-callback-ref|use-sidecar|aria-hidden|tslib|get-nonce|detect-node-es)[\\/]/,
            },
            // The checkbox on its own: the recipients list ticks people without opening a dialog.
            {
              name: 'checkbox',
              test: /components[\\/]ui[\\/]checkbox\.tsx$|node_modules[\\/]@radix-ui[\\/]react-checkbox[\\/]/,
            },
            // The small shared parts of the signed-in pages (their requests, the billing and
            // release words, the local videos' hooks, the progress bar), one file rather than a
            // dozen of a few hundred bytes each: on a slow connection every file costs a round
            // trip, and the dashboard's first paint waited on about twenty of them. None of it is
            // in a public page (the sign-in page's device dialogs and the card stay apart).
            {
              name: 'signed-in',
              test: /src[\\/]web[\\/]features[\\/](billing[\\/](billing-api|billing-wording|components[\\/]billing-notice)|onboarding[\\/]onboarding-api|cloud[\\/](cloud-api|sync-progress)|videos[\\/](videos-api|index-rows|use-video-source|components[\\/]video-player)|recipients[\\/]recipients-api|legacy[\\/](legacy-api|release-wording|components[\\/]message-release)|backup[\\/](use-warn-before-leaving|components[\\/]progress-bar)|offline[\\/]offline-messages)\.tsx?$|src[\\/]web[\\/](components[\\/]back-home-link\.tsx|lib[\\/](format-bytes|video-format|sync-request)\.ts)$|node_modules[\\/]dexie-react-hooks[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
}));
