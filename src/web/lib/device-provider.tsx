import {
  createContext,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { RefreshCw } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { isApiError } from './api-error';
import { adoptStoredDeviceId, getDeviceId, initDeviceId, subscribeToDeviceId } from './device-id';

export const DEVICE_MESSAGES = {
  initializing: 'Initializing your device...',
  failedTitle: 'Device Initialization Failed',
  failed: 'Failed to initialize device. Please refresh the page.',
  toastTitle: 'Device Error',
  otherAddressTitle: 'Memento is at another address',
  otherAddressOperator:
    'If you look after this Memento and want it opened at this address, set APP_URL to it and restart Memento.',
} as const;

const DeviceIdContext = createContext<string | null>(null);

/**
 * This browser's device id. Only usable where the id exists: below DeviceProvider, which renders
 * once it does, except on a visitor's page (see `useDeviceIdIfReady`).
 */
export function useDeviceId(): string {
  const deviceId = useContext(DeviceIdContext);
  if (!deviceId) throw new Error('useDeviceId must be used within a DeviceProvider');
  return deviceId;
}

/** The device id, or null while a visitor's page registers this browser behind the scenes. */
export function useDeviceIdIfReady(): string | null {
  return useContext(DeviceIdContext);
}

function DeviceInitializing() {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 p-6 text-center">
      <Spinner className="size-14" />
      <p role="status" className="text-xl font-semibold">
        {DEVICE_MESSAGES.initializing}
      </p>
    </div>
  );
}

function DeviceInitFailed() {
  return (
    <FailedPanel title={DEVICE_MESSAGES.failedTitle}>
      <p className="text-lg text-muted-foreground">{DEVICE_MESSAGES.failed}</p>
      <Button size="lg" onClick={() => window.location.reload()}>
        <RefreshCw aria-hidden="true" />
        Refresh Page
      </Button>
    </FailedPanel>
  );
}

/**
 * The page was opened by another name than the one Memento is set up for (an IP address, say):
 * refreshing cannot help, so the server's answer says where to go instead.
 */
function OtherAddress({ message }: { message: string }) {
  return (
    <FailedPanel title={DEVICE_MESSAGES.otherAddressTitle}>
      <p className="text-lg">{message}</p>
      <p className="text-lg text-muted-foreground">{DEVICE_MESSAGES.otherAddressOperator}</p>
    </FailedPanel>
  );
}

function FailedPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      <div className="flex max-w-lg flex-col items-center gap-5 rounded-xl border border-border bg-card p-8 text-center shadow-soft sm:p-10">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {children}
      </div>
    </main>
  );
}

type TInitState = 'initializing' | 'ready' | 'failed' | { otherAddress: string };

interface DeviceProviderProps {
  children: ReactNode;
  /**
   * A page rendered for a visitor at build time shows at once: it needs nothing from the server,
   * and every request waits for the registration itself (api-client).
   */
  isVisitorPage?: boolean;
}

/**
 * Gives this browser a device identity before anything else talks to the server: the app below
 * only renders once the id exists.
 */
export function DeviceProvider({ children, isVisitorPage = false }: DeviceProviderProps) {
  // A browser that already holds its id draws the app in its first render: no spinner between.
  // A visitor's page was rendered without one, and is adopted as it is.
  const [initState, setInitState] = useState<TInitState>(() =>
    !isVisitorPage && adoptStoredDeviceId() ? 'ready' : 'initializing',
  );
  const deviceId = useSyncExternalStore(subscribeToDeviceId, getDeviceId, getDeviceId);

  useEffect(() => {
    let isCancelled = false;
    initDeviceId()
      .then(() => {
        if (!isCancelled) setInitState('ready');
      })
      .catch((error: unknown) => {
        if (isCancelled) return;
        console.warn('Device initialisation failed', error);
        if (isApiError(error, 'ORIGIN_MISMATCH')) {
          setInitState({ otherAddress: error.message });
          return;
        }
        setInitState('failed');
        toast({
          variant: 'destructive',
          title: DEVICE_MESSAGES.toastTitle,
          description: DEVICE_MESSAGES.failed,
        });
      });
    return () => {
      isCancelled = true;
    };
  }, []);

  if (initState === 'failed') return <DeviceInitFailed />;
  if (typeof initState === 'object') return <OtherAddress message={initState.otherAddress} />;
  if (!isVisitorPage && (initState === 'initializing' || !deviceId)) return <DeviceInitializing />;
  return <DeviceIdContext.Provider value={deviceId}>{children}</DeviceIdContext.Provider>;
}
