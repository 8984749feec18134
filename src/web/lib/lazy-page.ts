import { createElement, lazy, type ComponentType } from 'react';

export interface TLazyPage {
  (): ReturnType<typeof createElement>;
  /** Loads the page's code now; once loaded, the page renders without suspending. */
  preload: () => Promise<unknown>;
}

/**
 * A page in its own chunk (React.lazy), which can also be loaded ahead of its first render. A page
 * rendered at build time is hydrated only once its code is here, so React adopts the HTML on
 * screen instead of swapping it for a spinner while the chunk downloads.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): TLazyPage {
  let Loaded: ComponentType | null = null;
  let pending: Promise<unknown> | null = null;
  const preload = () =>
    (pending ??= load().then((module) => {
      Loaded = module.default;
      return module;
    }));
  const Lazy = lazy(() => preload().then(() => ({ default: Loaded as ComponentType })));
  const Page = () => createElement(Loaded ?? Lazy);
  return Object.assign(Page, { preload });
}
