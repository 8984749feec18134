import { useEffect } from 'react';

/** Names the browser tab after the page, so the history and tab list make sense. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Memento`;
  }, [title]);
}
