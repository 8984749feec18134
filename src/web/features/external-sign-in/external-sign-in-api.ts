import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TExternalProvider } from '@shared/domain/enums';
import type { TUser } from '@shared/schemas/auth';
import type {
  TExternalFinishBody,
  TExternalLinkCodeResponse,
  TExternalPending,
  TExternalStartResponse,
  TSignInMethods,
} from '@shared/schemas/external-sign-in';
import { cacheSignedIn } from '@web/lib/auth-api';
import { apiRequest } from '@web/lib/api-client';

export const SIGN_IN_METHODS_QUERY_KEY = ['/api/auth/identities'] as const;

/**
 * Binds a provider sign-in to this device (the API call carries its header), then leaves for the
 * provider. Resolves only if leaving fails.
 */
export async function goToProvider(
  provider: TExternalProvider,
  intent: 'sign_in' | 'link' = 'sign_in',
): Promise<void> {
  const { redirectUrl } = await apiRequest<TExternalStartResponse>(`/api/auth/${provider}/start`, {
    method: 'POST',
    body: { intent },
  });
  window.location.assign(redirectUrl);
}

export function fetchPendingSignIn(): Promise<TExternalPending> {
  return apiRequest<TExternalPending>('/api/auth/external/pending');
}

/** Instead of the password: a code emailed to the account this sign-in matched. */
export function requestLinkCode(): Promise<TExternalLinkCodeResponse> {
  return apiRequest<TExternalLinkCodeResponse>('/api/auth/external/link-code', {
    method: 'POST',
    body: {},
  });
}

export async function finishExternalSignIn(body: TExternalFinishBody): Promise<TUser> {
  const user = await apiRequest<TUser>('/api/auth/external/finish', { method: 'POST', body });
  cacheSignedIn(user);
  return user;
}

export function useSignInMethods() {
  return useQuery<TSignInMethods>({ queryKey: SIGN_IN_METHODS_QUERY_KEY });
}

export function useUnlinkProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: TExternalProvider) =>
      apiRequest<TSignInMethods>(`/api/auth/identities/${provider}`, { method: 'DELETE' }),
    onSuccess: (methods) => queryClient.setQueryData(SIGN_IN_METHODS_QUERY_KEY, methods),
  });
}
