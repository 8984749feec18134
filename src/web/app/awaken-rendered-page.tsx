import { useEffect, type ReactNode } from 'react';

/**
 * A page rendered at build time arrives `inert`: it shows at once, but a tap before the app has
 * taken it over would be lost (or, on a form, submitted by the browser itself). Once React has
 * hydrated it, or replaced it with the error page, the page answers. Adds no element of its own,
 * so the tree matches the one rendered at build time.
 */
export function AwakenRenderedPage({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.getElementById('root')?.removeAttribute('inert');
  }, []);
  return children;
}
