import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  TAdminDevicesPage,
  TAdminPrimaryUser,
  TAdminResetPasswordBody,
  TAdminUser,
  TAdminUsersPage,
  TConfirmEmailResult,
  TDeleteUsersResult,
  TEmailSettings,
  TOverrideTierBody,
  TSecondFactorConfirmed,
  TSecondFactorEnrolment,
  TSecondFactorStatus,
  TTestEmailResult,
  TVerifyEmailResult,
} from '@shared/schemas/admin';
import { apiRequest } from '@web/lib/api-client';

export const SECOND_FACTOR_QUERY_KEY = ['/api/admin/2fa'] as const;
export const ADMIN_USERS_QUERY_KEY = ['/api/admin/users'] as const;
export const ADMIN_PRIMARY_USERS_QUERY_KEY = ['/api/admin/primary-users'] as const;
export const ADMIN_DEVICES_QUERY_KEY = ['/api/admin/devices'] as const;
export const ADMIN_EMAIL_QUERY_KEY = ['/api/admin/email'] as const;

/** Every admin list is read fresh on each visit: other admins and users change it. */
const FRESH = { staleTime: 0, refetchOnMount: 'always' } as const;

/** GET /api/admin/2fa: enrolled, and verified in this session? */
export function useSecondFactorStatus() {
  return useQuery<TSecondFactorStatus>({ queryKey: SECOND_FACTOR_QUERY_KEY, ...FRESH });
}

export function enrolSecondFactor(): Promise<TSecondFactorEnrolment> {
  return apiRequest<TSecondFactorEnrolment>('/api/admin/2fa/enrol', { method: 'POST' });
}

export function confirmSecondFactor(code: string): Promise<TSecondFactorConfirmed> {
  return apiRequest<TSecondFactorConfirmed>('/api/admin/2fa/confirm', {
    method: 'POST',
    body: { code },
  });
}

export function verifySecondFactor(code: string): Promise<TSecondFactorStatus> {
  return apiRequest<TSecondFactorStatus>('/api/admin/2fa/verify', {
    method: 'POST',
    body: { code },
  });
}

/** A list path with the next page's position, if any, and other query parameters. */
function pagePath(path: string, cursor: string | null, params: Record<string, string> = {}) {
  const search = new URLSearchParams(params);
  if (cursor !== null) search.set('after', cursor);
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * GET /api/admin/users a page at a time, for installations of many accounts; the search runs on
 * the server, so it finds any account, not only those loaded. Keyed under ADMIN_USERS_QUERY_KEY,
 * so invalidating that key refreshes every search and every loaded page.
 */
export function useAdminUsers(search: string) {
  const q = search.trim();
  return useInfiniteQuery({
    queryKey: [...ADMIN_USERS_QUERY_KEY, { q }],
    queryFn: ({ pageParam, signal }) =>
      apiRequest<TAdminUsersPage>(pagePath('/api/admin/users', pageParam, q ? { q } : {}), {
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.users),
    // While a new search runs, the last answer stays on screen instead of a spinner.
    placeholderData: keepPreviousData,
    ...FRESH,
  });
}

/** The primary accounts, keyed by id for the 'Recipient of {name}' badge. */
export function useAdminPrimaryUsers() {
  return useQuery<TAdminPrimaryUser[], Error, Map<number, TAdminPrimaryUser>>({
    queryKey: ADMIN_PRIMARY_USERS_QUERY_KEY,
    ...FRESH,
    select: (list) => new Map(list.map((primary) => [primary.id, primary])),
  });
}

export function overrideUserTier(userId: number, body: TOverrideTierBody): Promise<TAdminUser> {
  return apiRequest<TAdminUser>(`/api/admin/users/${userId}/override`, { method: 'POST', body });
}

/** The admin's tier setting is cleared: the plan follows the account's payments again. */
export function returnUserToBilling(userId: number): Promise<TAdminUser> {
  return apiRequest<TAdminUser>(`/api/admin/users/${userId}/return-to-billing`, {
    method: 'POST',
  });
}

export function resetUserPassword(
  userId: number,
  body: TAdminResetPasswordBody,
): Promise<{ message: string }> {
  return apiRequest<{ message: string }>(`/api/admin/users/${userId}/reset-password`, {
    method: 'POST',
    body,
  });
}

export function setUserAdmin(userId: number, isAdmin: boolean): Promise<TAdminUser> {
  return apiRequest<TAdminUser>(`/api/admin/users/${userId}/admin`, {
    method: 'POST',
    body: { isAdmin },
  });
}

export function deleteUsers(ids: number[], includeRecipients = false): Promise<TDeleteUsersResult> {
  return apiRequest<TDeleteUsersResult>('/api/admin/users', {
    method: 'DELETE',
    body: { ids, includeRecipients },
  });
}

/** GET /api/admin/devices a page at a time, newest device first. */
export function useAdminDevices() {
  return useInfiniteQuery({
    queryKey: ADMIN_DEVICES_QUERY_KEY,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<TAdminDevicesPage>(pagePath('/api/admin/devices', pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.devices),
    ...FRESH,
  });
}

export function deleteDeviceAssociation(deviceId: string): Promise<{ message: string }> {
  return apiRequest<{ message: string }>(`/api/admin/devices/${encodeURIComponent(deviceId)}`, {
    method: 'DELETE',
  });
}

/** How mail leaves this installation; refetched on focus, as a link may be opened meanwhile. */
export function useEmailSettings() {
  return useQuery<TEmailSettings>({
    queryKey: ADMIN_EMAIL_QUERY_KEY,
    ...FRESH,
    refetchOnWindowFocus: true,
  });
}

export function sendVerificationEmail(email: string): Promise<TVerifyEmailResult> {
  return apiRequest<TVerifyEmailResult>('/api/verify-email', { method: 'POST', body: { email } });
}

export function sendTestEmail(email: string): Promise<TTestEmailResult> {
  return apiRequest<TTestEmailResult>('/api/test-email', { method: 'POST', body: { email } });
}

/** Public: the link in a verification mail carries its token in the URL fragment. */
export function confirmEmailVerification(token: string): Promise<TConfirmEmailResult> {
  return apiRequest<TConfirmEmailResult>('/api/verify-email/confirm', {
    method: 'POST',
    body: { token },
  });
}
