import { useQuery } from '@tanstack/react-query';
import { DEVICE_HEADER } from '@shared/domain/device';
import type { TCreateUploadResult, TSignPartsResult, TSignedPart } from '@shared/schemas/cloud';
import {
  PAIRING_HEADER,
  type TCreatePairingBody,
  type TCurrentPairing,
  type TPairingCreated,
  type TPairingSession,
} from '@shared/schemas/pairing';
import { apiRequest } from '@web/lib/api-client';
import { readApiError } from '@web/lib/api-error';
import { getDeviceId, initDeviceId } from '@web/lib/device-id';
import { partChecksums, partHeaders } from '@web/lib/part-checksums';
import { partsToSend } from '@web/lib/parts-to-send';

export const CURRENT_PAIRING_QUERY_KEY = ['/api/pairings/current'] as const;

/** The primary device: the live pairing and how many videos have arrived (polled). */
export function useCurrentPairing() {
  return useQuery<TCurrentPairing>({
    queryKey: CURRENT_PAIRING_QUERY_KEY,
    refetchInterval: 3_000,
    staleTime: 0,
  });
}

export function createPairing(body?: TCreatePairingBody): Promise<TPairingCreated> {
  return apiRequest<TPairingCreated>('/api/pairings', { method: 'POST', body });
}

export function cancelPairing(id: string): Promise<void> {
  return apiRequest<void>(`/api/pairings/${id}`, { method: 'DELETE' });
}

/** The phone's calls carry its device id and the pairing token, and no session. */
export async function phoneRequest<T>(
  token: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const deviceId = getDeviceId() ?? (await initDeviceId());
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: {
      [DEVICE_HEADER]: deviceId,
      [PAIRING_HEADER]: token,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as T;
}

export function fetchPairingSession(token: string): Promise<TPairingSession> {
  return phoneRequest<TPairingSession>(token, '/api/pairing');
}

/** A gallery video's length, read from its own metadata. */
export function readDurationMs(file: File): Promise<number> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    const done = (ms: number) => {
      URL.revokeObjectURL(url);
      resolve(ms);
    };
    video.preload = 'metadata';
    video.onloadedmetadata = () =>
      done(Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : 0);
    video.onerror = () => done(0);
    video.src = url;
  });
}

export async function putPhonePart(token: string, part: TSignedPart, bytes: Blob): Promise<string> {
  const response = await fetch(part.url, {
    method: 'PUT',
    body: bytes,
    headers: partHeaders(part, {
      [DEVICE_HEADER]: getDeviceId() ?? '',
      [PAIRING_HEADER]: token,
      'Content-Type': 'application/octet-stream',
    }),
  });
  if (!response.ok) throw await readApiError(response);
  const etag = response.headers.get('etag');
  if (!etag) throw new Error('The upload could not be confirmed. Please try again.');
  return etag;
}

/**
 * Sends one gallery video through the pairing as a new message: indexed and started in one call,
 * then its parts, then the server checks that what arrived is the phone's copy.
 */
export async function sendFromPhone(
  token: string,
  input: { file: File; title: string; recipientId: number },
  onProgress: (sentBytes: number) => void,
): Promise<void> {
  const { file } = input;
  const durationMs = await readDurationMs(file);
  const started = await phoneRequest<TCreateUploadResult>(token, '/api/pairing/videos', {
    method: 'POST',
    body: {
      id: crypto.randomUUID(),
      recipientId: input.recipientId,
      title: input.title,
      durationMs,
      mimeType: file.type || 'video/mp4',
      byteSize: file.size,
    },
  });
  if (started.state === 'synced') return;
  const numbers = Array.from({ length: started.partCount }, (_, index) => index + 1);
  // Each part read and hashed on its own as it goes: a long gallery video is never held whole.
  const checksums = partChecksums(file, started.partSize);
  const sign = async (partNumbers: number[]) =>
    phoneRequest<TSignPartsResult>(token, `/api/uploads/${started.uploadId}/sign`, {
      method: 'POST',
      body: {
        partNumbers,
        ...(started.needsPartChecksums ? { sha256s: await checksums.of(partNumbers) } : {}),
      },
    });
  const sent: Array<{ partNumber: number; etag: string; sha256: string }> = [];
  for await (const part of partsToSend(numbers, started.parts, sign)) {
    const sha256 = await checksums.forSending(part.partNumber);
    const start = (part.partNumber - 1) * started.partSize;
    const bytes = file.slice(start, start + started.partSize);
    const etag = await putPhonePart(token, part, bytes);
    sent.push({ partNumber: part.partNumber, etag, sha256 });
    onProgress(Math.min(file.size, start + bytes.size));
  }
  await phoneRequest(token, `/api/uploads/${started.uploadId}/complete`, {
    method: 'POST',
    body: { parts: sent },
  });
}
