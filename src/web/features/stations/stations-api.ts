import { DEVICE_HEADER } from '@shared/domain/device';
import type { TStationAnswer, TStationRecipient, TStationResident } from '@shared/schemas/stations';
import { apiRequest } from '@web/lib/api-client';
import { readApiError } from '@web/lib/api-error';
import { getDeviceId, initDeviceId, saveDeviceId } from '@web/lib/device-id';
import { dropStationKey } from './station-key';

export const STATION_KEY = ['/api/station'] as const;
const KEPT_LOCAL_KEY = 'cookieConsent';

export function makeStation(name: string): Promise<{ name: string }> {
  return apiRequest('/api/care-home/station', { method: 'POST', body: { name } });
}

export function setStationPin(pin: string): Promise<void> {
  return apiRequest('/api/care-home/pin', { method: 'PUT', body: { pin } });
}

export function getStation(): Promise<TStationAnswer> {
  return apiRequest('/api/station');
}

export function signInAtStation(staffId: number, pin: string): Promise<void> {
  return apiRequest('/api/station/sign-in', { method: 'POST', body: { staffId, pin } });
}

export function listStationResidents(): Promise<TStationResident[]> {
  return apiRequest('/api/station/residents');
}

export function pickStationResident(residentId: number): Promise<TStationResident> {
  return apiRequest('/api/station/resident', { method: 'POST', body: { residentId } });
}

export function listStationRecipients(): Promise<TStationRecipient[]> {
  return apiRequest('/api/station/recipients');
}

export function pauseAtStation(): Promise<void> {
  return apiRequest('/api/station/pause', { method: 'POST' });
}

/** The take goes as the video itself, straight to the resident's library; nothing stays here. */
export async function saveStationRecording(input: {
  takeId: string;
  blob: Blob;
  recipientId: number;
  durationMs: number;
  /** Shared with the resident's care team too, as they chose. */
  careTeam?: boolean;
}): Promise<{ saved: true; recipientName: string }> {
  const deviceId = getDeviceId() ?? (await initDeviceId());
  const query = new URLSearchParams({
    takeId: input.takeId,
    recipientId: String(input.recipientId),
    durationMs: String(Math.round(input.durationMs)),
    careTeam: input.careTeam ? 'yes' : 'no',
  });
  const response = await fetch(`/api/station/recordings?${query}`, {
    method: 'POST',
    credentials: 'include',
    headers: {
      [DEVICE_HEADER]: deviceId,
      'Content-Type': (input.blob.type || 'video/webm').split(';')[0]!,
    },
    body: input.blob,
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as { saved: true; recipientName: string };
}

/**
 * Ends the session on the server and leaves nothing of the resident's in this browser: session
 * and local storage, every IndexedDB database and cache. Only the station's device id stays.
 */
export async function finishAtStation(): Promise<void> {
  // A sealed resident's keys first: they were only ever in this page's memory.
  dropStationKey();
  const deviceId = getDeviceId();
  await apiRequest('/api/station/finish', { method: 'POST' }).catch(() => undefined);
  try {
    // The cookie choice belongs to the tablet, not to anyone who used it.
    const consent = window.localStorage.getItem(KEPT_LOCAL_KEY);
    window.sessionStorage.clear();
    window.localStorage.clear();
    if (consent !== null) window.localStorage.setItem(KEPT_LOCAL_KEY, consent);
  } catch {
    // Storage turned off: there is nothing in it to clear.
  }
  if (deviceId) saveDeviceId(deviceId);
  if ('indexedDB' in window && typeof indexedDB.databases === 'function') {
    const databases = await indexedDB.databases();
    await Promise.all(
      databases.map(
        ({ name }) =>
          new Promise<void>((resolve) => {
            if (!name) return resolve();
            const request = indexedDB.deleteDatabase(name);
            request.onsuccess = request.onerror = request.onblocked = () => resolve();
          }),
      ),
    );
  }
  if ('caches' in window) {
    const names = await caches.keys();
    await Promise.all(names.map((name) => caches.delete(name)));
  }
}
