import type { ComponentProps } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import type { TPrerenderedPage } from './prerendered-page';

interface AppProps {
  /** The browser's router, or a memory router when the build renders a page. */
  router: ComponentProps<typeof RouterProvider>['router'];
  visitor: TPrerenderedPage | null;
}

export function App({ router, visitor }: AppProps) {
  return (
    <AppProviders visitor={visitor}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
