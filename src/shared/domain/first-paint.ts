// The first screens a visitor meets, rendered to HTML at build time and served to requests that
// carry no session cookie, so their words paint before any script runs
// (docs/decisions/030-first-page.md).
import { STORAGE_KEYS } from './device';

/** The address asked for → the page a visitor sees there (`/` sends a visitor to sign in). */
export const PRERENDERED_PAGES: Readonly<Record<string, string>> = {
  '/': '/auth',
  '/auth': '/auth',
  '/features': '/features',
};

/** Where the build writes the rendered pages and their index, inside the web build (vite.config.ts). */
export const PRERENDER_DIR = 'prerendered';
export const PRERENDER_MANIFEST = 'manifest.json';

/** Index of the rendered pages: one file per page and per analytics setting (the banner's words). */
export interface TPrerenderManifest {
  pages: Record<string, { withoutAnalytics: string; withAnalytics: string }>;
}

/**
 * The dashboard's largest picture, the welcome banner's poster. The server names it in the head of
 * the app it sends to `/` with a session cookie, so it downloads with the HTML rather than after
 * the app's code has run (src/server/plugins/web-app.ts, src/web/pages/home/welcome-banner.tsx).
 */
export const BANNER_POSTER = '/media/banner-poster.jpg';

/** Stands in the rendered HTML where the server writes this installation's public config. */
export const CONFIG_PLACEHOLDER = '<!--memento-config-->';
export const CONFIG_ELEMENT_ID = 'memento-config';

/** Where the build lists each signed-in page's code, for the start to fetch with its own. */
export const PAGE_CODE_ELEMENT_ID = 'memento-page-code';

/**
 * Runs before the first paint: a visitor who already answered the cookie question must not see
 * the banner that the rendered page carries for first visits. Mirrors the consent store's check
 * (an object with boolean choices). Allowed by its hash in the Content-Security-Policy.
 */
export const COOKIE_CHOICE_SCRIPT = `try{var c=JSON.parse(localStorage.getItem(${JSON.stringify(
  STORAGE_KEYS.cookieConsent,
)}));if(c&&typeof c.analytics==='boolean'&&typeof c.marketing==='boolean')document.documentElement.setAttribute('data-cookie-choice','')}catch(e){}`;
