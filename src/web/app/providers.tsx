import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@web/components/ui/toast';
import { AuthProvider } from '@web/features/auth/auth-provider';
import { DeviceProvider } from '@web/features/device/device-provider';
import { createQueryClient } from './query-client';
import { seedVisitorQueries, type TVisitorSnapshot } from './visitor-snapshot';

interface AppProvidersProps {
  children: ReactNode;
  /** A page rendered for a visitor: show it at once, and let the device register behind it. */
  visitor: TVisitorSnapshot | null;
}

/** Query cache, then device identity, then the signed-in user: each needs the one before. */
export function AppProviders({ children, visitor }: AppProvidersProps) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    if (visitor) seedVisitorQueries(client, visitor);
    return client;
  });
  return (
    <QueryClientProvider client={queryClient}>
      <DeviceProvider isVisitorPage={visitor !== null}>
        <AuthProvider>{children}</AuthProvider>
      </DeviceProvider>
      <Toaster />
    </QueryClientProvider>
  );
}
