import { Suspense, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useToasts } from '@web/components/ui/use-toast';
import { AuthProvider } from '@web/lib/auth-provider';
import { DeviceProvider } from '@web/lib/device-provider';
import { createQueryClient } from './query-client';
import {
  RenderedPageContext,
  seedPrerenderedQueries,
  type TPrerenderedPage,
} from './prerendered-page';
import { lazyNamed } from '@web/lib/lazy-named';

const Toaster = lazyNamed(() => import('@web/components/ui/toast'), 'Toaster');

/** The toast machinery loads with the first toast: most first screens never show one. */
function LazyToaster() {
  const toasts = useToasts();
  const [isNeeded, setIsNeeded] = useState(false);
  if (toasts.length > 0 && !isNeeded) setIsNeeded(true);
  if (!isNeeded) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

interface AppProvidersProps {
  children: ReactNode;
  /** A page rendered for a visitor: show it at once, and let the device register behind it. */
  visitor: TPrerenderedPage | null;
}

/** Query cache, then device identity, then the signed-in user: each needs the one before. */
export function AppProviders({ children, visitor }: AppProvidersProps) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (visitor) seedPrerenderedQueries(client, visitor);
    return client;
  });
  return (
    <QueryClientProvider client={queryClient}>
      <RenderedPageContext.Provider value={visitor?.path ?? null}>
        <DeviceProvider isVisitorPage={visitor !== null}>
          <AuthProvider>{children}</AuthProvider>
        </DeviceProvider>
      </RenderedPageContext.Provider>
      <LazyToaster />
    </QueryClientProvider>
  );
}
