import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { PRERENDER_DIR } from '../../src/shared/domain/first-paint';
import { fromRoot } from './from-root';

/**
 * After the browser build, renders the first screens a visitor meets to static HTML (decision
 * 030): a server-side build of src/web/prerender.tsx, run once in Node, then thrown away.
 */
export function prerenderFirstPages(): Plugin {
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
