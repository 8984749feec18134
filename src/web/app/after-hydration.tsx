import { useEffect, type ReactNode } from 'react';

/**
 * Runs once React has hydrated the page (or rendered it afresh, or replaced it with the error
 * page). A page prerendered at build time arrives `inert`: it shows at once, but a tap before the
 * app has taken it over would be lost (or, on a form, submitted by the browser itself), so it
 * answers from here on. Adds no element of its own, so the tree matches the prerendered one.
 */
export function AfterHydration({
  children,
  onHydrated,
}: {
  children: ReactNode;
  onHydrated?: () => void;
}) {
  useEffect(() => {
    document.getElementById('root')?.removeAttribute('inert');
    onHydrated?.();
  }, [onHydrated]);
  return children;
}
