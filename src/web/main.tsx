// The app starts in steps, each in a task of its own: React, then the app's code, then the first
// render or the hydration of a page prerendered at build time. One script doing all of it held
// the browser for the whole start, and a tap or a scroll waited behind it
// (docs/decisions/045-the-app-starts-in-steps-and-adopts-its-first-page-whole.md). The build
// preloads every step's code with the page, so the steps wait on nothing.
// First, before zod can load anywhere: it must never probe for eval (the policy forbids it).
import './lib/zod-jitless';
import { STORAGE_KEYS } from '@shared/domain/device';
import { PAGE_CODE_ELEMENT_ID } from '@shared/domain/first-paint';
import { afterNextPaint } from './lib/after-paint';
import { showPlainAlert } from './lib/plain-alert';
import { BANNER_POSTER } from './pages/home/banner-media';
import './styles.css';

const ROOT_MISSING = 'Error: Application root element not found. Please refresh the page.';
const START_FAILED =
  'Memento could not load. Please refresh the page; if that does not help, clear your browser’s cache or open Memento in a new tab.';

/** Lets the browser paint and answer input before the next step. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The app's code did not arrive (a dropped connection): React cannot show its error page. */
function showStartFailed(error: unknown) {
  console.warn('Memento could not start', error);
  const root = document.getElementById('root');
  root?.removeAttribute('inert');
  showPlainAlert(START_FAILED, root ?? document.body);
}

/** The signed-in user this browser kept, or null (none, or storage blocked or unreadable). */
function readKeptUser(): { category?: string } | null {
  try {
    return JSON.parse(localStorage.getItem(STORAGE_KEYS.currentUser) ?? 'null') as {
      category?: string;
    } | null;
  } catch {
    return null;
  }
}

function preloadLink(href: string, as: 'image' | 'modulepreload'): HTMLLinkElement {
  const link = document.createElement('link');
  if (as === 'image') {
    link.rel = 'preload';
    link.as = 'image';
    link.fetchPriority = 'high';
  } else {
    link.rel = 'modulepreload';
    link.crossOrigin = '';
  }
  link.href = href;
  return link;
}

/**
 * A returning owner's page is drawn by its own code and, on the dashboard, the welcome banner's
 * picture at the top: both are asked for now, with the app's code, rather than after it. The
 * links go into the head at once, in a task of their own: one by one, inside this script's first
 * run, they held the browser for tens of milliseconds before anything was painted.
 */
function preloadSignedInPage(rootElement: HTMLElement) {
  // A prerendered page is a visitor's, and brings what it needs.
  if (rootElement.firstElementChild) return;
  const user = readKeptUser();
  if (!user) return;
  const path = window.location.pathname;
  const links = document.createDocumentFragment();
  try {
    const pageCode = JSON.parse(
      document.getElementById(PAGE_CODE_ELEMENT_ID)?.textContent ?? '{}',
    ) as Record<string, string[] | undefined>;
    for (const href of pageCode[path] ?? []) links.append(preloadLink(href, 'modulepreload'));
  } catch {
    // Without the list, the app asks for the page's code itself.
  }
  // The server names the poster in the HTML it sends; a shell from elsewhere (the offline app's
  // copy) does not.
  if (
    path === '/' &&
    user.category === 'primary' &&
    !document.head.querySelector(`link[rel="preload"][href="${BANNER_POSTER}"]`)
  ) {
    links.append(preloadLink(BANNER_POSTER, 'image'));
  }
  document.head.append(links);
}

async function start() {
  const rootElement = document.getElementById('root');
  if (!rootElement) {
    showPlainAlert(ROOT_MISSING);
    return;
  }
  setTimeout(() => preloadSignedInPage(rootElement), 0);
  // The start never holds up the words a prerendered page already carries.
  await afterNextPaint();
  await import('react-dom/client');
  await nextTask();
  const { mount } = await import('./app/mount');
  await nextTask();
  await mount(rootElement, nextTask);
}

start().catch(showStartFailed);
