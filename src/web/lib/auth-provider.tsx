import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { replaceEqualDeep, useQuery } from '@tanstack/react-query';
import type { TUser } from '@shared/schemas/auth';
import type { TDeviceStatus } from '@shared/schemas/devices';
import { isApiError, NetworkError } from './api-client';
import { useAuthActions } from './auth-actions';
import { useIsOffline } from './use-online-status';
import { useDeviceIdIfReady } from './device-provider';
import {
  cacheDeviceStatus,
  cacheUser,
  DEVICE_STATUS_QUERY_KEY,
  fetchCurrentUser,
  needsOnboarding,
  readCachedDeviceStatus,
  readCachedUser,
  toClientDeviceStatus,
  USER_QUERY_KEY,
  type TClientDeviceStatus,
  type TLoginCredentials,
  type TRegisterInput,
} from './auth-api';

const USER_STALE_MS = 300_000;
const USER_MAX_RETRIES = 3;

export interface TAuthContext {
  user: TUser | null;
  deviceStatus: TClientDeviceStatus | null;
  isLoading: boolean;
  error: Error | null;
  isOffline: boolean;
  login: (credentials: TLoginCredentials) => Promise<TUser>;
  logout: () => Promise<void>;
  register: (input: TRegisterInput) => Promise<TUser>;
  /** Forget the signed-in user in this browser, e.g. after a device reset ended the session. */
  signOutLocally: () => void;
}

const AuthContext = createContext<TAuthContext | null>(null);

export function useAuth(): TAuthContext {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}

/**
 * Who is signed in. Rendered inside DeviceProvider, so the user is only
 * fetched once the device id exists.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const deviceId = useDeviceIdIfReady();
  const isOffline = useIsOffline();
  const [cachedUser] = useState(readCachedUser);
  const [cachedDeviceStatus] = useState(readCachedDeviceStatus);

  const userQuery = useQuery({
    queryKey: USER_QUERY_KEY,
    queryFn: ({ signal }) => fetchCurrentUser(signal),
    enabled: Boolean(deviceId),
    staleTime: USER_STALE_MS,
    retry: (failureCount, error) =>
      !(isApiError(error) && error.status === 401) && failureCount < USER_MAX_RETRIES,
  });

  // Offline, the last known user keeps the app usable; the server decides again once online.
  const isUsingOfflineCache =
    userQuery.data === undefined && (isOffline || userQuery.error instanceof NetworkError);
  // A returning person's page draws at once from the user this browser kept, while the server
  // confirms the session; an answer of 'signed out' takes it away. A kept user the guards would
  // send elsewhere (a first password, onboarding) waits for the server's word instead.
  const isDrawingFromCache =
    userQuery.isPending &&
    cachedUser !== null &&
    !cachedUser.firstLogin &&
    !needsOnboarding(cachedUser);
  // The server's answer usually repeats what this browser kept: it then stays the same object,
  // so the page already drawn from it is not drawn again when the answer arrives.
  const user = replaceEqualDeep(
    cachedUser,
    userQuery.data ?? (isUsingOfflineCache || isDrawingFromCache ? cachedUser : null),
  );

  const statusQuery = useQuery<TDeviceStatus>({
    queryKey: DEVICE_STATUS_QUERY_KEY,
    enabled: Boolean(user) && !isOffline,
  });

  useEffect(() => {
    if (statusQuery.error) console.warn('Device status unavailable:', statusQuery.error.message);
  }, [statusQuery.error]);

  const deviceStatus = useMemo<TClientDeviceStatus | null>(() => {
    if (!user) return null;
    const fresh = statusQuery.data ?? user.deviceSync;
    // Kept as the same object when it repeats what this browser kept, as the user is.
    return fresh
      ? replaceEqualDeep(cachedDeviceStatus, toClientDeviceStatus(fresh))
      : cachedDeviceStatus;
  }, [user, statusQuery.data, cachedDeviceStatus]);

  useEffect(() => {
    if (userQuery.data === undefined) return;
    cacheUser(userQuery.data);
    if (userQuery.data === null) cacheDeviceStatus(null);
  }, [userQuery.data]);

  useEffect(() => {
    if (deviceStatus) cacheDeviceStatus(deviceStatus);
  }, [deviceStatus]);

  const { login, logout, register, signOutLocally } = useAuthActions();

  const isLoading = userQuery.isLoading && !isDrawingFromCache;
  const value = useMemo<TAuthContext>(
    () => ({
      user,
      deviceStatus,
      isLoading,
      error: userQuery.error,
      isOffline,
      login,
      logout,
      register,
      signOutLocally,
    }),
    [
      user,
      deviceStatus,
      isLoading,
      userQuery.error,
      isOffline,
      login,
      logout,
      register,
      signOutLocally,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
