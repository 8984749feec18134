import { useQuery } from '@tanstack/react-query';
import type { TRelease } from '@shared/domain/legacy';
import type { TLegacySettings, TLegacyState, TNextOfKinLegacy } from '@shared/schemas/legacy';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { apiRequest, isApiError } from '@web/lib/api-client';
import { proveCode } from '@web/lib/encryption/code-sign-in';

export const LEGACY_QUERY_KEY = ['/api/legacy'] as const;

/** The zone the owner's dates are meant in, so reminders and releases fall on their days. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** GET /api/legacy: the owner's settings and where a release stands. */
export function useLegacyState() {
  return useQuery<TLegacyState>({
    queryKey: LEGACY_QUERY_KEY,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

export function saveLegacySettings(settings: TLegacySettings): Promise<TLegacyState> {
  return apiRequest<TLegacyState>('/api/legacy/settings', {
    method: 'PUT',
    body: { ...settings, timeZone: browserTimeZone() },
  });
}

/** The owner cancels a waiting release from any of their signed-in devices. */
export function cancelRelease(): Promise<TLegacyState> {
  return apiRequest<TLegacyState>('/api/legacy/cancel', { method: 'POST' });
}

/** The owner, alive after a release, ends it: unwatched messages close again. */
export function endRelease(): Promise<TLegacyState> {
  return apiRequest<TLegacyState>('/api/legacy/end', { method: 'POST' });
}

/** The owner stops a next of kin from asking to release the legacy, or lets them ask again. */
export function setNextOfKinAsking(nextOfKinId: number, isAllowed: boolean): Promise<TLegacyState> {
  return apiRequest<TLegacyState>(`/api/legacy/next-of-kin/${nextOfKinId}/asking`, {
    method: 'PUT',
    body: { isAllowed },
  });
}

/** The owner cancels with the single-use link from their email; no sign-in. */
export function cancelReleaseByLink(token: string): Promise<{ ownerFirstName: string }> {
  return apiRequest<{ ownerFirstName: string }>('/api/legacy/cancel-link', {
    method: 'POST',
    body: { token },
  });
}

/**
 * The next of kin asks to release their owner's legacy with their emergency code: its proof
 * goes (the code never leaves this device), or the code as typed when the server made it.
 */
export async function requestRelease(email: string, emergencyCode: string) {
  const { codeProof } = await proveCode(email, emergencyCode);
  const send = (body: { codeProof: string } | { emergencyCode: string }) =>
    apiRequest<TNextOfKinLegacy>('/api/legacy/requests', { method: 'POST', body });
  try {
    return await send({ codeProof });
  } catch (error) {
    if (!isApiError(error, 'CODE_NEEDED')) throw error;
    return send({ emergencyCode });
  }
}

/** PUT /api/videos/:id/release: the owner changes when one message opens. */
export function setMessageRelease(videoId: string, release: TRelease): Promise<TVideoIndexEntry> {
  return apiRequest<TVideoIndexEntry>(`/api/videos/${videoId}/release`, {
    method: 'PUT',
    body: { ...release, timeZone: browserTimeZone() },
  });
}
