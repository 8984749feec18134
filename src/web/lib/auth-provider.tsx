import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { replaceEqualDeep, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TUser } from '@shared/schemas/auth';
import type { TDeviceStatus } from '@shared/schemas/devices';
import { dismissToast, toast } from '@web/components/ui/use-toast';
import { describeError, isApiError, NetworkError } from './api-client';
import { useIsOffline } from './use-online-status';
import { wait } from './utils';
import { useDeviceIdIfReady } from './device-provider';
import { forgetKeptQueries } from './kept-queries';
import {
  cacheDeviceStatus,
  cacheUser,
  checkSession,
  DEVICE_STATUS_QUERY_KEY,
  fetchCurrentUser,
  loginWithPassword,
  needsOnboarding,
  logoutSession,
  readCachedDeviceStatus,
  readCachedUser,
  registerAccount,
  toClientDeviceStatus,
  USER_QUERY_KEY,
  type TClientDeviceStatus,
  type TLoginCredentials,
  type TRegisterInput,
} from './auth-api';

/** The pause after sign-in or registration before the session is checked. */
const SESSION_SETTLE_MS = 500;
const USER_STALE_MS = 300_000;
const USER_MAX_RETRIES = 3;
/** Queries that do not belong to the signed-in user and survive a sign-out. */
const PERSISTENT_QUERY_PATHS = new Set<string>([USER_QUERY_KEY[0], '/api/config']);

export const AUTH_TOASTS = {
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  logoutFailed: 'Logout failed',
} as const;

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

function logSessionCheckFailure(error: unknown) {
  console.warn('Session check failed', error);
}

/**
 * Who is signed in. Rendered inside DeviceProvider, so the user is only
 * fetched once the device id exists.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
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

  const signOutLocally = useCallback(() => {
    cacheUser(null);
    cacheDeviceStatus(null);
    forgetKeptQueries();
    queryClient.setQueryData(USER_QUERY_KEY, null);
    // An answer about the user asked before the sign-out and still on its way would put them back
    // on screen when it came. Dropped, the query stays at 'signed out' (the state set above).
    void queryClient.cancelQueries({ queryKey: USER_QUERY_KEY });
    queryClient.removeQueries({
      predicate: (query) => !PERSISTENT_QUERY_PATHS.has(String(query.queryKey[0])),
    });
  }, [queryClient]);

  const applySignedInUser = useCallback(
    (signedIn: TUser) => {
      queryClient.removeQueries({ queryKey: DEVICE_STATUS_QUERY_KEY });
      queryClient.setQueryData(USER_QUERY_KEY, signedIn);
      cacheUser(signedIn);
    },
    [queryClient],
  );

  const loginMutation = useMutation({
    mutationFn: async (credentials: TLoginCredentials) => {
      const signedIn = await loginWithPassword(credentials);
      cacheDeviceStatus(signedIn.deviceSync ? toClientDeviceStatus(signedIn.deviceSync) : null);
      applySignedInUser(signedIn);
      dismissToast();
      await wait(SESSION_SETTLE_MS);
      await checkSession().catch(logSessionCheckFailure);
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      return signedIn;
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: AUTH_TOASTS.loginFailed,
        description: describeError(error, AUTH_TOASTS.loginFailed),
      });
    },
  });

  const registerMutation = useMutation({
    mutationFn: async (input: TRegisterInput) => {
      const created = await registerAccount(input);
      if (created.deviceSync) cacheDeviceStatus(toClientDeviceStatus(created.deviceSync));
      else console.warn('Registration answered without deviceSync; device status not saved');
      await wait(SESSION_SETTLE_MS);
      const verified = await fetchCurrentUser().catch(() => null);
      const result = verified ?? created;
      applySignedInUser(result);
      dismissToast();
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void checkSession().catch(logSessionCheckFailure);
      return result;
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: AUTH_TOASTS.registrationFailed,
        description: describeError(error, AUTH_TOASTS.registrationFailed),
      });
    },
  });

  const logoutMutation = useMutation({
    mutationFn: async () => {
      try {
        await logoutSession();
      } catch (error) {
        // Already signed out on the server: finish signing out here too.
        if (!(isApiError(error) && error.status === 401)) throw error;
      }
    },
    onSuccess: signOutLocally,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: AUTH_TOASTS.logoutFailed,
        description: describeError(error, 'Please try again.'),
      });
    },
  });

  const isLoading = userQuery.isLoading && !isDrawingFromCache;
  const value = useMemo<TAuthContext>(
    () => ({
      user,
      deviceStatus,
      isLoading,
      error: userQuery.error,
      isOffline,
      login: loginMutation.mutateAsync,
      logout: logoutMutation.mutateAsync,
      register: registerMutation.mutateAsync,
      signOutLocally,
    }),
    [
      user,
      deviceStatus,
      isLoading,
      userQuery.error,
      isOffline,
      loginMutation.mutateAsync,
      logoutMutation.mutateAsync,
      registerMutation.mutateAsync,
      signOutLocally,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
