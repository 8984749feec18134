import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** How long a new page may take to show its heading (its code, then its data, arriving). */
const HEADING_WAIT_MS = 10_000;

/** A dialog still open (the menu closing, a dialog over the page) keeps focus inside it. */
function isDialogOpen(): boolean {
  return (
    document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"]') !== null
  );
}

/**
 * Whether focus may be moved to the new page: it is nowhere, on what was followed, or outside
 * the page's content (the header's links, the menu's button). Focus the person or the page has
 * already put inside the new content stays there.
 */
function isFocusFree(main: HTMLElement, focusedBefore: Element | null): boolean {
  const focused = document.activeElement;
  return (
    !focused ||
    focused === document.body ||
    focused === focusedBefore ||
    !focused.isConnected ||
    !main.contains(focused)
  );
}

/**
 * The one route announcer of the app. After each move to another page (not the page a visit
 * opens on) focus goes to the new page's main heading: a screen reader reads it out, and the
 * next Tab carries on from there rather than from the top. Where focus cannot go there (the page
 * has no heading, or focus is already inside the new page), the page's name is said in a polite
 * live region instead, once: said as well as focused, it would be read twice.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const shownPath = useRef<string | null>(null);

  useEffect(() => {
    const isFirstPage = shownPath.current === null;
    const isSamePage = shownPath.current === pathname;
    shownPath.current = pathname;
    const main = document.getElementById('main');
    if (isFirstPage || isSamePage || !main) return;

    setAnnouncement('');
    const focusedBefore = document.activeElement;
    let isDone = false;
    const finish = (say: string | null) => {
      isDone = true;
      observer.disconnect();
      window.clearTimeout(timer);
      if (say) setAnnouncement(say);
    };
    const tryHeading = () => {
      if (isDone || isDialogOpen()) return;
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return;
      if (!isFocusFree(main, focusedBefore)) {
        finish(heading.textContent);
        return;
      }
      // Focusable by script only: not a stop of its own for Tab.
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      // The scroll position is the router's to set (new page at the top, old one restored).
      heading.focus({ preventScroll: true });
      finish(null);
    };
    const observer = new MutationObserver(tryHeading);
    const timer = window.setTimeout(() => {
      if (!isDialogOpen() && isFocusFree(main, focusedBefore)) main.focus({ preventScroll: true });
      finish(document.title);
    }, HEADING_WAIT_MS);
    observer.observe(document.body, { childList: true, subtree: true });
    tryHeading();
    return () => {
      isDone = true;
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [pathname]);

  // A live region alone, with no role: a voice for the move between pages, not a part of a page.
  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only">
      {announcement}
    </p>
  );
}
