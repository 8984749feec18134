import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { fromRoot } from './scripts/vite/from-root';
import { installableOffline } from './scripts/vite/installable-offline';
import { precompressAssets } from './scripts/vite/precompress-assets';
import { preloadStartSteps } from './scripts/vite/preload-start-steps';
import { prerenderFirstPages } from './scripts/vite/prerender-first-pages';

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
              test: /components[\\/]ui[\\/](form-field|input|label)\.tsx$|node_modules[\\/]@radix-ui[\\/]react-label[\\/]/,
            },
            // The form library apart: the Record page's one field needs the parts, not the library
            // (nine tenths of their file), which it loaded with its first paint.
            { name: 'form-library', test: /node_modules[\\/]react-hook-form[\\/]/ },
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
              test: /src[\\/]web[\\/]features[\\/](billing[\\/](billing-api|components[\\/]billing-notice)|onboarding[\\/]onboarding-api|cloud[\\/](cloud-api|sync-progress)|legacy[\\/](legacy-api|release-wording|components[\\/]message-release)|backup[\\/](use-warn-before-leaving|components[\\/]progress-bar)|offline[\\/]offline-messages)\.tsx?$|src[\\/]web[\\/](components[\\/](back-home-link|video-player)|lib[\\/](format-bytes|video-format|sync-request|billing-wording|recipients-api|videos[\\/](videos-api|index-rows|use-video-source)))\.tsx?$|node_modules[\\/]dexie-react-hooks[\\/]/,
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
