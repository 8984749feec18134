import { useQuery } from '@tanstack/react-query';
import type {
  TAdminSupportRequest,
  TSupportAnswer,
  TSupportDiagnostics,
  TSupportRequest,
  TSupportRequestBody,
} from '@shared/schemas/support';
import { apiRequest } from '@web/lib/api-client';

export const HOME_SUPPORT_KEY = ['/api/care-home/support'] as const;
export const ADMIN_SUPPORT_KEY = ['/api/admin/support'] as const;

/** The home's requests and targets; refused (and so not shown) for anyone not at a home. */
export function useHomeSupport() {
  return useQuery<TSupportAnswer>({ queryKey: HOME_SUPPORT_KEY, retry: false });
}

export function useAdminSupport() {
  return useQuery<TAdminSupportRequest[]>({ queryKey: ADMIN_SUPPORT_KEY });
}

export function sendSupportRequest(body: TSupportRequestBody): Promise<TSupportRequest> {
  return apiRequest<TSupportRequest>('/api/care-home/support', { method: 'POST', body });
}

export function markSupportAnswered(id: number): Promise<TSupportRequest> {
  return apiRequest<TSupportRequest>(`/api/admin/support/${id}/answered`, { method: 'POST' });
}

/** What this browser can say about itself: never a video, a title or a recipient. */
export async function collectDiagnostics(): Promise<TSupportDiagnostics> {
  const diagnostics: TSupportDiagnostics = { browser: navigator.userAgent.slice(0, 300) };
  const version = document.querySelector('meta[name="app-version"]')?.getAttribute('content');
  if (version) diagnostics.appVersion = version.slice(0, 40);
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (estimate?.usage !== undefined) diagnostics.storageUsedBytes = Math.round(estimate.usage);
  } catch {
    // Some browsers refuse the estimate in private windows; the rest still helps.
  }
  return diagnostics;
}
