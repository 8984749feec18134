import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// Any props, as React.lazy itself takes: the caller's component keeps its own prop types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TAnyComponent = ComponentType<any>;

/** A component a module exports by name, loaded on its first render (React.lazy wants `default`). */
export function lazyNamed<
  TModule extends Record<TName, TAnyComponent>,
  TName extends keyof TModule,
>(load: () => Promise<TModule>, name: TName): LazyExoticComponent<TModule[TName]> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
