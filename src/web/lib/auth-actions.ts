import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TUser } from '@shared/schemas/auth';
import { dismissToast, toast } from '@web/components/ui/use-toast';
import { describeError, isApiError } from './api-client';
import {
  cacheDeviceStatus,
  cacheUser,
  checkSession,
  DEVICE_STATUS_QUERY_KEY,
  fetchCurrentUser,
  loginWithPassword,
  logoutSession,
  registerAccount,
  toClientDeviceStatus,
  USER_QUERY_KEY,
  type TLoginCredentials,
  type TRegisterInput,
} from './auth-api';
import { forgetKeptQueries } from './kept-queries';
import { wait } from './utils';

/** The pause after sign-in or registration before the session is checked. */
const SESSION_SETTLE_MS = 500;
/** Queries that do not belong to the signed-in user and survive a sign-out. */
const PERSISTENT_QUERY_PATHS = new Set<string>([USER_QUERY_KEY[0], '/api/config']);

export const AUTH_TOASTS = {
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  logoutFailed: 'Logout failed',
} as const;

function logSessionCheckFailure(error: unknown) {
  console.warn('Session check failed', error);
}

/** Sign-out waits at most this long for the keys to be forgotten (usually milliseconds). */
const FORGET_KEYS_WAIT_MS = 5_000;

/** No account key stays on this device (the key store loads only now, not with the app). */
function forgetDeviceKeys(): Promise<void> {
  return import('./encryption/sign-out')
    .then((keys) => keys.forgetAccountKeys())
    .catch(() => undefined);
}

/**
 * Signing in, registering and signing out, each keeping this browser's copy of the user and
 * device in step with the server; and forgetting the user here alone.
 */
export function useAuthActions() {
  const queryClient = useQueryClient();

  /** The page's signed-in state gone; the device's keys are the caller's to forget. */
  const showSignedOut = useCallback(() => {
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

  const signOutLocally = useCallback(() => {
    void forgetDeviceKeys();
    showSignedOut();
  }, [showSignedOut]);

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
      // Before the page shows the person signed out: one who closes the tab at once leaves no
      // key behind. Not for ever: a browser whose storage does not answer still signs out (and
      // the forgetting goes on behind).
      await Promise.race([
        forgetDeviceKeys(),
        new Promise((resolve) => setTimeout(resolve, FORGET_KEYS_WAIT_MS)),
      ]);
    },
    // The keys were forgotten above.
    onSuccess: showSignedOut,
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: AUTH_TOASTS.logoutFailed,
        description: describeError(error, 'Please try again.'),
      });
    },
  });

  return {
    login: loginMutation.mutateAsync,
    logout: logoutMutation.mutateAsync,
    register: registerMutation.mutateAsync,
    signOutLocally,
  };
}
