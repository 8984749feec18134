import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { build, defineConfig, type Plugin, type ResolvedConfig } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

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
    async closeBundle() {
      if (resolved.build.ssr) return;
      const outDir = resolved.build.outDir;
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
        )) as { renderFirstPages: (shell: string) => Promise<Map<string, string>> };
        const files = await renderFirstPages(readFileSync(path.join(outDir, 'index.html'), 'utf8'));
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

export default defineConfig({
  root: fromRoot('./src/web'),
  publicDir: fromRoot('./src/web/public'),
  plugins: [react(), tailwindcss(), prerenderFirstPages()],
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // The first screen needs the shared messages, not the validation library they once
        // shared a chunk with: zod loads with the first form (issue 15 item 3).
        codeSplitting: {
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'shared-domain', test: /src[\\/]shared[\\/]domain[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:5000' },
  },
});
