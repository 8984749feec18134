import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from '@web/components/ui/toast';
import { AuthProvider } from '@web/features/auth/auth-provider';
import { DeviceProvider } from '@web/features/device/device-provider';
import { createQueryClient } from './query-client';

/** Query cache, then device identity, then the signed-in user: each needs the one before. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <DeviceProvider>
        <AuthProvider>{children}</AuthProvider>
      </DeviceProvider>
      <Toaster />
    </QueryClientProvider>
  );
}
