// The app starts in steps, each in a task of its own: React, then the app's code, then the first
// render or the hydration of a page prerendered at build time. One script doing all of it held
// the browser for the whole start, and a tap or a scroll waited behind it
// (docs/decisions/045-the-app-starts-in-steps-and-adopts-its-first-page-whole.md). The build
// preloads every step's code with the page, so the steps wait on nothing.
import { STORAGE_KEYS } from '@shared/domain/device';
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

/**
 * A returning owner's dashboard shows the welcome banner's picture at the top: it is asked for
 * now, with the page, rather than after the app, the session check and the page's own code.
 */
function preloadDashboardPoster() {
  if (window.location.pathname !== '/') return;
  try {
    const user = JSON.parse(localStorage.getItem(STORAGE_KEYS.currentUser) ?? 'null') as {
      category?: string;
    } | null;
    if (user?.category !== 'primary') return;
  } catch {
    // Storage blocked or unreadable: the banner asks for its picture itself.
    return;
  }
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = BANNER_POSTER;
  link.fetchPriority = 'high';
  document.head.append(link);
}

async function start() {
  const rootElement = document.getElementById('root');
  if (!rootElement) {
    showPlainAlert(ROOT_MISSING);
    return;
  }
  preloadDashboardPoster();
  // The start never holds up the words a prerendered page already carries.
  await afterNextPaint();
  await import('react-dom/client');
  await nextTask();
  const { mount } = await import('./app/mount');
  await nextTask();
  await mount(rootElement, nextTask);
}

start().catch(showStartFailed);
