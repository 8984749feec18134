import type { Plugin } from 'vite';
import { PAGE_CODE_ELEMENT_ID } from '../../src/shared/domain/first-paint';
import { fromRoot } from './from-root';

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
export function preloadStartSteps(): Plugin {
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
