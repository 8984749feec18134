import { useQuery } from '@tanstack/react-query';
import { DEVICE_HEADER } from '@shared/domain/device';
import { PROGRESS_EXPORT_PATH } from '@shared/schemas/care-home-progress';
import type {
  TCareHome,
  TCareHomeAnswer,
  TCareHomeBody,
  TImportResult,
  TInviteStaffBody,
  TLetters,
  TResidentProgress,
  TResidentStatus,
  TStaffMember,
} from '@shared/schemas/care-homes';
import { apiRequest } from '@web/lib/api-client';
import { readApiError } from '@web/lib/api-error';
import { getDeviceId, initDeviceId } from '@web/lib/device-id';

export const CARE_HOME_KEY = ['/api/care-home'] as const;
export const STAFF_KEY = ['/api/care-home/staff'] as const;
export const RESIDENTS_KEY = ['/api/care-home/residents'] as const;
export const MY_CARE_HOME_KEY = ['/api/care-home/mine'] as const;

export function useCareHome() {
  return useQuery<TCareHomeAnswer>({ queryKey: CARE_HOME_KEY, staleTime: 0 });
}

export function useStaff(isEnabled: boolean) {
  return useQuery<TStaffMember[]>({ queryKey: STAFF_KEY, enabled: isEnabled });
}

export function useResidents(isEnabled: boolean) {
  return useQuery<TResidentProgress[]>({ queryKey: RESIDENTS_KEY, enabled: isEnabled });
}

/** Records that a resident left the home, came back, or died. */
export function setResidentStatus(
  linkId: number,
  status: TResidentStatus,
): Promise<{ status: TResidentStatus; statusChangedAt: string }> {
  return apiRequest(`/api/care-home/residents/${linkId}/status`, {
    method: 'PUT',
    body: { status },
  });
}

/** Pauses a resident (not offered at the stations) or turns Memento back on for them. */
export function setResidentPaused(linkId: number, paused: boolean): Promise<{ paused: boolean }> {
  return apiRequest(`/api/care-home/residents/${linkId}/pause`, {
    method: 'PUT',
    body: { paused },
  });
}

/** The progress table as the server writes it for spreadsheets, with the file's name. */
export async function fetchProgressSpreadsheet(): Promise<{ blob: Blob; fileName: string }> {
  const deviceId = getDeviceId() ?? (await initDeviceId());
  const response = await fetch(PROGRESS_EXPORT_PATH, {
    credentials: 'include',
    headers: { [DEVICE_HEADER]: deviceId, Accept: 'text/csv' },
  });
  if (!response.ok) throw await readApiError(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'progress.csv';
  return { blob: await response.blob(), fileName };
}

export function saveCareHome(body: TCareHomeBody): Promise<TCareHome> {
  return apiRequest<TCareHome>('/api/care-home', { method: 'PUT', body });
}

/** The logo goes as the picture itself, not as JSON, so the server can check its bytes. */
export async function uploadLogo(file: File): Promise<TCareHome> {
  const deviceId = getDeviceId() ?? (await initDeviceId());
  const response = await fetch('/api/care-home/logo', {
    method: 'PUT',
    credentials: 'include',
    headers: { [DEVICE_HEADER]: deviceId, 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as TCareHome;
}

export function removeLogo(): Promise<TCareHome> {
  return apiRequest<TCareHome>('/api/care-home/logo', { method: 'DELETE' });
}

export function inviteStaff(body: TInviteStaffBody): Promise<TStaffMember> {
  return apiRequest<TStaffMember>('/api/care-home/staff', { method: 'POST', body });
}

export function disableStaff(id: number): Promise<TStaffMember> {
  return apiRequest<TStaffMember>(`/api/care-home/staff/${id}/disable`, { method: 'POST' });
}

export function acceptStaffInvite(token: string): Promise<{ homeName: string }> {
  return apiRequest<{ homeName: string }>('/api/care-home/staff/accept', {
    method: 'POST',
    body: { token },
  });
}

export function importResidents(csv: string, dryRun: boolean): Promise<TImportResult> {
  return apiRequest<TImportResult>('/api/care-home/residents/import', {
    method: 'POST',
    body: { csv, dryRun },
  });
}

/** POST /api/care-home/letters: new codes for the families named, or all who have not joined. */
export function printLetters(residentIds?: number[]): Promise<TLetters> {
  return apiRequest<TLetters>('/api/care-home/letters', {
    method: 'POST',
    body: residentIds ? { residentIds } : {},
  });
}

/** "Pause Memento for me", from the resident's own device; or turning it back on. */
export function setMyPause(paused: boolean): Promise<{ paused: boolean }> {
  return apiRequest('/api/care-home/my-pause', { method: 'PUT', body: { paused } });
}
