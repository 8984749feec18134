// Build-time prerendering of the first screens a visitor meets (docs/decisions/030-first-page.md).
// The build runs this module in Node (vite.config.ts): each page renders with the app's own
// providers and routes, as a visitor sees it, inside the built index.html; the browser then
// hydrates the same tree (main.tsx) and the server sends these files to requests without a
// session cookie.
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createMemoryRouter } from 'react-router';
import {
  CONFIG_PLACEHOLDER,
  COOKIE_CHOICE_SCRIPT,
  PRERENDERED_PAGES,
  PRERENDER_MANIFEST,
  type TPrerenderManifest,
} from '@shared/domain/first-paint';
import type { TPublicConfig } from '@shared/schemas/config';
import { App } from './app/app';
import { AppErrorBoundary } from './app/application-error';
import { AfterHydration } from './app/after-hydration';
import { routes } from './app/router';
import { PRERENDERED_PAGE_ATTRIBUTE } from './app/prerendered-page';

const ROOT_ELEMENT = '<div id="root"></div>';

const CONFIG_WITHOUT_ANALYTICS: TPublicConfig = {
  analyticsScriptUrl: null,
  donationUrl: null,
  sourceCodeUrl: null,
  billingEnabled: false,
  // With a sign-in provider set up, the server sends the unrendered page (web-app.ts).
  externalProviders: [],
};
/**
 * Of the config, only whether analytics is on changes what a visitor sees on these pages (the
 * cookie banner's words); the server writes the installation's real config into the page.
 */
const CONFIG_WITH_ANALYTICS: TPublicConfig = {
  ...CONFIG_WITHOUT_ANALYTICS,
  analyticsScriptUrl: '/analytics.js',
};

/** The HTML inside the app's root element for `path`, once every lazy page has loaded. */
async function renderPage(path: string, config: TPublicConfig): Promise<string> {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AfterHydration>
        <AppErrorBoundary>
          <App router={router} visitor={{ path, config }} />
        </AppErrorBoundary>
      </AfterHydration>
    </StrictMode>,
    // One document, nothing streamed in later by inline scripts (the CSP allows none of those).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

const STYLESHEET_LINK = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g;

/** Reads a built file by its address, e.g. `/assets/index-abc.css`. */
type TReadAsset = (address: string) => string;

/**
 * The built shell with the page in its root and the cookie-banner check first in its head. The
 * page is readable before its code arrives: the stylesheet comes inside the page (one request
 * paints it), and the code follows at low priority.
 */
function wrapInShell(shell: string, page: string, markup: string, readAsset: TReadAsset): string {
  if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
  return shell
    .replace('<head>', `<head>\n    <script>${COOKIE_CHOICE_SCRIPT}</script>`)
    .replace(STYLESHEET_LINK, (_link, address: string) => {
      const css = readAsset(address);
      if (css.includes('</style')) throw new Error(`${address} cannot be inlined`);
      return `<style>${css}</style>`;
    })
    .replaceAll('<script type="module" ', '<script type="module" fetchpriority="low" ')
    .replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ')
    .replace(
      ROOT_ELEMENT,
      `<div id="root" ${PRERENDERED_PAGE_ATTRIBUTE}="${page}" inert>${markup}</div>\n    ${CONFIG_PLACEHOLDER}`,
    );
}

function fileNameFor(address: string, hasAnalytics: boolean): string {
  const name = address === '/' ? 'index' : address.slice(1).replaceAll('/', '-');
  return `${name}${hasAnalytics ? '.analytics' : ''}.html`;
}

/** Every rendered page and the manifest, by file name, for the build to write out. */
export async function renderFirstPages(
  shell: string,
  readAsset: TReadAsset,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const manifest: TPrerenderManifest = { pages: {} };
  for (const [address, page] of Object.entries(PRERENDERED_PAGES)) {
    const withoutAnalytics = fileNameFor(address, false);
    const withAnalytics = fileNameFor(address, true);
    const render = async (config: TPublicConfig) =>
      wrapInShell(shell, page, await renderPage(page, config), readAsset);
    files.set(withoutAnalytics, await render(CONFIG_WITHOUT_ANALYTICS));
    files.set(withAnalytics, await render(CONFIG_WITH_ANALYTICS));
    manifest.pages[address] = { withoutAnalytics, withAnalytics };
  }
  files.set(PRERENDER_MANIFEST, JSON.stringify(manifest, null, 2));
  return files;
}
